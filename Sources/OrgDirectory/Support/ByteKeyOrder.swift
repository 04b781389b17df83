import Foundation

/// Positions `0..<count` put in the order of their keys, byte strings compared with `memcmp` (a key that is a
/// prefix of another comes first), stable on equal keys.
///
/// Why not `sort` on the values themselves: every key is copied once into a block of bytes, so the comparisons
/// read neighbouring memory instead of following a pointer to each value's own storage (a cache miss per side of
/// every comparison at a hundred thousand people), and above `halvingThreshold` positions the two halves are
/// gathered and sorted on two cores and merged.
///
/// Each half keeps its own block: a half's sort compares only its own keys, and the merge reads one key from each.
/// Joined into one block, the keys were copied once more on one core into memory fresh from the kernel, about 15 ms
/// of a 100,000-person nightly's directory while the other core waited (`Benchmarks/profile-nightly.sh`).
struct ByteKeyOrder: Sendable {
    /// The keys of the first positions, `0..<low.count`.
    private let low: PackedBytes
    /// The keys of the rest, from position `low.count` on; empty below `halvingThreshold`.
    private let high: PackedBytes

    /// Below this many positions one core sorts them all: two threads cost more than they save.
    static let halvingThreshold = 8192

    /// The keys of positions `0..<count`, each appended to a block by `appendKey(position, &block)`; above
    /// `halvingThreshold` the two halves' keys are gathered on two cores (reading each key is a cache miss, and
    /// gathering them all on one core was 40 ms of a 100,000-person build while the other core waited).
    init(count: Int, appendKey: @Sendable (Int, inout [UInt8]) -> Void) {
        guard count >= Self.halvingThreshold else {
            low = Self.gather(0..<count, appendKey)
            high = PackedBytes(capacity: 0, bytesPerEntry: 0)
            return
        }
        let middle = count / 2
        (low, high) = BothAtOnce.run({ Self.gather(0..<middle, appendKey) }, { Self.gather(middle..<count, appendKey) })
    }

    /// How many positions there are.
    var count: Int { low.count + high.count }

    /// The positions in key order: the i-th entry is the position whose key is i-th smallest; positions with equal
    /// keys stay in ascending order.
    func sortedPositions() -> [Int] {
        guard high.count > 0 else { return low.sortedPositions(from: 0) }
        let (first, second) = BothAtOnce.run(
            { @Sendable [low] in low.sortedPositions(from: 0) },
            { @Sendable [high, low] in high.sortedPositions(from: low.count) })
        return merge(first, second)
    }

    /// `first` (positions in `low`) and `second` (in `high`), each in order, merged; on equal keys `first`'s come
    /// first, as one sort of the whole list of positions gave (the halves are the list's two halves in order, and
    /// Swift's sort is stable).
    private func merge(_ first: [Int], _ second: [Int]) -> [Int] {
        var merged: [Int] = []
        merged.reserveCapacity(first.count + second.count)
        var (left, right) = (0, 0)
        let middle = low.count
        low.withEntries { lowKey in
            high.withEntries { highKey in
                while left < first.count, right < second.count {
                    if ByteOrder.compare(highKey(second[right] - middle), lowKey(first[left])) < 0 {
                        merged.append(second[right])
                        right += 1
                    } else {
                        merged.append(first[left])
                        left += 1
                    }
                }
            }
        }
        merged += first[left...]
        merged += second[right...]
        return merged
    }

    /// The keys of `positions`, gathered by `appendKey`.
    private static func gather(_ positions: Range<Int>, _ appendKey: (Int, inout [UInt8]) -> Void) -> PackedBytes {
        var keys = PackedBytes(capacity: positions.count, bytesPerEntry: 0)
        for position in positions { keys.appendEntry { appendKey(position, &$0) } }
        return keys
    }
}

extension PackedBytes {
    /// The entries' indices, numbered from `first`, sorted by their bytes; Swift's sort is stable, so equal entries
    /// keep their order.
    ///
    /// Each entry is sorted as its first sixteen bytes read as two big-endian integers (`prefix`) beside its index,
    /// and only entries whose prefixes are equal are compared in full: integers in one array are compared where
    /// `memcmp` compared two entries found each through the block's list of ends. Sixteen, not eight: display keys
    /// start with surname and given name, which many people share. The display order's sort in a 100,000-person
    /// nightly (`Benchmarks/profile-nightly.sh`, samples under `sortedPositions`): 56 with `memcmp` alone, 43 with
    /// eight bytes, 32 with sixteen.
    fileprivate func sortedPositions(from first: Int) -> [Int] {
        withEntries { key in
            var keyed = (0..<count).map { index in
                let bytes = key(index)
                return (high: Self.prefix(of: bytes, from: 0), low: Self.prefix(of: bytes, from: 8), index: index)
            }
            keyed.sort { left, right in
                if left.high != right.high { return left.high < right.high }
                if left.low != right.low { return left.low < right.low }
                return ByteOrder.compare(key(left.index), key(right.index)) < 0
            }
            return keyed.map { $0.index + first }
        }
    }

    /// Eight of `bytes` from `start` as a big-endian integer, zeros past the end: two entries whose prefixes differ are
    /// in the order of their prefixes (a shorter entry that the other begins with has the smaller one), and equal
    /// prefixes leave the order to the whole entries.
    private static func prefix(of bytes: UnsafeRawBufferPointer, from start: Int) -> UInt64 {
        var value: UInt64 = 0
        for offset in start..<start + 8 {
            value <<= 8
            if offset < bytes.count { value |= UInt64(bytes[offset]) }
        }
        return value
    }
}

extension Array {
    /// Rearranges the elements so that the one at `order[i]` ends up at `i`, moving each element once along the
    /// cycles of the permutation (swaps, never copies: a copy of a record is a retain of every field).
    /// `order` must be a permutation of `indices`.
    mutating func permute(to order: [Int]) {
        precondition(order.count == count, "the order must name every element once")
        var placed = [Bool](repeating: false, count: count)
        withUnsafeMutableBufferPointer { elements in
            for start in elements.indices where !placed[start] {
                var current = start
                while true {
                    placed[current] = true
                    let next = order[current]
                    if next == start { break }
                    // A position named twice would send the walk round a cycle that never comes back to `start`.
                    precondition(!placed[next], "the order must name every element once")
                    // `current` takes its element; the one that was at `current` travels on to `next`.
                    elements.swapAt(current, next)
                    current = next
                }
            }
        }
    }
}
