import Testing

@testable import OrgDirectory

/// Lists laid out in one buffer after counting (`CountedLists`): each list holds its values in the order they were
/// handed over, empty lists are empty, and a range of lists reads as those lists one after the other.
@Suite("Counted lists")
struct CountedListsTests {
    static let pairs: [(list: Int, value: Int)] = [(2, 7), (0, 1), (2, 3), (4, 9), (0, 5), (2, 8)]

    @Test("each list holds its values in the order handed over; lists nobody added to are empty")
    func valuesInOrder() {
        let lists = CountedLists(count: 5) { add in
            for pair in Self.pairs { add(pair.list, pair.value) }
        }
        #expect(Array(lists.values(of: 0)) == [1, 5])
        #expect(lists.values(of: 1).isEmpty)
        #expect(Array(lists.values(of: 2)) == [7, 3, 8])
        #expect(lists.values(of: 3).isEmpty)
        #expect(Array(lists.values(of: 4)) == [9])
        #expect(Array(lists.values(in: 1..<3)) == [7, 3, 8])
        #expect(Array(lists.values(in: 0..<5)) == [1, 5, 7, 3, 8, 9])
    }

    @Test("a single list holds every value in order, the range's ends 0 and Int32.max included")
    func oneList() {
        let handed = [5, 0, Int(Int32.max), 5, 1]
        let lists = CountedLists(count: 1) { add in
            for value in handed { add(0, value) }
        }
        #expect(lists.values(of: 0).map(Int.init) == handed)
        #expect(lists.values(in: 0..<1).map(Int.init) == handed)
    }

    @Test("many lists filled in interleaved order read back as lists built one by one would")
    func manyInterleavedLists() {
        let count = 1_000
        // Every seventh list gets nothing; the others get a number of values that depends on the list.
        let pairs = (0..<20_000).map { step in (list: (step * 389) % count, value: step) }.filter { $0.list % 7 != 0 }
        var expected = [[Int]](repeating: [], count: count)
        for pair in pairs { expected[pair.list].append(pair.value) }
        let lists = CountedLists(count: count) { add in
            for pair in pairs { add(pair.list, pair.value) }
        }
        #expect((0..<count).map { lists.values(of: $0).map(Int.init) } == expected)
        #expect(lists.values(in: 0..<count).map(Int.init) == expected.flatMap { $0 })
        #expect(lists.values(in: 10..<20).map(Int.init) == expected[10..<20].flatMap { $0 })
    }

    @Test("walks that hand over more or fewer values the second time stop the process instead of leaving slots unset")
    func walksThatDisagreeStop() async throws {
        let more = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var walks = 0
            _ = CountedLists(count: 2) { add in
                walks += 1
                add(1, 4)
                if walks == 2 { add(1, 5) }
            }
        }
        let message = String(decoding: try #require(more).standardErrorContent, as: UTF8.self)
        #expect(message.contains("the second walk handed over other values than the first"))
        await #expect(processExitsWith: .failure) {
            var walks = 0
            _ = CountedLists(count: 2) { add in
                walks += 1
                add(0, 4)
                if walks == 1 { add(1, 5) }
            }
        }
    }

    @Test("a value handed to another list the second time, the total the same, stops the process too")
    func valueMovedBetweenListsStops() async {
        await #expect(processExitsWith: .failure) {
            var walks = 0
            _ = CountedLists(count: 3) { add in
                walks += 1
                add(0, 1)
                add(walks == 1 ? 1 : 0, 2)
                add(2, 3)
            }
        }
    }

    @Test("a value beyond Int32.max, or below 0, stops the process with a message naming the 32-bit limit")
    func valueBeyondTheLimitStopsWithAMessage() async throws {
        let beyond = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = CountedLists(count: 1) { add in add(0, Int(Int32.max) + 1) }
        }
        let message = String(decoding: try #require(beyond).standardErrorContent, as: UTF8.self)
        #expect(message.contains("at most 2147483647 values in all, each from 0 to 2147483647"))
        #expect(message.contains("the value 2147483648 passed that"))
        await #expect(processExitsWith: .failure) {
            _ = CountedLists(count: 1) { add in add(0, -1) }
        }
    }

    @Test("no values, or no lists, make nothing")
    func empty() {
        #expect(CountedLists(count: 3) { _ in }.values(in: 0..<3).isEmpty)
        #expect(CountedLists(count: 0) { _ in }.values(in: 0..<0).isEmpty)
    }
}
