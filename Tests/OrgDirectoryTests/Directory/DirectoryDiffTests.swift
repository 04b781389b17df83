import Foundation
import Testing

@testable import OrgDirectory

@Suite("Directory diff")
struct DirectoryDiffTests {
    /// One field edited on one person, and the change the diff must report.
    struct FieldCase: Sendable, CustomTestStringConvertible {
        var field: String
        var old: String?
        var new: String?
        var isMove: Bool
        var edit: @Sendable (inout User) -> Void
        var testDescription: String { field }
    }

    static let base = SnapshotFixtures.person(1)

    static let fieldCases: [FieldCase] = [
        FieldCase(field: "displayName", old: "Person 1", new: "Renamed", isMove: false) { $0.displayName = "Renamed" },
        FieldCase(field: "givenName", old: "Given1", new: nil, isMove: false) { $0.givenName = nil },
        FieldCase(field: "surname", old: "Surname1", new: "Other", isMove: false) { $0.surname = "Other" },
        FieldCase(field: "userPrincipalName", old: "person1@contoso.example", new: "p1@contoso.example", isMove: false)
        {
            $0.userPrincipalName = "p1@contoso.example"
        },
        FieldCase(field: "mail", old: "person1@contoso.example", new: nil, isMove: false) { $0.mail = nil },
        FieldCase(
            field: "businessPhones", old: "+1 425 555 0001", new: "+1 425 555 0001, +1 425 555 9999", isMove: false
        ) {
            $0.businessPhones.append("+1 425 555 9999")
        },
        FieldCase(field: "mobilePhone", old: "+1 206 555 0001", new: "+1 206 555 1234", isMove: false) {
            $0.mobilePhone = "+1 206 555 1234"
        },
        FieldCase(field: "jobTitle", old: "Engineer", new: "Manager", isMove: false) { $0.jobTitle = "Manager" },
        FieldCase(field: "department", old: "Sales", new: "Operations", isMove: true) { $0.department = "Operations" },
        FieldCase(field: "officeLocation", old: "Building 1", new: "Building 9", isMove: true) {
            $0.officeLocation = "Building 9"
        },
        FieldCase(field: "companyName", old: "Contoso", new: "Fabrikam", isMove: false) { $0.companyName = "Fabrikam" },
        FieldCase(field: "manager", old: "Manager 1", new: "Someone Else", isMove: true) {
            $0.manager = ManagerReference(id: "manager-9", displayName: "Someone Else")
        },
        FieldCase(field: "accountEnabled", old: "true", new: "false", isMove: false) { $0.accountEnabled = false },
        FieldCase(field: "userType", old: "Member", new: "Guest", isMove: false) { $0.userType = "Guest" },
        FieldCase(field: "employeeId", old: "E1", new: "E2", isMove: false) { $0.employeeId = "E2" },
        FieldCase(field: "preferredLanguage", old: "en-US", new: "de-DE", isMove: false) {
            $0.preferredLanguage = "de-DE"
        },
        FieldCase(field: "city", old: "Redmond", new: "Oslo", isMove: false) { $0.extra["city"] = "Oslo" },
        FieldCase(field: "country", old: "US", new: nil, isMove: false) { $0.extra["country"] = nil },
        FieldCase(field: "state", old: nil, new: "WA", isMove: false) { $0.extra["state"] = "WA" },
    ]

