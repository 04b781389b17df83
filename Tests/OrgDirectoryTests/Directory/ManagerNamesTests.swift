import Testing

@testable import OrgDirectory

@Suite("Manager names (each manager named after their own entry)")
struct ManagerNamesTests {
    static func user(_ id: String, _ name: String, manager: (id: String, name: String?)? = nil) -> User {
        var user = User(id: id, userPrincipalName: "\(id)@c.com", displayName: name)
        user.manager = manager.map { ManagerReference(id: $0.id, displayName: $0.name) }
        return user
    }

    /// People whose managers are, in turn: among them under another name, among them without a name, outside them
    /// with a name known from before, outside them with only the record's name, and outside them with no name at
    /// all; plus someone without a manager.
    static let people = [
        user("a", "Ann", manager: ("c", "Carl (old)")),
        user("b", "Bob", manager: ("c", nil)),
        user("c", "Carl"),
        user("d", "Dee", manager: ("x", nil)),
        user("e", "Eve", manager: ("y", "Yan")),
        user("f", "Fay", manager: ("z", nil)),
    ]
    static let known = ["x": "Xia", "y": "Yan (older)", "c": "Carl (known)"]

    @Test("in id order, managers among the people take their name, others the known name, then the record's")
    func sortedPeopleTakeTheirManagersNames() {
        var users = Self.people
        #expect(users.isSortedByID)
        ManagerNames.fill(&users, known: Self.known)
        #expect(users.map { $0.manager?.displayName } == ["Carl", "Carl", nil, "Xia", "Yan (older)", nil])
        #expect(users.map { $0.manager?.id } == ["c", "c", nil, "x", "y", "z"])
    }

    @Test("people the caller knows are in id order are named as when their order is checked")
    func knownOrderNamesAsChecked() {
        var checked = Self.people
        ManagerNames.fill(&checked, known: Self.known)
        var told = Self.people
        ManagerNames.fill(&told, known: Self.known, inIDOrder: true)
        #expect(told == checked)
        // Told they are not, they are named through the map of everyone's name: the same names.
        var mapped = Self.people
        ManagerNames.fill(&mapped, known: Self.known, inIDOrder: false)
        #expect(mapped == checked)
    }

    @Test("people in any order are named exactly as the same people in id order")
    func anyOrderNamesAsIdOrder() {
        var sorted = Self.people
        ManagerNames.fill(&sorted, known: Self.known)
        var shuffled = [5, 2, 0, 4, 1, 3].map { Self.people[$0] }
        #expect(!shuffled.isSortedByID)
        ManagerNames.fill(&shuffled, known: Self.known)
        shuffled.sortByID()
        #expect(shuffled == sorted)
    }

    @Test("a record whose manager already has the right name is left as it was")
    func rightNamesAreKept() {
        var users = [Self.user("a", "Ann", manager: ("b", "Bea")), Self.user("b", "Bea")]
        let before = users
        ManagerNames.fill(&users)
        #expect(users == before)
    }
}
