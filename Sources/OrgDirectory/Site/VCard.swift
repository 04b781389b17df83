/// vCard 4.0 (RFC 6350) for one person: UTF-8, CRLF, text escaped (`\\`, `\,`, `\;`, `\n`), lines folded at
/// 75 octets without splitting a UTF-8 sequence.
enum VCard {
    /// The complete card as UTF-8, ending in CRLF, as the person page and the `people.vcf` export write it.
    ///
    /// Written straight into bytes, line by line, with only long lines folded and values escaped into the card:
    /// building each line (and each escaped value) as a `String` was most of the `people.vcf` export's time, and a
    /// build makes every card twice (the person's file and the export).
    static func cardBytes(for person: SitePerson) -> [UInt8] {
        var card = CardBytes()
        appendCard(of: person.user, phones: person.phones, to: &card)
        return card.bytes
    }

    /// `cardBytes(for:)` appended to `bytes`, for `people.vcf`, which is everyone's cards one after another: made
    /// in place, where a card of its own was an array made, copied and freed for each person.
    static func appendCard(for person: SitePerson, to bytes: inout [UInt8]) {
        var card = CardBytes(continuing: &bytes)
        appendCard(of: person.user, phones: person.phones, to: &card)
        swap(&card.bytes, &bytes)
    }

    /// The card of `user` with `phones` appended to `card`, the user borrowed where it is kept (a copy retained
    /// every field).
    private static func appendCard(
        of user: borrowing User, phones: [(label: String, link: TelephoneLink)], to card: inout CardBytes
    ) {
        card.raw("BEGIN:VCARD\r\nVERSION:4.0\r\n")
        if isUUID(user.id) {
            card.raw("UID:urn:uuid:")
            card.lowercasedASCII(user.id)
        } else {
            card.raw("UID;VALUE=text:")
            card.text(user.id)
        }
        card.endLine()
        card.raw("FN:")
        card.text(user.displayName)
        card.endLine()
        card.raw("N:")
        card.text(user.surname)
        card.raw(";")
        card.text(user.givenName)
        card.raw(";;;")
        card.endLine()
        if user.companyName != nil || user.department != nil {
            card.raw("ORG:")
            card.text(user.companyName)
            if let department = user.department {
                card.raw(";")
                card.text(department)
            }
            card.endLine()
        }
        if let title = user.jobTitle {
            card.raw("TITLE:")
            card.text(title)
            card.endLine()
        }
        if let mail = user.mail {
            card.raw("EMAIL;TYPE=work:")
            card.text(mail)
            card.endLine()
        }
        for position in phones.indices {
            let link = phones[position].link
            let isMobile = user.mobilePhone != nil && position == phones.count - 1
            // A local number's tel: URI would need a phone-context (RFC 3966) orgdir cannot know: keep it as text.
            if let uri = link.uri, uri.hasPrefix("tel:+") {
                card.raw(isMobile ? "TEL;VALUE=uri;TYPE=\"cell,voice\":" : "TEL;VALUE=uri;TYPE=\"work,voice\":")
                card.raw(uri)
            } else {
                card.raw(isMobile ? "TEL;VALUE=text;TYPE=\"cell,voice\":" : "TEL;VALUE=text;TYPE=\"work,voice\":")
                card.text(link.written)
            }
            card.endLine()
        }
        if let office = user.officeLocation {
            card.raw("ADR;TYPE=work:;")
            card.text(office)
            card.raw(";;;;;")
            card.endLine()
        }
        card.raw("END:VCARD\r\n")
    }

    /// A card's bytes, one content line at a time: parts are appended to the open line, and `endLine` folds it
    /// when it is long and ends it with CRLF.
    private struct CardBytes {
        var bytes: [UInt8] = []
        /// Where the open line starts.
        private var lineStart = 0

        init() {
            bytes.reserveCapacity(512)
        }

