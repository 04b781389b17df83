/// vCard 4.0 (RFC 6350) for one person: UTF-8, CRLF, text escaped (`\\`, `\,`, `\;`, `\n`), lines folded at
/// 75 octets without splitting a UTF-8 sequence.
enum VCard {
    /// The complete card, ending in CRLF.
    static func card(for person: SitePerson) -> String {
        String(decoding: cardBytes(for: person), as: UTF8.self)
    }

    /// The complete card as UTF-8, as the person page and the `people.vcf` export write it.
    ///
    /// Written straight into bytes, line by line, with only long lines folded: building each line as a `String`
    /// and joining them was most of the `people.vcf` export's time.
    static func cardBytes(for person: SitePerson) -> [UInt8] {
        var card = CardBytes()
        card.line("BEGIN:VCARD")
        card.line("VERSION:4.0")
        if isUUID(person.user.id) {
            card.line("UID:urn:uuid:", person.user.id.lowercased())
        } else {
            card.line("UID;VALUE=text:", text(person.user.id))
        }
        card.line("FN:", text(person.user.displayName))
        card.line("N:", text(person.user.surname ?? ""), ";", text(person.user.givenName ?? ""), ";;;")
        if person.user.companyName != nil || person.user.department != nil {
            card.line(
                "ORG:", text(person.user.companyName ?? ""), person.user.department == nil ? "" : ";",
                text(person.user.department ?? ""))
        }
        if let title = person.user.jobTitle { card.line("TITLE:", text(title)) }
        if let mail = person.user.mail { card.line("EMAIL;TYPE=work:", text(mail)) }
        for (position, phone) in person.phones.enumerated() {
            let isMobile = person.user.mobilePhone != nil && position == person.phones.count - 1
            let type = isMobile ? "cell,voice" : "work,voice"
            // A local number's tel: URI would need a phone-context (RFC 3966) orgdir cannot know: keep it as text.
            if let uri = phone.link.uri, uri.hasPrefix("tel:+") {
                card.line("TEL;VALUE=uri;TYPE=\"", type, "\":", uri)
            } else {
                card.line("TEL;VALUE=text;TYPE=\"", type, "\":", text(phone.link.written))
            }
        }
        if let office = person.user.officeLocation {
            card.line("ADR;TYPE=work:;", text(office), ";;;;;")
        }
        card.line("END:VCARD")
        return card.bytes
    }

    /// A card's bytes, one content line at a time (each folded and ended with CRLF).
    private struct CardBytes {
        var bytes: [UInt8] = []

        init() {
            bytes.reserveCapacity(512)
        }

        /// Appends the line made of the parts (a line is at most six pieces). Each part is appended on its own:
        /// gathering them in an array first allocated one per line, a dozen per card, and the `people.vcf` export
        /// makes a card for everyone.
        mutating func line(
            _ first: String, _ second: String = "", _ third: String = "", _ fourth: String = "", _ fifth: String = "",
            _ sixth: String = ""
        ) {
            let start = bytes.count
            append(first)
            append(second)
            append(third)
            append(fourth)
            append(fifth)
            append(sixth)
            if bytes.count - start > 75 {
                let line = Array(bytes[start...])
                bytes.removeSubrange(start...)
                bytes += VCard.fold(line)
            }
            bytes.append(0x0D)
            bytes.append(0x0A)
        }

        private mutating func append(_ part: String) {
            bytes.append(contentsOf: part.utf8)
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
        value.utf8.contains { byte in
            byte < 0x20 || byte == 0x7F || byte == 0x5C || byte == 0x2C || byte == 0x3B || byte == 0xE2
        }
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
        guard id.utf8.count == 36 else { return false }
        for (position, byte) in id.utf8.enumerated() {
            switch position {
            case 8, 13, 18, 23:
                if byte != 0x2D { return false }
            default:
                let isHex =
                    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
                if !isHex { return false }
            }
        }
        return true
    }
}
