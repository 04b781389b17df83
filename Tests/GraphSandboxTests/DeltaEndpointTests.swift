import Foundation
import Testing

@testable import GraphSandbox

/// Follows one delta round from `first` to its deltaLink; returns the items and the deltaLink.
private func deltaRound(_ first: URL, token: String) async throws -> (items: [[String: Any]], deltaLink: String) {
    var items: [[String: Any]] = []
    var url = first
    for _ in 0..<1000 {
        let page = try await SandboxHarness.send(url, headers: ["Authorization": "Bearer \(token)"])
        guard page.status == 200 else { throw HarnessError("delta page failed: \(page.status) \(page.text)") }
        items += page.values
        if let next = page.json["@odata.nextLink"] as? String, let nextURL = URL(string: next) {
            #expect(page.json["@odata.deltaLink"] == nil)
            url = nextURL
            continue
        }
        let link = try #require(page.json["@odata.deltaLink"] as? String)
        return (items, link)
    }
    throw HarnessError("the round did not end")
}

@Suite("Sandbox /users/delta")
struct DeltaEndpointTests {
    @Test("a first round lists everyone over opaque skip-token pages and ends in a deltaLink")
    func firstRound() async throws {
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 250))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let first = SandboxHarness.url(base, "/v1.0/users/delta", [("$select", "displayName,department,manager")])
        let round = try await deltaRound(first, token: token)
        let ids = round.items.compactMap { $0["id"] as? String }
        #expect(Set(ids) == Set(await sandbox.users.map(\.id)))
        #expect(ids.count == 250)
        #expect(round.deltaLink.contains("/v1.0/users/delta?$deltatoken="))
        let managed = await sandbox.users.filter { $0.managerId != nil }
        let withManager = round.items.filter { $0["manager@delta"] != nil }
        #expect(withManager.count == managed.count)
        #expect(round.items.allSatisfy { $0["mail"] == nil && $0["displayName"] != nil })
    }

    @Test("a deltaLink returns only what changed since: updates in full, deletions as @removed, new hires")
    func changes() async throws {
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 40))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let latest = try await SandboxHarness.graph(
            base, "/v1.0/users/delta",
            [
                ("$select", "displayName,department,mobilePhone,manager"),
                ("$deltatoken", "latest"),
            ], token: token)
        #expect(latest.values.isEmpty)
        #expect(latest.json["@odata.nextLink"] == nil)
        let link = try #require(latest.json["@odata.deltaLink"] as? String)

        let users = await sandbox.users.filter { $0.kind == .member }
        var moved = users[0]
        moved.department = "Legal"
        moved.mobilePhone = nil
        try await sandbox.mutate(.update(moved))
        var renamedOnlyMail = users[1]
        renamedOnlyMail.mail = "changed@example.com"  // not selected: must not show up
        try await sandbox.mutate(.update(renamedOnlyMail))
        try await sandbox.mutate(.remove(id: users[2].id))
        let hire = SandboxUser(
            id: "ffffffff-0000-4000-8000-00000000beef", userPrincipalName: "hire@contoso.com", displayName: "Hire")
        try await sandbox.mutate(.add(hire))

        let round = try await deltaRound(try #require(URL(string: link)), token: token)
        let byId = Dictionary(
            uniqueKeysWithValues: round.items.compactMap { item in
                (item["id"] as? String).map { ($0, item) }
            })
        #expect(Set(byId.keys).isSuperset(of: [moved.id, users[2].id, hire.id]))
        #expect(byId[users[1].id] == nil)
        #expect(byId[moved.id]?["department"] as? String == "Legal")
        #expect(byId[moved.id]?["mobilePhone"] is NSNull)
        #expect((byId[users[2].id]?["@removed"] as? [String: Any])?["reason"] as? String == "changed")
        #expect(byId[hire.id]?["displayName"] as? String == "Hire")

        let quiet = try await deltaRound(try #require(URL(string: round.deltaLink)), token: token)
        #expect(quiet.items.isEmpty)
    }

    @Test("an expired delta token answers 410 syncStateNotFound")
    func expired() async throws {
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 5))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let latest = try await SandboxHarness.graph(
            base, "/v1.0/users/delta", [("$deltatoken", "latest")], token: token)
        let link = try #require(URL(string: latest.json["@odata.deltaLink"] as? String ?? ""))
        let control = try await SandboxHarness.send(
            SandboxHarness.url(base, "/_sandbox/delta/expire"), method: "POST")
        #expect(control.status == 204)
        let refused = try await SandboxHarness.send(link, headers: ["Authorization": "Bearer \(token)"])
        #expect(refused.status == 410)
        #expect(refused.graphErrorCode == "syncStateNotFound")
    }

    @Test(
        "options user delta does not support are refused like Graph",
        arguments: [
            ("$top", "10", 400), ("$expand", "manager", 400), ("$orderby", "displayName", 400),
            ("$filter", "department eq 'Sales'", 400), ("$search", "\"displayName:a\"", 400),
            ("$select", "skills", 501), ("$select", "nonsense", 400),
        ])
    func refusedOptions(name: String, value: String, status: Int) async throws {
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 3))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let answer = try await SandboxHarness.graph(base, "/v1.0/users/delta", [(name, value)], token: token)
        #expect(answer.status == status, "\(answer.text)")
    }

    @Test("$filter on ids limits a round to those users")
    func idFilter() async throws {
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 20))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let ids = await sandbox.users.prefix(2).map(\.id)
        let filter = ids.map { "id eq '\($0)'" }.joined(separator: " or ")
        let round = try await deltaRound(
            SandboxHarness.url(base, "/v1.0/users/delta", [("$filter", filter)]), token: token)
        #expect(round.items.compactMap { $0["id"] as? String }.sorted() == ids.sorted())
    }
}
