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

    @Test("no values, or no lists, make nothing")
    func empty() {
        #expect(CountedLists(count: 3) { _ in }.values(in: 0..<3).isEmpty)
        #expect(CountedLists(count: 0) { _ in }.values(in: 0..<0).isEmpty)
    }
}
