import Foundation
import Synchronization
import Testing

@testable import OrgDirectory

@Suite("Arrays made in parallel chunks")
struct ParallelArrayTests {
    /// Counts the instances alive, to see that a refused array releases what its chunks made.
    final class Counted: Sendable {
        static let alive = Mutex(0)
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.alive.withLock { $0 += 1 }
        }
        deinit { Self.alive.withLock { $0 -= 1 } }
    }

    @Test("chunks fill their own ranges, and the array holds every element in order")
    func filledInOrder() {
        let ranges = ParallelArray.ranges(count: 10_001, chunks: 7)
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == 10_001)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        let made = ParallelArray.make(count: 10_001, ranges: ranges) { chunk, slots in
            for (slot, value) in ranges[chunk].enumerated() { slots.initializeElement(at: slot, to: value * 2) }
            return (ranges[chunk].count, true)
        }
        #expect(made == (0..<10_001).map { $0 * 2 })
        #expect(ParallelArray.make(count: 0, ranges: []) { (_, _: UnsafeMutableBufferPointer<Int>) in (0, true) } == [])
    }

    @Test("a chunk that cannot fill its range refuses the array, and what the others made is released")
    func refusedChunkReleasesTheRest() {
        let before = Counted.alive.withLock { $0 }
        let ranges = ParallelArray.ranges(count: 1_000, chunks: 4)
        let made = ParallelArray.make(count: 1_000, ranges: ranges) { chunk, slots in
            // The third chunk makes half of its people and reports that its input ended early.
            let count = chunk == 2 ? ranges[chunk].count / 2 : ranges[chunk].count
            for slot in 0..<count { slots.initializeElement(at: slot, to: Counted(ranges[chunk].lowerBound + slot)) }
            return (count, chunk != 2)
        }
        #expect(made == nil)
        #expect(Counted.alive.withLock { $0 } == before)
    }
}
