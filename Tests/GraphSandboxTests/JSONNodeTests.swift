import Foundation
import Testing

@testable import GraphSandbox

/// The sandbox's own JSON writer: what every Graph response body goes through.
@Suite("Sandbox JSON writer")
struct JSONNodeTests {
    @Test(
        "strings survive a round trip through a standard JSON parser",
        arguments: [
            "plain", "quote \" and backslash \\", "line\nfeed\r\ttab", "\u{08}\u{0C}\u{01}\u{1F}", "Jürgen Ødegård",
            "Иван Петров", "王小明", "👩🏽‍💻 emoji", "</script><script>alert(1)</script>", "",
        ])
    func roundTrip(text: String) throws {
        let node = JSONNode.object([("name", .string(text)), ("list", .array([.string(text), .null, .bool(true)]))])
        let parsed = try #require(try JSONSerialization.jsonObject(with: node.data()) as? [String: Any])
        #expect(parsed["name"] as? String == text)
        #expect((parsed["list"] as? [Any])?.first as? String == text)
    }

    @Test("control characters are escaped, object keys keep their order, non-ASCII stays UTF-8")
    func exactBytes() {
        let node = JSONNode.object([
            ("z", .string("a\u{01}\"\\é")), ("a", .int(-42)), ("m", .null), ("b", .bool(false)),
        ])
        #expect(node.serialized() == #"{"z":"a\u0001\"\\é","a":-42,"m":null,"b":false}"#)
    }
}

/// The page writer that skips the JSON tree must give exactly the bytes the tree gives.
@Suite("Sandbox users page writer")
struct UserJSONPlanTests {
    private static let hostile = [
        "quote \" and backslash \\", "line\nfeed\r\ttab\u{08}\u{0C}\u{01}\u{1F}", "Jürgen Ødegård", "王小明",
        "👩🏽‍💻", "</script>", "", "plain",
    ]

    private static func users() -> [SandboxUser] {
        (0..<40).map { index in
            let text = hostile[index % hostile.count]
            return SandboxUser(
                id: "id-\(index)", userPrincipalName: "u\(index)@contoso.com", displayName: "\(text) \(index)",
                givenName: index % 3 == 0 ? nil : text, surname: index % 5 == 0 ? nil : "S\(text)",
                mail: index % 2 == 0 ? "m\(index)@contoso.com" : nil,
                businessPhones: Array(repeating: "+1 425 555 01\(index % 10)\(text)", count: index % 3),
                jobTitle: text, department: index % 4 == 0 ? nil : "Dept \(text)", accountEnabled: index % 7 != 0,
                otherMails: index % 2 == 0 ? [text] : [], managerId: index > 0 ? "id-\((index - 1) / 3)" : nil)
        }
    }

    @Test(
        "a page written through the compiled plan equals the page written through the JSON tree",
        arguments: [
            "", "$select=id,displayName,businessPhones,accountEnabled,mail,otherMails,givenName",
            "$select=ageGroup,assignedLicenses,passwordPolicies,id",
            "$select=id,displayName&$expand=manager($select=id,displayName)",
            "$expand=manager",
        ])
    func planMatchesTree(rawQuery: String) throws {
        let users = Self.users()
        let store = TenantStore(users: users)
        let query = try UsersQuery.parse(rawQuery: rawQuery, collection: true)
        let endpoint = UsersEndpoint(base: "http://127.0.0.1:1", skipTokens: SkipTokenCodec(key: 7))
        let fast = endpoint.renderList(users, query: query, store: store)
        let tree = JSONNode.array(users.map { endpoint.render($0, query: query, store: store) })
        #expect(fast.serialized() == tree.serialized())
        let parsed = try #require(try JSONSerialization.jsonObject(with: fast.data()) as? [[String: Any]])
        #expect(parsed.count == users.count)
    }
}