        /// A card appended to `bytes`, which it takes over (`bytes` is left empty until handed back).
        init(continuing bytes: inout [UInt8]) {
            swap(&self.bytes, &bytes)
            lineStart = self.bytes.count
        }

        /// Appends `part` as it is (a literal, or a value that needs no escaping).
        mutating func raw(_ part: String) {
            part.withUTF8Bytes { bytes.append(contentsOf: $0) }
        }

        /// Appends a TEXT value escaped (`VCard.text`); nothing for nil. Most values need no escaping and are
        /// copied as they are.
        mutating func text(_ value: String?) {
            guard let value else { return }
            let copied = value.withUTF8Bytes { utf8 in
                guard !utf8.contains(where: VCard.needsEscaping) else { return false }
                bytes.append(contentsOf: utf8)
                return true
            }
            if !copied { raw(VCard.text(value)) }
        }

        /// Appends an ASCII value lowercased (an id that `isUUID`).
        mutating func lowercasedASCII(_ value: String) {
            value.withUTF8Bytes { utf8 in
                for byte in utf8 { bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) }
            }
        }

        /// Ends the open line: folded when longer than 75 octets, then CRLF.
        mutating func endLine() {
            if bytes.count - lineStart > 75 {
                let line = Array(bytes[lineStart...])
                bytes.removeSubrange(lineStart...)
                bytes += VCard.fold(line)
            }
            bytes.append(0x0D)
            bytes.append(0x0A)
            lineStart = bytes.count
        }
    }

    /// A TEXT value: backslash, comma, semicolon and line breaks escaped, other control characters and bidi
    /// overrides dropped (an address book would otherwise show "evil\u{202E}gnp.exe" as "evilexe.png").
    static func text(_ value: String) -> String {
        guard needsEscaping(value) else { return value }
        var result = ""
        result.reserveCapacity(value.utf8.count)
        var previousWasCR = false
        for scalar in value.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": result += "\\\\"
            case ",": result += "\\,"
            case ";": result += "\\;"
            case "\r": result += "\\n"
            case "\n": if !previousWasCR { result += "\\n" }
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || SiteEscaping.isBidiControl(scalar) { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `text` changes the value: any byte of `\\ , ;`, a C0 control or DEL, or the lead byte of a
    /// bidi control (U+202A…U+202E, U+2066…U+2069 all start with E2). Most values have none, and skip the copy.
    private static func needsEscaping(_ value: String) -> Bool {
        value.utf8.contains(where: needsEscaping)
    }

    /// Whether `byte` is one `needsEscaping` looks for.
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0x5C || byte == 0x2C || byte == 0x3B || byte == 0xE2
    }

    /// Folds a content line: at most 75 octets per physical line, continuation lines start with a space.
    static func fold(_ line: String) -> String {
        guard line.utf8.count > 75 else { return line }
        return String(decoding: fold(Array(line.utf8)), as: UTF8.self)
    }

    /// `fold` on the line's bytes.
    static func fold(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var lineLength = 0
        var index = 0
        while index < bytes.count {
            var sequenceLength = 1
            while index + sequenceLength < bytes.count, bytes[index + sequenceLength] & 0xC0 == 0x80 {
                sequenceLength += 1
            }
            if lineLength + sequenceLength > 75 {
                result += [0x0D, 0x0A, 0x20]
                lineLength = 1
            }
            result += bytes[index..<(index + sequenceLength)]
            lineLength += sequenceLength
            index += sequenceLength
        }
        return result
    }

    private static func isUUID(_ id: String) -> Bool {
        id.withUTF8Bytes { utf8 in
            guard utf8.count == 36 else { return false }
            for (position, byte) in utf8.enumerated() {
                switch position {
                case 8, 13, 18, 23:
                    if byte != 0x2D { return false }
                default:
                    let isHex =
                        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66)
                        || (byte >= 0x41 && byte <= 0x46)
                    if !isHex { return false }
                }
            }
            return true
        }
    }
}
