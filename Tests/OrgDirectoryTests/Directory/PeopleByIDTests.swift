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

    @Test("a list out of id order, or with an id twice, still comes back sorted, the last of a repeated id kept")
    func unorderedInput() {
        let people = PeopleByID([Self.user("c"), Self.user("a", "first"), Self.user("b"), Self.user("a", "last")])
        let merged = people.sortedByID()
        #expect(merged.map(\.id) == ["a", "b", "c"])
        #expect(merged.first?.displayName == "last")
    }
}
