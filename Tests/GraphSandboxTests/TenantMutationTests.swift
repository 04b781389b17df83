import Foundation
import Testing

@testable import GraphSandbox

@Suite("Tenant mutations")
struct TenantMutationTests {
    @Test("add, update, set manager and remove change what /users serves and are logged in order")
    func mutations() async throws {
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 20))
        defer { Task { await sandbox.stop() } }
        let users = await sandbox.users
        let boss = try #require(users.first { $0.kind == .member })
        let hire = SandboxUser(
            id: "ffffffff-0000-4000-8000-000000000001", userPrincipalName: "new.hire@contoso.com",
            displayName: "New Hire",
            givenName: "New", surname: "Hire", mail: "New.Hire@contoso.com")
        try await sandbox.mutate(.add(hire))
        try await sandbox.mutate(.setManager(userId: hire.id, managerId: boss.id))
        var moved = try #require(await sandbox.users.first { $0.id == hire.id })
        moved.department = "Legal"
        moved.jobTitle = "Paralegal"
        try await sandbox.mutate(.update(moved))
        let token = try await SandboxHarness.token(base)
        let fetched = try await SandboxHarness.graph(
            base, "/v1.0/users/\(hire.id)", [("$select", "id,department,jobTitle"), ("$expand", "manager")],
            token: token)
        #expect(fetched.json["department"] as? String == "Legal")
        #expect((fetched.json["manager"] as? [String: Any])?["id"] as? String == boss.id)
        try await sandbox.mutate(.remove(id: boss.id))
        let after = await sandbox.users
        #expect(after.count == 20)
        #expect(after.first { $0.id == hire.id }?.managerId == nil)
        let log = await sandbox.changeLog
        #expect(log.map(\.sequence) == Array(1...log.count))
        #expect(log.prefix(3).map(\.kind) == [.created, .updated, .updated])
        #expect(log[2].properties == ["department", "jobTitle"])
        #expect(log.contains { $0.userId == boss.id && $0.kind == .deleted })
        #expect(log.last?.properties == ["manager"])
    }

    @Test("removing a manager clears the manager of exactly their reports at that moment, logged in listing order")
    func removingAManagerClearsTheirReports() async throws {
        let sandbox = GraphSandbox(configuration: SandboxConfiguration(userCount: 60))
        let users = await sandbox.users
        let counts = Dictionary(grouping: users.compactMap(\.managerId), by: { $0 }).mapValues(\.count)
        let boss = try #require(counts.filter { $0.value >= 2 }.keys.sorted().first)
        let generated = users.filter { $0.managerId == boss }.map(\.id).sorted()
        let movedAway = generated[0]
        let other = try #require(users.first { $0.id != boss && $0.id != movedAway && $0.kind == .member })
        let movedIn = try #require(users.first { $0.id != boss && $0.managerId != boss && $0.id != other.id })
        try await sandbox.mutate(.setManager(userId: movedAway, managerId: other.id))
        try await sandbox.mutate(.setManager(userId: movedIn.id, managerId: boss))
        var hire = SandboxUser(
            id: "ffffffff-0000-4000-8000-000000000002", userPrincipalName: "report.hire@contoso.com",
            displayName: "Report Hire")
        hire.managerId = boss
        try await sandbox.mutate(.add(hire))
        let before = await sandbox.changeLog.count
        try await sandbox.mutate(.remove(id: boss))
        let reports = (generated.dropFirst() + [movedIn.id, hire.id]).sorted()
        let log = await sandbox.changeLog.dropFirst(before)
        #expect(log.first?.kind == .deleted)
        #expect(log.dropFirst().map(\.userId) == reports)
        #expect(log.dropFirst().allSatisfy { $0.formerManagerId == boss && $0.properties == ["manager"] })
        let after = await sandbox.users
        #expect(!after.contains { $0.managerId == boss })
        #expect(after.first { $0.id == movedAway }?.managerId == other.id)
    }

    @Test(
        "invalid changes are refused with a reason",
        arguments: [
            TenantChange.remove(id: "nope"), .setManager(userId: "nope", managerId: nil),
            .update(SandboxUser(id: "nope", userPrincipalName: "x@contoso.com", displayName: "X")),
        ])
    func invalid(change: TenantChange) async throws {
        let sandbox = GraphSandbox(configuration: SandboxConfiguration(userCount: 5))
        await #expect(throws: TenantChangeError.self) { try await sandbox.mutate(change) }
    }

    @Test("random changes are reproducible from their seed")
    func randomChanges() async {
        let first = GraphSandbox(configuration: SandboxConfiguration(userCount: 80))
        let second = GraphSandbox(configuration: SandboxConfiguration(userCount: 80))
        let changesA = await first.applyRandomChanges(count: 25, seed: 7)
        let changesB = await second.applyRandomChanges(count: 25, seed: 7)
        #expect(changesA.count == 25)
        #expect(changesA == changesB)
        #expect(await first.users == second.users)
        #expect(await first.users != GraphSandbox(configuration: SandboxConfiguration(userCount: 80)).users)
        let upns = await first.users.map { $0.userPrincipalName.lowercased() }
        #expect(Set(upns).count == upns.count)
    }
}

@Suite("Paging while the tenant changes")
struct PagingDuringChangesTests {
    @Test("removing the last user of a page does not break the next page; survivors arrive once")
    func removalBetweenPages() async throws {
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 40))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let first = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$top", "10"), ("$select", "id")], token: token)
        let firstIds = first.values.compactMap { $0["id"] as? String }
        let lastId = try #require(firstIds.last)
        try await sandbox.mutate(.remove(id: lastId))
        let next = try #require(first.json["@odata.nextLink"] as? String)
        var ids = firstIds
        var link: String? = next
        while let current = link {
            let page = try await SandboxHarness.send(
                try #require(URL(string: current)), headers: ["Authorization": "Bearer \(token)"])
            #expect(page.status == 200)
            ids += page.values.compactMap { $0["id"] as? String }
            link = page.json["@odata.nextLink"] as? String
        }
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids) == Set(await sandbox.users.map(\.id)).union([lastId]))
    }
}
