import Foundation
import Testing

@testable import OrgDirectory

@Suite("People by id (delta merge)")
struct PeopleByIDTests {
    static func user(_ id: String, _ name: String = "N") -> User {
        User(id: id, userPrincipalName: "\(id)@c.com", displayName: name)
    }

    @Test("changes, removals and joiners come back sorted by id, joiners merged between the kept people")
    func mergedInOrder() {
        var people = PeopleByID(["b", "d", "f"].map { Self.user($0) })
        people["d"] = Self.user("d", "Changed")
        people["f"] = nil
        people["e"] = Self.user("e")
        people["a"] = Self.user("a")
        people["z"] = Self.user("z")
        people["z"] = nil
        people["g"] = Self.user("g")
        #expect(people["d"]?.displayName == "Changed")
        #expect(people["f"] == nil)
        let merged = people.sortedByID()
        #expect(merged.map(\.id) == ["a", "b", "d", "e", "g"])
        #expect(merged.isSortedByID)
    }

    @Test("changes, removals and joiners on any list merge into what a map of everyone, sorted by id, gives")
    func mergeMatchesAMap() {
        var generator = ByteKeyOrderTests.SplitMix(state: 29)
        for round in 0..<60 {
            var base = (0..<Int(generator.next() % 60)).map { Self.user(String(format: "id%04d", $0 * 3)) }
            // A third of the rounds as an older orgdir's snapshot might be: out of order, some ids twice (the last
            // record of an id counts, as in a map).
            if round % 3 == 2, !base.isEmpty {
                for index in base.indices.reversed() { base.swapAt(index, Int(generator.next() % UInt64(index + 1))) }
                base += base.prefix(5).map { Self.user($0.id, "repeated in round \(round)") }
            }
            var people = PeopleByID(base)
            var expected = Dictionary(base.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            for step in 0..<Int(generator.next() % 30) {
                // Ids of the snapshot, between them, before the first and past the last; some twice.
                let id = String(format: "id%04d", Int(generator.next() % 190) - 4)
                let user: User? = generator.next() % 3 == 0 ? nil : Self.user(id, "round \(round) step \(step)")
                people[id] = user
                expected[id] = user
            }
            let merged = people.sortedByID()
            #expect(merged == expected.values.sorted { User.idPrecedes($0.id, $1.id) }, "round \(round)")
            #expect(Snapshot.isCanonicallyOrdered(merged), "round \(round)")
        }
    }

    @Test("a list out of id order, or with an id twice, still comes back sorted, the last of a repeated id kept")
    func unorderedInput() {
        let people = PeopleByID([Self.user("c"), Self.user("a", "first"), Self.user("b"), Self.user("a", "last")])
        let merged = people.sortedByID()
        #expect(merged.map(\.id) == ["a", "b", "c"])
        #expect(merged.first?.displayName == "last")
    }

    @Test("people listed in any order are put in id order, as a sort by String comparison puts ASCII ids")
    func sortByIDMatchesStringOrder() {
        // Above ByteKeyOrder.halvingThreshold, so the two-core path runs; GUID-like ids in both cases of hex
        // digits, and ids that are prefixes of others.
        var generator = ByteKeyOrderTests.SplitMix(state: 11)
        var people = (0..<20_000).map { index -> User in
            let hex = String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 16)
            return Self.user(index % 7 == 0 ? hex.uppercased() : hex + "-\(index % 3 == 0 ? "" : "x")")
        }
        people.append(Self.user("a"))
        people.append(Self.user("ab"))
        people.append(Self.user("A"))
        let reference = people.sorted { $0.id < $1.id }
        people.sortByID()
        #expect(people.map(\.id) == reference.map(\.id))
        #expect(people.isSortedByID)
    }

    @Test("ids outside ASCII are sorted by their bytes, the snapshot's order, canonically equivalent spellings apart")
    func sortByIDWithNonASCIIIDs() {
        // "é" precomposed and as e + combining accent are equal Strings but different bytes: the snapshot orders
        // them by bytes, so one sort puts them where the snapshot has them.
        var people = ["zeta", "\u{E9}tude", "e\u{301}tude", "ångström", "alpha", "Ωmega"].map { Self.user($0) }
        let reference = people.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        #expect(reference.map(\.id) == Snapshot.canonicallySorted(people).map(\.id))
        people.sortByID()
        #expect(people.map(\.id) == reference.map(\.id))
        #expect(people.isSortedByID && Snapshot.isCanonicallyOrdered(people))
        // Found by their own bytes only.
        let precomposed = people.indexSortedByID(of: "\u{E9}tude")
        let combining = people.indexSortedByID(of: "e\u{301}tude")
        #expect(precomposed.map { people[$0].id.utf8.elementsEqual("\u{E9}tude".utf8) } == true)
        #expect(combining.map { people[$0].id.utf8.elementsEqual("e\u{301}tude".utf8) } == true)
        #expect(people.indexSortedByID(of: "\u{E9}tudes") == nil)
    }

    @Test("a snapshot with ids outside ASCII is searched in place, and joiners merge into its order")
    func nonASCIISnapshotMerged() {
        var snapshot = ["b\u{E9}", "c", "\u{E9}", "z"].map { Self.user($0) }
        snapshot.sortByID()
        var people = PeopleByID(snapshot)
        people["\u{E9}"] = Self.user("\u{E9}", "Changed")
        people["e\u{301}"] = Self.user("e\u{301}", "Joined")
        people["c"] = nil
        let merged = people.sortedByID()
        #expect(merged.map(\.id) == Snapshot.canonicallySorted(merged).map(\.id))
        #expect(merged.isSortedByID)
        // "bé", then the joiner "e" + accent (0x65), "z", and "é" (0xC3): a joiner spelled like "é" but in other
        // bytes is another person, as the snapshot would keep them.
        #expect(merged.map(\.displayName) == ["N", "Joined", "N", "Changed"])
    }

    @Test("a person is found by id among people in id order, and an id between two or past either end is not")
    func indexSortedByIDFindsEveryoneAndNobodyElse() {
        let people = ["b", "d", "f", "h"].map { Self.user($0) }
        for (index, person) in people.enumerated() { #expect(people.indexSortedByID(of: person.id) == index) }
        for missing in ["a", "c", "e", "g", "i", "", "bb"] { #expect(people.indexSortedByID(of: missing) == nil) }
        #expect([User]().indexSortedByID(of: "a") == nil)
    }

    @Test("people already in id order are left as they are")
    func sortByIDKeepsSortedPeople() {
        var people = ["a", "b", "c"].map { Self.user($0, "kept") }
        people.sortByID()
        #expect(people.map(\.id) == ["a", "b", "c"])
        var none: [User] = []
        none.sortByID()
        #expect(none.isEmpty)
    }
}
