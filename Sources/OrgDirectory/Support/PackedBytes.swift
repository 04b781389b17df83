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
        appendEntry { $0.append(contentsOf: entry) }
    }

    /// Appends the entry `write` appends to the block.
    mutating func appendEntry(_ write: (inout [UInt8]) -> Void) {
        write(&bytes)
        ends.append(bytes.count)
    }

    /// Calls `body` with a function that gives entry `index`'s bytes in place, for many lookups in a row (a sort's
    /// comparisons): `withEntry` binds the block's storage once per entry.
    func withEntries<Result>(_ body: ((_ index: Int) -> UnsafeRawBufferPointer) -> Result) -> Result {
        bytes.withUnsafeBytes { block in
            ends.withUnsafeBufferPointer { ends in
                body { index in
                    let start = index == 0 ? 0 : ends[index - 1]
                    // A block with no address holds no bytes: every entry in it is empty.
                    guard let base = block.baseAddress else { return UnsafeRawBufferPointer(start: nil, count: 0) }
                    return UnsafeRawBufferPointer(start: base + start, count: ends[index] - start)
                }
            }
        }
    }

    /// `body` of entry `index`'s bytes.
    func withEntry<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withEntries { entry in body(entry(index)) }
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
