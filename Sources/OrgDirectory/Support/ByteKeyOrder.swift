import Foundation

/// Positions `0..<count` put in the order of their keys, byte strings compared with `memcmp` (a key that is a
/// prefix of another comes first), stable on equal keys.
///
/// Why not `sort` on the values themselves: every key is copied once into one block of bytes, so the comparisons
/// read neighbouring memory instead of following a pointer to each value's own storage (a cache miss per side of
/// every comparison at a hundred thousand people), and above `halvingThreshold` positions the two halves are
/// sorted on two cores and merged.
struct ByteKeyOrder: Sendable {
    /// Every key, one after another.
    private let bytes: [UInt8]
    /// `starts[i]..<starts[i + 1]` is position i's key in `bytes`.
    private let starts: [Int]

    /// Below this many positions one core sorts them all: two threads cost more than they save.
    static let halvingThreshold = 8192

    /// The keys of positions `0..<count`, each appended to the block by `appendKey(position, &block)`; above
    /// `halvingThreshold` the two halves' keys are gathered on two cores (reading each key is a cache miss, and
    /// gathering them all on one core was 40 ms of a 100,000-person build while the other core waited).
    init(count: Int, appendKey: @Sendable (Int, inout [UInt8]) -> Void) {
        /// The keys of `range`, one after another, and where each ends.
        @Sendable func gather(_ range: Range<Int>) -> (bytes: [UInt8], ends: [Int]) {
            var bytes: [UInt8] = []
            var ends: [Int] = []
            ends.reserveCapacity(range.count)
            for position in range {
                appendKey(position, &bytes)
                ends.append(bytes.count)
            }
            return (bytes, ends)
        }
        guard count >= Self.halvingThreshold else {
            let all = gather(0..<count)
            bytes = all.bytes
            starts = [0] + all.ends
            return
        }
        let middle = count / 2
        let (low, high) = BothAtOnce.run({ gather(0..<middle) }, { gather(middle..<count) })
        bytes = low.bytes + high.bytes
        var starts = [0] + low.ends
        starts.reserveCapacity(count + 1)
        let offset = low.bytes.count
        starts += high.ends.lazy.map { $0 + offset }
        self.starts = starts
    }

    /// How many positions there are.
    var count: Int { starts.count - 1 }

    /// Whether any key holds a byte of 0x80 or more (for UTF-8 keys: a character outside ASCII).
    var hasNonASCIIByte: Bool {
        bytes.contains { $0 >= 0x80 }
    }

    /// The positions in key order: the i-th entry is the position whose key is i-th smallest; positions with equal
    /// keys stay in ascending order.
    func sortedPositions() -> [Int] {
        guard count >= Self.halvingThreshold else {
            var order = Array(0..<count)
            sort(&order[...])
            return order
        }
        let middle = count / 2
        let (low, high) = BothAtOnce.run(
            { @Sendable in
                var half = Array(0..<middle)
                sort(&half[...])
                return half
            },
            { @Sendable in
                var half = Array(middle..<count)
                sort(&half[...])
                return half
            })
        return merge(low, high)
    }

    /// Sorts positions by their keys; Swift's sort is stable, so positions with equal keys keep their order.
    private func sort(_ positions: inout ArraySlice<Int>) {
        bytes.withUnsafeBufferPointer { block in
            guard let base = block.baseAddress else { return }
            starts.withUnsafeBufferPointer { starts in
                positions.sort { Self.precedes($0, $1, base, starts) }
            }
        }
    }

    /// `first` and `second`, each in order, merged; on equal keys `first`'s come first, as one sort of the
    /// whole list of positions gave (the halves are the list's two halves in order, and Swift's sort is stable).
    private func merge(_ first: [Int], _ second: [Int]) -> [Int] {
        var merged: [Int] = []
        merged.reserveCapacity(first.count + second.count)
        bytes.withUnsafeBufferPointer { block in
            // A block with no address holds no bytes: every key is empty, so the halves follow in order.
            guard let base = block.baseAddress else {
                merged = first + second
                return
            }
            starts.withUnsafeBufferPointer { starts in
                var (left, right) = (0, 0)
                while left < first.count, right < second.count {
                    if Self.precedes(second[right], first[left], base, starts) {
                        merged.append(second[right])
                        right += 1
                    } else {
                        merged.append(first[left])
                        left += 1
                    }
                }
                merged += first[left...]
                merged += second[right...]
            }
        }
        return merged
    }

    private static func precedes(
        _ left: Int, _ right: Int, _ base: UnsafePointer<UInt8>, _ starts: UnsafeBufferPointer<Int>
    ) -> Bool {
        let leftKey = UnsafeRawBufferPointer(start: base + starts[left], count: starts[left + 1] - starts[left])
        let rightKey = UnsafeRawBufferPointer(start: base + starts[right], count: starts[right + 1] - starts[right])
        return ByteOrder.compare(leftKey, rightKey) < 0
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
