/// Lowercase hexadecimal written straight into bytes: slugs, render fingerprints and JSON escapes all need it, and
/// formatting through `String(_:radix:)` and padding was several allocations a value on paths run for everyone.
enum HexDigits {
    /// `0`–`9`, `a`–`f` as ASCII bytes.
    static let lowercase: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends the first `count` (at most 16) of the 16 hex digits of `value`, leading zeros kept.
    static func append(_ value: UInt64, count: Int = 16, to bytes: inout [UInt8]) {
        for position in 0..<min(max(count, 0), 16) {
            bytes.append(lowercase[Int(truncatingIfNeeded: value >> UInt64(60 - 4 * position)) & 0xF])
        }
    }

    /// The first `count` (at most 16) of the 16 hex digits of `value`, leading zeros kept.
    static func string(_ value: UInt64, count: Int = 16) -> String {
        let length = min(max(count, 0), 16)
        return String(unsafeUninitializedCapacity: length) { buffer in
            for position in 0..<length {
                buffer[position] = lowercase[Int(truncatingIfNeeded: value >> UInt64(60 - 4 * position)) & 0xF]
            }
            return length
        }
    }
}
