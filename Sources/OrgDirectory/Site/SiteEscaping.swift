/// Escaping of directory values for each place they land: HTML, Markdown, URLs and JavaScript data.
///
/// All functions work on UTF-8 bytes with a fast path that returns the input untouched when nothing needs
/// escaping, because they run several times per person on 100,000 people.
enum SiteEscaping {
    /// Text safe to show: control characters become spaces and bidirectional overrides/isolates are dropped,
    /// so a U+202E in a name cannot reorder the text around it.
    static func displayText(_ value: String) -> String {
        guard needsDisplayCleanup(value) else { return value }
        var result = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            if isBidiControl(scalar) { continue }
            result.append(isControl(scalar) ? " " : scalar)
        }
        return String(result)
    }

    /// Whether `displayText` changes `value`: one pass over its UTF-8 bytes, no scalar decoding, since nearly
    /// every directory value is clean and this runs for every value on every page.
    private static func needsDisplayCleanup(_ value: String) -> Bool {
        value.withUTF8Bytes { bytes in
            bytes.indices.contains { needsDisplayCleanup(bytes, at: $0) }
        }
    }

    /// Whether the UTF-8 sequence at `position` of `bytes` is one `displayText` changes: a C0 or C1 control, DEL,
    /// or a bidi override or isolate (U+202A…U+202E, U+2066…U+2069).
    static func needsDisplayCleanup(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        let byte = bytes[position]
        if byte < 0x20 || byte == 0x7F { return true }
        if byte == 0xC2, position + 1 < bytes.count, bytes[position + 1] < 0xA0 {
            return true  // U+0080…U+009F
        }
        if byte == 0xE2, position + 2 < bytes.count {
            let second = bytes[position + 1]
            let third = bytes[position + 2]
            if second == 0x80, (0xAA...0xAE).contains(third) { return true }
            if second == 0x81, (0xA6...0xA9).contains(third) { return true }
        }
        return false
    }

    /// HTML text and attribute values (quoted with `"` or `'`).
    static func html(_ value: String) -> String {
        let text = displayText(value)
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case 0x26: bytes.append(contentsOf: Array("&amp;".utf8))
            case 0x3C: bytes.append(contentsOf: Array("&lt;".utf8))
            case 0x3E: bytes.append(contentsOf: Array("&gt;".utf8))
            case 0x22: bytes.append(contentsOf: Array("&quot;".utf8))
            case 0x27: bytes.append(contentsOf: Array("&#39;".utf8))
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Markdown inline text. Escaped with a backslash: everything that can open inline syntax (emphasis, code,
    /// links, images, HTML, entities, tables, strikethrough), `:` and `@` (so no autolink forms), `.` when the
    /// value contains `www.`, and a leading `-`, `+`, `=` or `1.`-style marker (so a value at the start of a line
    /// cannot become a list, heading underline or heading). Line breaks become spaces, so a value cannot start a
    /// new block. Other punctuation stays readable in the `.md` files.
    static func markdown(_ value: String) -> String {
        let text = displayText(value)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        let escaped = appendMarkdown(displayed: text, escapingDots: mentionsWWW(text), checking: false, to: &bytes)
        return escaped == true ? String(decoding: bytes, as: UTF8.self) : text
    }

    /// `markdown(value)` appended to `bytes` (the compiled `person.md` writes straight into its page).
    static func appendMarkdown(_ value: String, to bytes: inout [UInt8]) {
        // One pass for nearly every value, which is display-safe and has no `www.`: the cleanup check, the `www.`
        // check and the escaping were three passes over each value of each page.
        let start = bytes.count
        if appendMarkdown(displayed: value, escapingDots: false, checking: true, to: &bytes) != nil { return }
        bytes.removeSubrange(start...)
        let text = displayText(value)
        _ = appendMarkdown(displayed: text, escapingDots: mentionsWWW(text), checking: false, to: &bytes)
    }

    /// Appends the escaped `text` to `bytes`; returns whether anything was escaped. The bytes between escapes
    /// are appended as runs: a value has one or two escapes at most, and appending byte by byte was most of
    /// writing a person's Markdown page. `text` must be display-safe with `escapingDots` as `mentionsWWW` says,
    /// unless `checking`: then it stops (returning nil, with part of the value appended) at the first byte
    /// `displayText` would change and at a `www.`, for the caller to start over.
    private static func appendMarkdown(
        displayed text: String, escapingDots escapeDots: Bool, checking: Bool, to bytes: inout [UInt8]
    ) -> Bool? {
        text.withUTF8Bytes { utf8 in
            var escaped = false
            var leadingDigits = true
            var runStart = 0
            for position in 0..<utf8.count {
                let byte = utf8[position]
                if checking, byte < 0x20 || byte >= 0x7F, needsDisplayCleanup(utf8, at: position) { return nil }
                if checking, dotEndsWWW(utf8, at: position) { return nil }
                var escape = markdownAlwaysEscaped(byte) || (escapeDots && byte == 0x2E)
                if position == 0, byte == 0x2D || byte == 0x2B || byte == 0x3D { escape = true }
                if leadingDigits {
                    if byte >= 0x30 && byte <= 0x39 {
                        // still in a leading number
                    } else {
                        if position > 0, byte == 0x2E || byte == 0x29 { escape = true }
                        leadingDigits = false
                    }
                }
                guard escape else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                bytes.append(0x5C)
                runStart = position
                escaped = true
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
            return escaped
        }
    }

    /// Whether the byte at `position` of `bytes` is a `.` after three `w`/`W` bytes: where `mentionsWWW` looks
    /// further, and what cmark-gfm's autolink extension takes for a web address.
    static func dotEndsWWW(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        func isW(_ byte: UInt8) -> Bool { byte == 0x77 || byte == 0x57 }
        return bytes[position] == 0x2E && position >= 3 && isW(bytes[position - 1]) && isW(bytes[position - 2])
            && isW(bytes[position - 3])
    }

    /// Whether the text holds `www.` in any case, Character by Character (a `.` carrying a combining mark is
    /// not a dot). Only an ASCII `w`/`W` lowercases to `w`, so without those bytes in a row the answer is no
    /// and the lowercased copy is never made.
    private static func mentionsWWW(_ text: String) -> Bool {
        var run = 0
        for byte in text.utf8 {
            if byte == 0x77 || byte == 0x57 {
                run += 1
            } else if byte == 0x2E, run >= 3 {
                return text.lowercased().contains("www.")
            } else {
                run = 0
            }
        }
        return false
    }

    /// Characters escaped wherever they appear in a Markdown value.
    private static func markdownAlwaysEscaped(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x5C, 0x60, 0x2A, 0x5F, 0x7B, 0x7D, 0x5B, 0x5D, 0x28, 0x29, 0x3C, 0x3E, 0x23, 0x21, 0x7C, 0x7E, 0x26,
            0x3A, 0x40:
            return true
        default:
            return false
        }
    }

    /// A URL component: everything but RFC 3986 unreserved characters and `extra` is percent-encoded.
    static func percentEncoded(_ value: String, keeping extra: String = "") -> String {
        func kept(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E || extra.utf8.contains(byte)
        }
        // Most values (mail addresses) need no escape: returned as they are, with no copy.
        guard !value.utf8.allSatisfy(kept) else { return value }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 16)
        for byte in value.utf8 {
            if kept(byte) {
                bytes.append(byte)
            } else {
                bytes.append(0x25)
                bytes.append(upperHexDigits[Int(byte >> 4)])
                bytes.append(upperHexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let upperHexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// A `mailto:` URL for an address, safe inside Markdown link destinations and HTML attributes.
    static func mailtoURL(_ address: String) -> String {
        "mailto:" + mailtoAddress(address)
    }

    /// The part of `mailtoURL(address)` after `mailto:`: ASCII only, so it escapes the same alone as in the URL.
    static func mailtoAddress(_ address: String) -> String {
        percentEncoded(address, keeping: "@+!$*=")
    }

    /// A JSON string literal (with quotes) that is also safe inside an HTML `<script>` element or a JSONP
    /// file: `<`, `>`, `&`, U+2028 and U+2029 are written as `\u` escapes.
    static func jsonString(_ value: String) -> String {
        var bytes: [UInt8] = [0x22]
        appendJSONString(value, to: &bytes)
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the body of a JSON string literal (no quotes) to `bytes`: runs of bytes that need no escape are
    /// copied whole (nearly every value is one such run; byte-by-byte appends were a tenth of the exports).
    static func appendJSONString(_ value: String, to bytes: inout [UInt8]) {
        value.withUTF8Bytes { utf8 in
            var runStart = 0
            var position = 0
            func flushRun() {
                if runStart < position {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                }
            }
            while position < utf8.count {
                let byte = utf8[position]
                let escape: [UInt8]?
                var length = 1
                switch byte {
                case 0x22: escape = [0x5C, 0x22]
                case 0x5C: escape = [0x5C, 0x5C]
                case 0x0A: escape = [0x5C, 0x6E]
                case 0x0D: escape = [0x5C, 0x72]
                case 0x09: escape = [0x5C, 0x74]
                case 0x00..<0x20, 0x3C, 0x3E, 0x26, 0x7F:
                    let hex = HexDigits.lowercase
                    escape = [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                case 0xE2
                where position + 2 < utf8.count && utf8[position + 1] == 0x80
                    && (utf8[position + 2] == 0xA8 || utf8[position + 2] == 0xA9):
                    // U+2028 and U+2029 (E2 80 A8 / E2 80 A9) end a line in older JavaScript parsers.
                    escape = Array("\\u202".utf8) + [utf8[position + 2] == 0xA8 ? 0x38 : 0x39]
                    length = 3
                default:
                    escape = nil
                }
                guard let escape else {
                    position += 1
                    continue
                }
                flushRun()
                bytes.append(contentsOf: escape)
                position += length
                runStart = position
            }
            flushRun()
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }

    /// Embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they reorder the text that follows.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
