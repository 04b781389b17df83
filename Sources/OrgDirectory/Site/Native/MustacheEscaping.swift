/// HTML escaping byte for byte as swift-mustache does it, for the compiled templates.
///
/// swift-mustache escapes `<`, `>`, `&`, `"` and `'` per Character (grapheme cluster): such a byte that shares
/// its cluster with a neighbour (a combining mark after it, a prepended mark before it) is a different
/// Character and stays as it is. Compiled templates must give the same bytes, so the rare byte next to a
/// non-ASCII scalar is checked the same way; everything else is one pass over the UTF-8 bytes.
enum MustacheEscaping {
    /// Appends `value` escaped for HTML text and quoted attribute values to `bytes`.
    static func appendHTML(_ value: String, to bytes: inout [UInt8]) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { appendHTML($0, to: &bytes) }
        if done == nil {
            Array(value.utf8).withUnsafeBufferPointer { appendHTML($0, to: &bytes) }
        }
    }

    /// `value` escaped, as a String (tests, and the odd caller that needs text).
    static func html(_ value: String) -> String {
        var bytes: [UInt8] = []
        appendHTML(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendHTML(_ source: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var start = 0
        for position in 0..<source.count {
            let entity: StaticString
            switch source[position] {
            case 0x26: entity = "&amp;"
            case 0x3C: entity = "&lt;"
            case 0x3E: entity = "&gt;"
            case 0x22: entity = "&quot;"
            case 0x27: entity = "&#39;"
            default: continue
            }
            guard standsAlone(source, at: position) else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<position]))
            entity.withUTF8Buffer { bytes.append(contentsOf: $0) }
            start = position + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<source.count]))
    }

    /// Whether the ASCII byte at `position` is a Character of its own. Next to ASCII it always is; next to
    /// another scalar the grapheme rules decide, and for an ASCII byte they depend only on the scalar
    /// directly before it (a Prepend) and the one directly after it (Extend, ZWJ, SpacingMark).
    private static func standsAlone(_ source: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        let before = position > 0 && source[position - 1] >= 0x80
        let after = position + 1 < source.count && source[position + 1] >= 0x80
        guard before || after else { return true }
        var lower = position
        if before {
            lower -= 1
            while lower > 0, source[lower] & 0xC0 == 0x80 { lower -= 1 }
        }
        var upper = position + 1
        if after {
            upper += 1
            while upper < source.count, source[upper] & 0xC0 == 0x80 { upper += 1 }
        }
        let window = String(decoding: UnsafeBufferPointer(rebasing: source[lower..<upper]), as: UTF8.self)
        return window.contains(Character(Unicode.Scalar(source[position])))
    }
}