    @Test("each field's change is reported once, old → new, with moves marked", arguments: fieldCases)
    func fieldChange(_ testCase: FieldCase) {
        var edited = Self.base
        testCase.edit(&edited)
        let diff = DirectoryDiff.between([Self.base], [edited])
        #expect(diff.joiners.isEmpty && diff.leavers.isEmpty)
        #expect(
            diff.changed == [
                PersonChange(
                    id: Self.base.id, displayName: edited.displayName,
                    fieldChanges: [FieldChange(field: testCase.field, old: testCase.old, new: testCase.new)])
            ])
        #expect(diff.changed.first?.moves.isEmpty == !testCase.isMove)
        #expect(diff.movers.count == (testCase.isMove ? 1 : 0))
    }

    @Test("the field table covers every property of User")
    func tableCoversUser() {
        let properties = Set(Mirror(reflecting: Self.base).children.compactMap(\.label))
        let covered = Set(Self.fieldCases.map(\.field)).union(["id", "extra"])
        #expect(properties.subtracting(covered).isEmpty, "not covered: \(properties.subtracting(covered))")
    }

    /// Whole-directory cases: old ids, new ids (by fixture index), and the expected joiners, leavers, changed.
    struct DirectoryCase: Sendable, CustomTestStringConvertible {
        var name: String
        var old: [User]
        var new: [User]
        var joiners: [String]
        var leavers: [String]
        var changed: [String]
        var testDescription: String { name }
    }

    static let p = (0..<6).map { SnapshotFixtures.person($0) }

    static let directoryCases: [DirectoryCase] = [
        DirectoryCase(name: "no change", old: p, new: p, joiners: [], leavers: [], changed: []),
        DirectoryCase(name: "both empty", old: [], new: [], joiners: [], leavers: [], changed: []),
        DirectoryCase(
            name: "a joiner", old: Array(p[0..<5]), new: p, joiners: [p[5].id], leavers: [], changed: []),
        DirectoryCase(
            name: "a leaver in the middle", old: p, new: p.filter { $0.id != p[2].id }, joiners: [],
            leavers: [p[2].id], changed: []),
        DirectoryCase(name: "first run", old: [], new: p, joiners: p.map(\.id), leavers: [], changed: []),
        DirectoryCase(name: "everyone gone", old: p, new: [], joiners: [], leavers: p.map(\.id), changed: []),
        DirectoryCase(
            name: "joiner, leaver and change together", old: Array(p[0..<4]),
            new: [p[0], moved(p[1]), p[3], p[4]], joiners: [p[4].id], leavers: [p[2].id], changed: [p[1].id]),
        DirectoryCase(
            name: "unsorted input", old: p.reversed(), new: [p[5], moved(p[0])] + p[1..<4].shuffled(),
            joiners: [], leavers: [p[4].id], changed: [p[0].id]),
        DirectoryCase(
            name: "business phones reordered is no change", old: [withPhones(p[0], ["1", "2"])],
            new: [withPhones(p[0], ["2", "1"])], joiners: [], leavers: [], changed: []),
        DirectoryCase(
            name: "manager renamed is no change for the report", old: [p[0]],
            new: [managerRenamed(p[0])], joiners: [], leavers: [], changed: []),
        DirectoryCase(
            name: "a rename is a change, not a leaver and a joiner", old: [p[0]], new: [renamed(p[0])], joiners: [],
            leavers: [], changed: [p[0].id]),
    ]

    static func moved(_ user: User) -> User {
        var user = user
        user.department = "Operations"
        return user
    }

    static func withPhones(_ user: User, _ phones: [String]) -> User {
        var user = user
        user.businessPhones = phones
        return user
    }

    static func managerRenamed(_ user: User) -> User {
        var user = user
        user.manager?.displayName = "New name for the same manager"
        return user
    }

    static func renamed(_ user: User) -> User {
        var user = user
        user.displayName = "Married Name"
        return user
    }

    @Test("joiners, leavers and changes are found by id", arguments: directoryCases)
    func directories(_ testCase: DirectoryCase) {
        let diff = DirectoryDiff.between(testCase.old, testCase.new)
        #expect(diff.joiners.map(\.id) == testCase.joiners)
        #expect(diff.leavers.map(\.id) == testCase.leavers)
        #expect(diff.changed.map(\.id) == testCase.changed)
        #expect(diff.isEmpty == (testCase.joiners.isEmpty && testCase.leavers.isEmpty && testCase.changed.isEmpty))
    }

    @Test("a leaver is reported as last seen, a joiner as now")
    func leaverAndJoinerRecords() {
        let diff = DirectoryDiff.between([Self.p[0]], [Self.p[1]])
        #expect(diff.leavers == [Self.p[0]])
        #expect(diff.joiners == [Self.p[1]])
    }

    @Test("several changes on one person come in display order")
    func displayOrder() {
        var edited = Self.base
        edited.officeLocation = "Elsewhere"
        edited.displayName = "New"
        edited.extra["aaa"] = "1"
        edited.department = "Legal"
        let fields = DirectoryDiff.between([Self.base], [edited]).changed.first?.fieldChanges.map(\.field)
        #expect(fields == ["displayName", "department", "officeLocation", "aaa"])
    }

    @Test("two managers with the same name are told apart by id")
    func sameNamedManagers() {
        var edited = Self.base
        edited.manager = ManagerReference(id: "other-id", displayName: Self.base.manager?.displayName)
        let change = DirectoryDiff.between([Self.base], [edited]).changed.first?.fieldChanges.first
        #expect(change?.old == "Manager 1 (manager-1)")
        #expect(change?.new == "Manager 1 (other-id)")
    }

    @Test("between snapshots of the same 20,000 people with 1% edited, exactly the edited are reported")
    func largeDiff() {
        let old = SnapshotFixtures.people(20_000)
        var new = old
        for index in stride(from: 0, to: new.count, by: 100) { new[index].jobTitle = "Promoted" }
        let diff = DirectoryDiff.between(old, new)
        #expect(diff.changed.count == 200)
        #expect(diff.joiners.isEmpty && diff.leavers.isEmpty)
    }

    @Test("lists promised in the snapshot's order are checked in debug builds: out of order, the process stops")
    func canonicalPromiseChecked() async {
        let people = (1...3).map { SnapshotFixtures.person($0) }
        var unequal: Set<String> = []
        // In order, a repeated id included (a broken input keeps it next to itself), the promise holds.
        #expect(Snapshot.isInIDOrder(people) && Snapshot.isInIDOrder([people[0], people[0], people[1]]))
        #expect(DirectoryDiff.between(canonical: people, people, unequal: &unequal).changed.isEmpty)
        #expect(!Snapshot.isInIDOrder(people.reversed()))
        // `assert` holds in debug builds only, which the test command builds.
        #if DEBUG
            await #expect(processExitsWith: .failure) {
                let people = (1...3).map { SnapshotFixtures.person($0) }
                var unequal: Set<String> = []
                _ = DirectoryDiff.between(canonical: people, people.reversed(), unequal: &unequal)
            }
            await #expect(processExitsWith: .failure) {
                let people = (1...3).map { SnapshotFixtures.person($0) }
                _ = Snapshot(metadata: SnapshotFixtures.metadata(), canonicallyOrdered: people.reversed())
            }
        #endif
    }
}
