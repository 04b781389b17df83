import Foundation
import Testing

@testable import GraphSandbox

@Suite("Users endpoint")
struct UsersEndpointTests {
    @Test(
        "paging with $top=7 through nextLinks returns every user exactly once, in the tenant's listing order",
        arguments: ListingOrder.allCases)
    func pagingCoversTenant(order: ListingOrder) async throws {
        let (sandbox, base) = try await SandboxHarness.start(
            SandboxConfiguration(userCount: 90, seed: 4, listingOrder: order))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let pages = try await SandboxHarness.allPages(
            base, query: [("$top", "7"), ("$select", "id,displayName")], token: token)
        #expect(pages.count == 13)
        #expect(pages.allSatisfy { $0.status == 200 })
        #expect(pages.dropLast().allSatisfy { $0.values.count == 7 })
        #expect(pages.last?.json["@odata.nextLink"] == nil)
        let ids = pages.flatMap { $0.values.compactMap { $0["id"] as? String } }
        let all = await sandbox.users.map(\.id)
        #expect(ids == Self.listed(all, in: order))
        #expect((ids == all.sorted()) == (order == .id), "only the id order lists by id")
        let byId = Dictionary(uniqueKeysWithValues: await sandbox.users.map { ($0.id, $0.displayName) })
        let names = pages.flatMap { $0.values.compactMap { $0["displayName"] as? String } }
        #expect(names == ids.compactMap { byId[$0] })
    }

    /// The ids of `users` in `order`, as the sandbox lists them.
    static func listed(_ ids: [String], in order: ListingOrder) -> [String] {
        switch order {
        case .id: ids.sorted()
        case .descendingID: ids.sorted().reversed()
        case .scrambled: ids.sorted { (TenantStore.scrambleKey($0), $0) < (TenantStore.scrambleKey($1), $1) }
        }
    }

    @Test(
        "a user removed after their page was served makes the next page neither skip nor repeat anyone",
        arguments: [ListingOrder.id, .descendingID, .scrambled])
    func listingAfterRemoval(order: ListingOrder) async throws {
        let (sandbox, base) = try await SandboxHarness.start(
            SandboxConfiguration(userCount: 20, seed: 5, listingOrder: order))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let first = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$top", "5"), ("$select", "id")], token: token)
        let firstIDs = first.values.compactMap { $0["id"] as? String }
        let next = try #require(first.json["@odata.nextLink"] as? String)
        // The page's last user (where the skip token points) leaves before the next page is asked for.
        let leaver = try #require(firstIDs.last)
        try await sandbox.mutate(.remove(id: leaver))
        let second = try await SandboxHarness.send(
            try #require(URL(string: next)), headers: ["Authorization": "Bearer \(token)"])
        let secondIDs = second.values.compactMap { $0["id"] as? String }
        let remaining = Self.listed(await sandbox.users.map(\.id), in: order).filter { !firstIDs.contains($0) }
        #expect(secondIDs == Array(remaining.prefix(5)))
    }

    @Test("people who join and leave keep the scrambled order that a tenant made from scratch has")
    func scrambledOrderFollowsChanges() throws {
        let users = TenantGenerator(seed: 3).users(count: 30)
        var store = TenantStore(users: users, keepsScrambledOrder: true)
        #expect(TenantStore(users: users).scrambledIds.isEmpty, "kept only for a tenant listed that way")
        try store.apply(.remove(id: users[4].id))
        let hire = SandboxUser(
            id: "ffffffff-0000-4000-8000-00000000beef", userPrincipalName: "hire@contoso.com", displayName: "Hire")
        try store.apply(.add(hire))
        #expect(store.scrambledIds == Self.listed(store.orderedIds, in: .scrambled))
        #expect(store.scrambledIds.count == 30)
    }

    @Test("nextLink is absolute, repeats the query, and carries an opaque RFNwdA skip token")
    func nextLinkShape() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let page = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$select", "id,mail"), ("$top", "5")], token: token)
        let next = try #require(page.json["@odata.nextLink"] as? String)
        #expect(next.hasPrefix("\(base.absoluteString)/v1.0/users?"))
        #expect(next.contains("$select=id,mail"))
        #expect(next.contains("$top=5"))
        let components = try #require(URLComponents(string: next))
        let skipToken = try #require(components.queryItems?.first { $0.name == "$skiptoken" }?.value)
        #expect(skipToken.hasPrefix("RFNwdA"))
        #expect(page.json["@odata.context"] as? String == "\(base.absoluteString)/v1.0/$metadata#users(id,mail)")
    }

