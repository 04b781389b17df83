import Foundation
import Testing

@testable import OrgDirectory

@Suite("Positions ordered by byte keys, and arrays rearranged in place")
struct ByteKeyOrderTests {
    /// The diff tests' deterministic generator (SplitMix64), so a failure shows the same input again.
    typealias SplitMix = DirectoryDiffFileTests.Random

    /// `count` keys of 0 to 3 bytes from a small alphabet: many equal keys, and keys that are prefixes of others.
    static func keys(_ count: Int, seed: UInt64) -> [[UInt8]] {
        var generator = SplitMix(state: seed)
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...3, using: &generator)).map { _ in UInt8.random(in: 0x61...0x63, using: &generator) }
        }
    }

    /// One stable sort of the positions by their keys (a prefix first), on one core.
    static func reference(_ keys: [[UInt8]]) -> [Int] {
        keys.indices.sorted { keys[$0].lexicographicallyPrecedes(keys[$1]) }
    }

    @Test("above the threshold, two halves sorted at once and merged equal one stable sort, ties in position order")
    func halvesEqualOneStableSort() {
        let keys = Self.keys(ByteKeyOrder.halvingThreshold * 2 + 7, seed: 7)
        let order = ByteKeyOrder(count: keys.count) { index, block in block += keys[index] }
        #expect(order.count == keys.count)
        #expect(order.sortedPositions() == Self.reference(keys))
    }

    @Test("below the threshold the order is the same stable sort, and no keys give no positions")
    func smallListsAndNone() {
        let keys = Self.keys(300, seed: 8)
        let order = ByteKeyOrder(count: keys.count) { index, block in block += keys[index] }
        #expect(order.sortedPositions() == Self.reference(keys))
        #expect(ByteKeyOrder(count: 0) { _, _ in }.sortedPositions() == [])
    }

    @Test("long keys sharing all or some of their first sixteen bytes, 0x00 and 0xFF too, sort as one stable sort")
    func longKeysSharingPrefixes() {
        var generator = SplitMix(state: 11)
        // Keys of the same sixteen bytes, or of only their first 0 to 16, then 0 to 4 bytes from {0x00, 0x61, 0xFF}: the
        // leading bytes decide nothing for most of them, the rest and the lengths decide everything.
        let common: [UInt8] = Array("smith\u{0}john\u{0}smith".utf8)
        for count in [400, ByteKeyOrder.halvingThreshold + 3] {
            let keys = (0..<count).map { _ -> [UInt8] in
                let tail = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    [0x00, 0x61, 0xFF][Int.random(in: 0...2, using: &generator)] as UInt8
                }
                let shortened = Int.random(in: 0...3, using: &generator) == 0
                let shared = shortened ? Int.random(in: 0...16, using: &generator) : 16
                return Array(common.prefix(shared)) + tail
            }
            let order = ByteKeyOrder(count: keys.count) { index, block in block += keys[index] }
            #expect(order.sortedPositions() == Self.reference(keys))
        }
    }

    @Test("when every key is empty (no bytes at all), the positions stay in order, halved or not")
    func allKeysEmpty() {
        for count in [5, ByteKeyOrder.halvingThreshold + 1] {
            #expect(ByteKeyOrder(count: count) { _, _ in }.sortedPositions() == Array(0..<count))
        }
    }

    @Test("an order that names a position twice, or leaves one out, stops the process instead of walking forever")
    func permuteStopsOnAnOrderThatIsNoPermutation() async {
        await #expect(processExitsWith: .failure) {
            var values = [10, 20, 30]
            values.permute(to: [1, 1, 0])
        }
        await #expect(processExitsWith: .failure) {
            var values = [10, 20, 30]
            values.permute(to: [2, 0])
        }
    }

    @Test("an array rearranged by a permutation holds at i the element that was at order[i], each element once")
    func permuteMovesEveryElementToItsPlace() {
        var generator = SplitMix(state: 9)
        for count in [0, 1, 2, 17, 5000] {
            let original = (0..<count).map { "element \($0)" }
            let order = Array(0..<count).shuffled(using: &generator)
            var permuted = original
            permuted.permute(to: order)
            #expect(permuted == order.map { original[$0] })
        }
    }

    /// Counts the instances alive, to see that rearranging neither copies nor drops an element.
    typealias Counted = ParallelArrayTests.Counted

    @Test("rearranging moves the elements: none is released early or leaked")
    func permuteNeitherCopiesNorDrops() {
        var generator = SplitMix(state: 10)
        let before = Counted.alive.withLock { $0 }
        do {
            var elements = (0..<1000).map { Counted($0) }
            let order = Array(0..<1000).shuffled(using: &generator)
            elements.permute(to: order)
            #expect(elements.map(\.value) == order)
            #expect(Counted.alive.withLock { $0 } == before + 1000)
        }
        #expect(Counted.alive.withLock { $0 } == before)
    }
}
