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
        let start = bytes.count
        while magnitude > 0 {
            bytes.append(0x30 + UInt8(magnitude % 10))
            magnitude /= 10
        }
        bytes[start...].reverse()
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
