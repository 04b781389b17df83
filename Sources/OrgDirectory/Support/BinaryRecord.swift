/// The little binary format of the caches a run keeps in the state folder for the next one (search tokens, export
/// rows): numbers little-endian, strings length-prefixed. Written with `append`, read with `BinaryReader`.
enum BinaryRecord {
    static func append<Number: FixedWidthInteger>(_ value: Number, to out: inout [UInt8]) {
        var value = value.littleEndian
        withUnsafeBytes(of: &value) { out.append(contentsOf: $0) }
    }

    /// Whether this machine keeps numbers little-endian, as the format does: known when compiling, so the choice
    /// `append(contentsOf:to:)` makes with it folds away in an optimized build.
    static var hostIsLittleEndian: Bool { UInt32(1).littleEndian == 1 }

    /// `numbers` one after the other, as `append` writes each: copied as a block where the machine is
    /// little-endian (a search token cache holds some two million of them at 100,000 people), a number at a time
    /// where it is not.
    ///
    /// `littleEndianHost` is the machine's own answer but for tests, which run on little-endian machines and pass
    /// `false` to reach the number-at-a-time path and check it writes the same bytes.
    static func append(
        contentsOf numbers: [UInt32], to out: inout [UInt8], littleEndianHost: Bool = hostIsLittleEndian
    ) {
        guard littleEndianHost else {
            for number in numbers { append(number, to: &out) }
            return
        }
        numbers.withUnsafeBytes { out.append(contentsOf: $0) }
    }

    static func append(_ text: String, to out: inout [UInt8]) {
        append(UInt32(text.utf8.count), to: &out)
        out.append(contentsOf: text.utf8)
    }

    static func append(_ digest: RenderFingerprint, to out: inout [UInt8]) {
        append(digest.high, to: &out)
        append(digest.low, to: &out)
    }
}

/// Reads `BinaryRecord`'s numbers and strings, refusing to read past the end: a file cut short or damaged reads
/// as nil, never as a crash.
struct BinaryReader {
    /// Valid while the reader is used: the caller's `withUnsafeBytes` of the file's bytes (a mapping, usually).
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var remaining: Int { bytes.count - offset }

    mutating func take(_ count: Int) -> Slice<UnsafeRawBufferPointer> {
        guard count >= 0, count <= remaining else { return bytes[0..<0] }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func number<Number: FixedWidthInteger>() -> Number? {
        let size = MemoryLayout<Number>.size
        guard remaining >= size else { return nil }
        defer { offset += size }
        return Number(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Number.self))
    }

    /// A length-prefixed string; nil when it is cut short or not well-formed UTF-8. The bytes are checked as a
    /// typed buffer, ASCII (nearly every id, slug, token and phone number) taken as it is: the generic
    /// `String(validating:as:)` on a slice of raw bytes was half of reading a `PreparationCache` entry.
    mutating func string() -> String? {
        guard let length: UInt32 = number(), Int(length) <= remaining else { return nil }
        let raw = UnsafeRawBufferPointer(rebasing: take(Int(length)))
        return raw.withMemoryRebound(to: UInt8.self) { bytes in
            var ascii = true
            for byte in bytes where byte >= 0x80 {
                ascii = false
                break
            }
            return ascii ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
        }
    }

    mutating func digest() -> RenderFingerprint? {
        guard let high: UInt64 = number(), let low: UInt64 = number() else { return nil }
        return RenderFingerprint(high: high, low: low)
    }
}
