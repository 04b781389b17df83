#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The order of byte strings that snapshots, ids and sort keys use: `memcmp` of the common part, then the shorter
/// first. Negative, zero or positive, as `memcmp`.
enum ByteOrder {
    static func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int {
        let common = min(left.count, right.count)
        if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
            let order = memcmp(leftBase, rightBase, common)
            if order != 0 { return Int(order) }
        }
        return left.count - right.count
    }
}

/// Many short byte strings (ids, slugs) in one block, each found by where it ends: one allocation for all of them
/// instead of a `String` each.
struct PackedBytes: Sendable, Equatable {
    private var bytes: [UInt8] = []
    /// Where each entry ends in `bytes` (it starts where the one before ends).
    private var ends: [Int] = []

    init(capacity: Int, bytesPerEntry: Int) {
        bytes.reserveCapacity(capacity * bytesPerEntry)
        ends.reserveCapacity(capacity)
    }

    var count: Int { ends.count }

    mutating func append(_ entry: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: entry)
        ends.append(bytes.count)
    }

    /// `body` of entry `index`'s bytes.
    func withEntry<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let start = index == 0 ? 0 : ends[index - 1]
        return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<ends[index]])) }
    }

    /// Entry `index` as text.
    func string(_ index: Int) -> String {
        withEntry(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// `ByteOrder.compare` of entry `index` with `text`'s UTF-8.
    func compare(_ index: Int, with text: String) -> Int {
        text.withUTF8Bytes { wanted in withEntry(index) { ByteOrder.compare($0, UnsafeRawBufferPointer(wanted)) } }
    }
}