    @Test("a tampered or foreign skip token is a 400, not a silently wrong page")
    func tamperedSkipToken() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let page = try await SandboxHarness.graph(base, "/v1.0/users", [("$top", "5")], token: token)
        let next = try #require(page.json["@odata.nextLink"] as? String)
        let tokenStart = try #require(next.range(of: "$skiptoken=")).upperBound
        var tampered = next
        let index = tampered.index(tokenStart, offsetBy: 12)
        tampered.replaceSubrange(index...index, with: tampered[index] == "A" ? "B" : "A")
        for link in [tampered, next + "x", "\(base.absoluteString)/v1.0/users?$top=5&$skiptoken=RFNwdAIAAQAAACA6"] {
            let result = try await SandboxHarness.send(
                try #require(URL(string: link)), headers: ["Authorization": "Bearer \(token)"])
            #expect(result.status == 400, "\(link)")
            #expect(result.graphErrorCode == "Request_BadRequest")
        }
        let changedQuery = next.replacingOccurrences(of: "$top=5", with: "$top=5&$filter=accountEnabled eq true")
            .replacingOccurrences(of: " ", with: "%20")
        let result = try await SandboxHarness.send(
            try #require(URL(string: changedQuery)), headers: ["Authorization": "Bearer \(token)"])
        #expect(result.status == 400, "a token from another query is not valid")
    }

    @Test("without $top a page holds 100 users")
    func defaultPageSize() async throws {
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 150))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let page = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        #expect(page.values.count == 100)
        #expect(page.json["@odata.nextLink"] is String)
        #expect(page.json["@odata.context"] as? String == "\(base.absoluteString)/v1.0/$metadata#users")
    }

    @Test("$top outside 1...999 is Graph's 400", arguments: ["0", "1000", "5000"])
    func topOutOfRange(top: String) async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let result = try await SandboxHarness.graph(base, "/v1.0/users", [("$top", top)], token: token)
        #expect(result.status == 400)
        #expect(result.graphErrorCode == "Request_UnsupportedQuery")
        #expect(
            result.graphErrorMessage == "Invalid page size specified: '\(top)'. Must be between 1 and 999 inclusive.")
    }

    @Test("$top=999 is accepted and a non-number is a BadRequest")
    func topEdges() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let ok = try await SandboxHarness.graph(base, "/v1.0/users", [("$top", "999")], token: token)
        #expect(ok.status == 200)
        #expect(ok.values.count == 60)
        #expect(ok.json["@odata.nextLink"] == nil)
        let bad = try await SandboxHarness.graph(base, "/v1.0/users", [("$top", "ten")], token: token)
        #expect(bad.status == 400)
        #expect(bad.graphErrorCode == "BadRequest")
    }

    @Test("without $select: the 11 default properties, explicit nulls and [] for missing values, no others")
    func defaultProperties() async throws {
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 300))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let page = try await SandboxHarness.graph(base, "/v1.0/users", [("$top", "999")], token: token)
        let expectedKeys: Set<String> = [
            "businessPhones", "displayName", "givenName", "jobTitle", "mail", "mobilePhone", "officeLocation",
            "preferredLanguage", "surname", "userPrincipalName", "id",
        ]
        #expect(page.values.count == 300)
        for user in page.values {
            #expect(Set(user.keys) == expectedKeys)
            #expect(user["businessPhones"] is [String])
        }
        #expect(page.values.contains { $0["mail"] is NSNull })
        #expect(page.values.contains { ($0["businessPhones"] as? [String])?.isEmpty == true })
        #expect(!page.text.contains("\"department\""))
    }

    @Test("$select returns only what was asked, id included only when selected, in the order asked")
    func selectShape() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let page = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$select", "displayName,DEPARTMENT,accountEnabled")], token: token)
        #expect(page.status == 200)
        for user in page.values {
            #expect(Set(user.keys) == ["displayName", "department", "accountEnabled"])
        }
        let text = page.text
        let first = try #require(text.range(of: "\"displayName\""))
        let second = try #require(text.range(of: "\"department\""))
        #expect(first.lowerBound < second.lowerBound)
    }

    @Test("an unknown property in $select is Request_BadRequest; a single-user-only one is 501")
    func selectErrors() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let unknown = try await SandboxHarness.graph(base, "/v1.0/users", [("$select", "id,shoeSize")], token: token)
        #expect(unknown.status == 400)
        #expect(unknown.graphErrorCode == "Request_BadRequest")
        #expect(unknown.graphErrorMessage?.contains("'shoeSize'") == true)
        let single = try await SandboxHarness.graph(base, "/v1.0/users", [("$select", "id,aboutMe")], token: token)
        #expect(single.status == 501)
        #expect(single.graphErrorCode == "NotImplemented")
    }

    @Test("$skip and unknown system query options are rejected")
    func unsupportedOptions() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let skip = try await SandboxHarness.graph(base, "/v1.0/users", [("$skip", "10")], token: token)
        #expect(skip.status == 400)
        #expect(skip.graphErrorCode == "Request_BadRequest")
        let unknown = try await SandboxHarness.graph(base, "/v1.0/users", [("$frobnicate", "1")], token: token)
        #expect(unknown.status == 400)
        let twice = try await SandboxHarness.send(
            try #require(URL(string: "\(base.absoluteString)/v1.0/users?$top=5&$top=6")),
            headers: ["Authorization": "Bearer \(token)"])
        #expect(twice.status == 400)
    }

    @Test("no token, a garbage token and an expired token get 401 InvalidAuthenticationToken")
    func authentication() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let none = try await SandboxHarness.send(SandboxHarness.url(base, "/v1.0/users"))
        #expect(none.status == 401)
        #expect(none.graphErrorCode == "InvalidAuthenticationToken")
        #expect(none.graphErrorMessage == "Access token is empty.")
        #expect(none.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        let garbage = try await SandboxHarness.graph(base, "/v1.0/users", token: "not-a-token")
        #expect(garbage.status == 401)
        #expect(garbage.graphErrorCode == "InvalidAuthenticationToken")
        let token = try await SandboxHarness.token(base)
        await sandbox.expireAllTokens()
        let expired = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        #expect(expired.status == 401)
        #expect(expired.graphErrorMessage == "Access token has expired or is not yet valid.")
    }

    @Test("errors carry innerError date, request-id and the echoed client-request-id, also as headers")
    func errorShape() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let clientRequestId = "0b7a3c55-1111-4222-8333-444455556666"
        let result = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$top", "1000")], token: token, headers: ["client-request-id": clientRequestId])
        let inner = try #require((result.json["error"] as? [String: Any])?["innerError"] as? [String: Any])
        #expect(inner["client-request-id"] as? String == clientRequestId)
        let requestId = try #require(inner["request-id"] as? String)
        #expect(result.headers["request-id"] == requestId)
        #expect(result.headers["client-request-id"] == clientRequestId)
        let date = try #require(inner["date"] as? String)
        #expect(date.count == 19 && date.contains("T") && !date.hasSuffix("Z"))
    }

    @Test("/users/{id} and /users/{userPrincipalName} return one user; unknown ids are 404")
    func singleUser() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let user = try #require(await sandbox.users.first { $0.kind == .member })
        let byId = try await SandboxHarness.graph(
            base, "/v1.0/users/\(user.id)", [("$select", "id,aboutMe")], token: token)
        #expect(byId.status == 200)
        #expect(byId.json["id"] as? String == user.id)
        #expect(byId.json["aboutMe"] is NSNull)
        #expect((byId.json["@odata.context"] as? String)?.hasSuffix("/$entity") == true)
        let byName = try await SandboxHarness.graph(base, "/v1.0/users/\(user.userPrincipalName)", token: token)
        #expect(byName.json["id"] as? String == user.id)
        let missing = try await SandboxHarness.graph(
            base, "/v1.0/users/00000000-0000-0000-0000-000000000000", token: token)
        #expect(missing.status == 404)
        #expect(missing.graphErrorCode == "Request_ResourceNotFound")
    }

    @Test("unknown Graph segments and unknown paths get Graph error JSON")
    func unknownPaths() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let segment = try await SandboxHarness.graph(base, "/v1.0/groups", token: token)
        #expect(segment.status == 400)
        #expect(segment.graphErrorCode == "BadRequest")
        let other = try await SandboxHarness.graph(base, "/nothing/here", token: token)
        #expect(other.status == 404)
        #expect(other.graphErrorCode == "NotFound")
    }

    @Test("$count=true with ConsistencyLevel gives @odata.count on the first page only")
    func countAnnotation() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let pages = try await SandboxHarness.allPages(
            base, query: [("$count", "true"), ("$top", "25")], token: token, headers: ["ConsistencyLevel": "eventual"])
        #expect(pages.count == 3)
        #expect(pages[0].json["@odata.count"] as? Int == 60)
        #expect(pages.dropFirst().allSatisfy { $0.json["@odata.count"] == nil })
        let ignored = try await SandboxHarness.graph(base, "/v1.0/users", [("$count", "true")], token: token)
        #expect(ignored.status == 200)
        #expect(ignored.json["@odata.count"] == nil)
    }

    @Test("/users/$count is text/plain with Graph's byte order mark and needs ConsistencyLevel")
    func countSegment() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let counted = try await SandboxHarness.graph(
            base, "/v1.0/users/$count", token: token, headers: ["ConsistencyLevel": "eventual"])
        #expect(counted.status == 200)
        #expect(counted.text == "\u{FEFF}60")
        #expect(counted.headers["content-type"]?.hasPrefix("text/plain") == true)
        let refused = try await SandboxHarness.graph(base, "/v1.0/users/$count", token: token)
        #expect(refused.status == 400)
        #expect(refused.graphErrorCode == "Request_BadRequest")
    }

    @Test("$expand=manager adds a typed manager object, leaves the key out for people without one")
    func expandManager() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let page = try await SandboxHarness.graph(
            base, "/v1.0/users",
            [("$select", "id,displayName"), ("$expand", "manager($select=id,displayName)"), ("$top", "999")],
            token: token)
        #expect(page.status == 200)
        let users = await sandbox.users
        let byId = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0) })
        for value in page.values {
            let user = try #require(byId[value["id"] as? String ?? ""])
            if let managerId = user.managerId {
                let manager = try #require(value["manager"] as? [String: Any])
                #expect(manager["@odata.type"] as? String == "#microsoft.graph.user")
                #expect(manager["id"] as? String == managerId)
                #expect(manager["displayName"] as? String == byId[managerId]?.displayName)
                #expect(Set(manager.keys) == ["@odata.type", "id", "displayName"])
            } else {
                #expect(value["manager"] == nil)
            }
        }
        let advanced = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$expand", "manager"), ("$count", "true")], token: token,
            headers: ["ConsistencyLevel": "eventual"])
        #expect(advanced.status == 400)
        #expect(advanced.graphErrorCode == "Request_UnsupportedQuery")
    }

    @Test("$orderby displayName sorts, desc reverses, other properties need an advanced query")
    func orderBy() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let pages = try await SandboxHarness.allPages(
            base, query: [("$orderby", "displayName"), ("$top", "9"), ("$select", "id,displayName")], token: token)
        let names = pages.flatMap { $0.values.compactMap { $0["displayName"] as? String } }
        #expect(names.count == 60)
        #expect(names == names.sorted { $0.lowercased() < $1.lowercased() })
        let descending = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$orderby", "displayName desc"), ("$top", "999")], token: token)
        let reversed = descending.values.compactMap { $0["displayName"] as? String }
        #expect(reversed == reversed.sorted { $0.lowercased() > $1.lowercased() })
        let other = try await SandboxHarness.graph(base, "/v1.0/users", [("$orderby", "jobTitle")], token: token)
        #expect(other.status == 400)
        #expect(other.graphErrorCode == "Request_UnsupportedQuery")
        let otherAdvanced = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$orderby", "jobTitle"), ("$count", "true")], token: token,
            headers: ["ConsistencyLevel": "eventual"])
        #expect(otherAdvanced.status == 200)
    }

    @Test("$search needs ConsistencyLevel and matches display-name words")
    func search() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let user = try #require(await sandbox.users.first { $0.kind == .member && $0.surname?.first?.isASCII == true })
        let word = try #require(user.surname)
        let refused = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$search", "\"displayName:\(word)\"")], token: token)
        #expect(refused.status == 400)
        let found = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$search", "\"displayName:\(word)\"")], token: token,
            headers: ["ConsistencyLevel": "eventual"])
        #expect(found.status == 200)
        #expect(found.values.contains { $0["id"] as? String == user.id })
        #expect(
            found.values.allSatisfy { ($0["displayName"] as? String)?.lowercased().contains(word.lowercased()) == true }
        )
    }
}
