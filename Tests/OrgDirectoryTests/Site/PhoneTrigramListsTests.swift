import TestSupport
import Testing

@testable import OrgDirectory

/// Who holds each phone trigram (`PhoneTrigramLists`): every three digits in a row of a person's search digits, the
/// person listed once per trigram, people in ascending order, and no trigram across a space.
@Suite("Phone trigram lists")
struct PhoneTrigramListsTests {
    /// The lists of people whose search digits are `people`, as a dictionary of the non-empty ones.
    static func lists(_ people: [String]) -> [Int: [Int32]] {
        var digits: [UInt8] = []
        var ends: [Int] = []
        for person in people {
            digits += Array(person.utf8)
            ends.append(digits.count)
        }
        let lists = digits.withUnsafeBufferPointer { PhoneTrigramLists(digits: $0, ends: ends) }
        var found: [Int: [Int32]] = [:]
        for trigram in 0..<PhoneTrigramLists.trigramCount where !lists.people(holding: trigram).isEmpty {
            found[trigram] = Array(lists.people(holding: trigram))
        }
        return found
    }

    /// The same lists worked out the plain way: each person's distinct trigrams of each space-separated part.
    static func expected(_ people: [String]) -> [Int: [Int32]] {
        var found: [Int: [Int32]] = [:]
        for (person, text) in people.enumerated() {
            var held: Set<Int> = []
            for part in text.split(separator: " ") {
                let digits = Array(part.utf8).map { Int($0) - 0x30 }
                guard digits.count >= 3 else { continue }
                for start in 0...(digits.count - 3) {
                    held.insert(digits[start] * 100 + digits[start + 1] * 10 + digits[start + 2])
                }
            }
            for trigram in held { found[trigram, default: []].append(Int32(person)) }
        }
        return found
    }

    @Test("a person is listed once for a trigram their digits hold twice, people ascending")
    func repeatsWithinAPersonAreListedOnce() {
        let people = ["5555", "1234 5550", "", "0012"]
        let lists = Self.lists(people)
        #expect(lists[555] == [0, 1])
        #expect(lists[123] == [1])
        #expect(lists[1] == [3])
        #expect(lists[12] == [3])
        #expect(lists == Self.expected(people))
    }

    @Test("no trigram is made across the space between two phones, nor from fewer than three digits")
    func spacesEndARun() {
        let lists = Self.lists(["12 34", "99"])
        #expect(lists.isEmpty)
        #expect(Self.lists(["12 345"]) == [345: [0]])
    }

    @Test("lists equal the plain way's for many people with shared and repeated digits")
    func manyPeopleMatchThePlainWay() {
        var generator = SeededNumbers(seed: 7)
        let people = (0..<500).map { _ in
            (0..<generator.next(3)).map { _ in
                String((0..<(2 + generator.next(10))).map { _ in Character(String(generator.next(4))) })
            }.joined(separator: " ")
        }
        #expect(Self.lists(people) == Self.expected(people))
    }
}
