import Testing

@testable import OrgDirectory

/// The full sync's gathering of normalized pages: each person once, in arrival order, with what was dropped
/// reported.
@Suite("User collector")
struct UserCollectorTests {
    static func user(_ id: String, _ name: String) -> User {
        User(id: id, userPrincipalName: "\(id)@contoso.com", displayName: name, mail: "\(name)@contoso.com")
    }

    @Test("people arrive once each in page order; id-less records and repeats are counted in warnings")
    func gathersPagesOnce() {
        let collector = UserCollector()
        let first = collector.add([Self.user("b", "Bea"), nil, Self.user("a", "Ann")])
        let second = collector.add([Self.user("a", "Ann again"), Self.user("c", "Cy"), nil, nil])
        #expect(first.map(\.id) == ["b", "a"])
        #expect(second.map(\.id) == ["c"])
        var warnings: [String] = []
        let users = collector.finish(warnings: &warnings)
        #expect(users == [Self.user("b", "Bea"), Self.user("a", "Ann"), Self.user("c", "Cy")])
        #expect(warnings == ["3 user objects had no id and were skipped", "1 user arrived twice and was kept once"])
    }

    @Test("a page added without returning its people is still gathered in full")
    func gathersWithoutReturning() {
        let collector = UserCollector()
        #expect(collector.add([Self.user("x", "Xu"), Self.user("y", "Yi")], returningAdded: false).isEmpty)
        var warnings: [String] = []
        #expect(collector.finish(warnings: &warnings).map(\.displayName) == ["Xu", "Yi"])
        #expect(warnings.isEmpty)
    }
}
