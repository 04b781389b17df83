/// Writes integers as ASCII decimal straight into a byte buffer.
///
/// Why: the search index writes a few million numbers (delta-encoded postings and phone trigram lists) on every
/// run, and making a `String` of each to append its UTF-8 was a large part of writing those shards.
enum DecimalBytes {
    /// Appends `value` in decimal (with a leading `-` when negative).
    static func append(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(0x2D) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            bytes.append(0x30 + UInt8(magnitude))
            return
        }
        // Digits written from the end of a small buffer on the stack, then appended at once: appended one by one
        // and reversed, a number cost an append per digit and a reversal (the phone shards write some 1.6 million).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            while magnitude > 0 {
                start -= 1
                digits[start] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// How many bytes `append(value, to:)` appends.
    static func count(_ value: Int) -> Int {
        var magnitude = value.magnitude
        var digits = value < 0 ? 2 : 1
        while magnitude >= 10 {
            magnitude /= 10
            digits += 1
        }
        return digits
    }
}
