import Foundation
import Testing

@testable import GraphSandbox

/// `$filter` answered with the shared OData module, and Graph's default-versus-advanced rules.
@Suite("Users $filter")
struct FilterQueryTests {
    /// A filter, whether it needs an advanced query, and which sandbox users it must return.
    struct Case: Sendable, CustomStringConvertible {
        var filter: String
        var advanced: Bool
        var expected: @Sendable (SandboxUser) -> Bool

        var description: String { filter }
    }

    static let cases: [Case] = [
        Case(filter: "accountEnabled eq false", advanced: false) { !$0.accountEnabled },
        Case(filter: "userType eq 'Guest'", advanced: false) { $0.userType == "Guest" },
        Case(filter: "startswith(displayName,'a')", advanced: false) { $0.displayName.lowercased().hasPrefix("a") },
        Case(filter: "department eq 'Sales' or department eq 'Finance'", advanced: false) {
            $0.department == "Sales" || $0.department == "Finance"
        },
        Case(filter: "accountEnabled eq true and userType eq 'Member'", advanced: false) {
            $0.accountEnabled && $0.userType == "Member"
        },
        Case(filter: "userType ne 'Guest'", advanced: true) { $0.userType != "Guest" },
        Case(filter: "endswith(mail,'@contoso.com')", advanced: true) {
            $0.mail?.lowercased().hasSuffix("@contoso.com") == true
        },
        Case(filter: "not(accountEnabled eq true)", advanced: true) { !$0.accountEnabled },
    ]

    @Test(
        "filters return exactly the matching users; advanced ones only with ConsistencyLevel and $count",
        arguments: cases)
    func filter(_ testCase: Case) async throws {
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 120, seed: 3))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let expected = await sandbox.users.filter(testCase.expected).map(\.id)
        #expect(!expected.isEmpty, "the tenant should have users for \(testCase.filter)")
        var query = [("$filter", testCase.filter), ("$select", "id"), ("$top", "999")]
        var headers: [String: String] = [:]
        if testCase.advanced {
            let plain = try await SandboxHarness.graph(base, "/v1.0/users", query, token: token)
            #expect(plain.status == 400)
            #expect(plain.graphErrorCode == "Request_UnsupportedQuery")
            let headerOnly = try await SandboxHarness.graph(
                base, "/v1.0/users", query, token: token, headers: ["ConsistencyLevel": "eventual"])
            #expect(headerOnly.status == 400, "the header alone is not enough")
            query.append(("$count", "true"))
            headers["ConsistencyLevel"] = "eventual"
        }
        let result = try await SandboxHarness.graph(base, "/v1.0/users", query, token: token, headers: headers)
        #expect(result.status == 200, "\(result.text)")
        #expect(result.values.compactMap { $0["id"] as? String } == expected)
        if testCase.advanced {
            #expect(result.json["@odata.count"] as? Int == expected.count)
        }
    }

    @Test("a filter with a quote in a name matches with the doubled-quote escape")
    func quoteEscape() async throws {
        let user = SandboxUser(
            id: "00000000-0000-4000-8000-000000000001", userPrincipalName: "sean.obrien@contoso.com",
            displayName: "Seán O'Brien", givenName: "Seán", surname: "O'Brien")
        let other = SandboxUser(
            id: "00000000-0000-4000-8000-000000000002", userPrincipalName: "ann.lee@contoso.com",
            displayName: "Ann Lee", givenName: "Ann", surname: "Lee")
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(fixedUsers: [user, other]))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let result = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$filter", "surname eq 'O''Brien'")], token: token)
        #expect(result.status == 200)
        #expect(result.values.compactMap { $0["id"] as? String } == [user.id])
    }

    @Test("filtered paging repeats the filter in nextLink and covers every match once")
    func filteredPaging() async throws {
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 200, seed: 5))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let pages = try await SandboxHarness.allPages(
            base, query: [("$filter", "userType eq 'Member'"), ("$top", "11"), ("$select", "id")], token: token)
        let ids = pages.flatMap { $0.values.compactMap { $0["id"] as? String } }
        #expect(ids == (await sandbox.users.filter { $0.userType == "Member" }.map(\.id)))
        #expect(pages.count > 2)
    }

    @Test(
        "an advanced query's nextLink fails without ConsistencyLevel on the next page: the header is not carried over")
    func consistencyLevelOnEveryPage() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let first = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$filter", "userType ne 'Guest'"), ("$count", "true"), ("$top", "10")], token: token,
            headers: ["ConsistencyLevel": "eventual"])
        let next = try #require(first.json["@odata.nextLink"] as? String)
        let without = try await SandboxHarness.send(
            try #require(URL(string: next)), headers: ["Authorization": "Bearer \(token)"])
        #expect(without.status == 400)
        let with = try await SandboxHarness.send(
            try #require(URL(string: next)),
            headers: ["Authorization": "Bearer \(token)", "ConsistencyLevel": "eventual"])
        #expect(with.status == 200)
        #expect(with.json["@odata.count"] == nil)
    }

    @Test(
        "malformed filters are 400 BadRequest; unsupported ones 400 Request_UnsupportedQuery",
        arguments: [
            ("displayName eq", "BadRequest"), ("startswith(displayName,'a'", "BadRequest"), ("(((", "BadRequest"),
            ("endswith(displayName,'x')", "Request_UnsupportedQuery"), ("shoeSize eq 42", nil),
        ])
    func badFilters(filter: String, code: String?) async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let result = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$filter", filter), ("$count", "true")], token: token,
            headers: ["ConsistencyLevel": "eventual"])
        #expect(result.status == 400)
        if let code { #expect(result.graphErrorCode == code) }
    }

    @Test("$orderby together with $filter needs an advanced query")
    func orderByWithFilter() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let query = [("$filter", "accountEnabled eq true"), ("$orderby", "displayName")]
        let plain = try await SandboxHarness.graph(base, "/v1.0/users", query, token: token)
        #expect(plain.status == 400)
        #expect(plain.graphErrorCode == "Request_UnsupportedQuery")
        let advanced = try await SandboxHarness.graph(
            base, "/v1.0/users", query + [("$count", "true")], token: token, headers: ["ConsistencyLevel": "eventual"])
        #expect(advanced.status == 200)
    }

    @Test("/users/$count honours $filter")
    func countWithFilter() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let result = try await SandboxHarness.graph(
            base, "/v1.0/users/$count", [("$filter", "userType eq 'Guest'")], token: token,
            headers: ["ConsistencyLevel": "eventual"])
        #expect(result.text == "\u{FEFF}" + String(await sandbox.users.filter { $0.userType == "Guest" }.count))
    }
}
