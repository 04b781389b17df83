/// JSON string escapes (RFC 8259 section 7), decoded once for the two hand-written JSON readers (Graph pages
/// and snapshot files), so both treat `\uXXXX` surrogate pairs and lone surrogates the same way.
enum JSONEscape {
    /// Decodes the escape whose letter is at `index` (just after the backslash) into UTF-8 in `buffer` and moves
    /// `index` past it. Returns false for anything invalid: an unknown letter, bad hex digits, a lone or
    /// reversed surrogate, or input ending before `end`.
    static func decode(_ bytes: UnsafeRawBufferPointer, at index: inout Int, end: Int, into buffer: inout [UInt8])
        -> Bool
    {
        guard index < end else { return false }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(letter)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            guard var value = hex4(bytes, at: &index, end: end) else { return false }
            if (0xD800..<0xDC00).contains(value) {
                // A high surrogate must be followed by `\u` and a low one.
                guard index + 1 < end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { return false }
                index += 2
                guard let low = hex4(bytes, at: &index, end: end), (0xDC00..<0xE000).contains(low) else {
                    return false
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(value) else { return false }
            UTF8.encode(scalar) { buffer.append($0) }
        default:
            return false
        }
        return true
    }

    /// Four hex digits as a number, or nil.
    private static func hex4(_ bytes: UnsafeRawBufferPointer, at index: inout Int, end: Int) -> UInt32? {
        guard index + 4 <= end else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
