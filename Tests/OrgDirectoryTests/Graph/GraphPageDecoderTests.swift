import Foundation
import Testing

@testable import OrgDirectory

/// The fast page reader must give exactly what `JSONDecoder` gives, or give up so that `JSONDecoder` decides.
@Suite("Graph page decoder")
struct GraphPageDecoderTests {
    /// Fast and Decodable results of one body.
    private static func both(_ json: String) -> (fast: GraphUsersPage?, slow: GraphUsersPage?) {
        let data = Data(json.utf8)
        return (GraphPageDecoder.page(from: data), try? JSONDecoder().decode(GraphUsersPage.self, from: data))
    }

    private static func expectSame(_ fast: GraphUsersPage?, _ slow: GraphUsersPage?, _ json: String) {
        guard let fast, let slow else {
            Issue.record(
                "fast \(fast == nil ? "gave up" : "read it"), JSONDecoder \(slow == nil ? "failed" : "read it"): \(json)"
            )
            return
        }
        #expect(fast.value == slow.value, "\(json)")
        #expect(fast.nextLink == slow.nextLink && fast.count == slow.count && fast.deltaLink == slow.deltaLink)
    }

    static let readable: [String] = [
        #"{"@odata.context":"https://g/$metadata#users","value":[]}"#,
        #"{"@odata.context":"c","@odata.nextLink":"https://g/v1.0/users?$skiptoken=RFNwdA%3D%3D","value":[{"id":"1","displayName":"Ada","businessPhones":["+1 425 555 0100",null],"mobilePhone":null,"accountEnabled":true}]}"#,
        """
        {
          "@odata.count" : 2 ,
          "value" : [
            { "id" : "a\\u00e9\\ud83d\\ude00\\/\\"\\\\\\b\\f\\n\\r\\t\\u0000" , "surname" : "M\\u00fcller" } ,
            { "id" : "b", "displayName": "Jürgen Ødegård 王小明 👩🏽‍💻 \\u202e", "accountEnabled": false }
          ]
        }
        """,
        ##"{"value":[{"id":"1","extension_abc_costCenter":"42-A","onPremisesSyncEnabled":true,"employeeHireDate":null,"otherMails":["a@x","b@x",null,["c@x",7]],"age":-12,"zero":0,"big":123456789012345678,"passwordProfile":{"x":[1.5e3,-0.25,{"y":null}]},"emptyList":[],"@odata.type":"#microsoft.graph.user","photo@odata.mediaReadLink":"x"}]}"##,
        ##"{"value":[{"id":"1","manager":{"@odata.type":"#microsoft.graph.user","id":"m1","displayName":"Boss"}},{"id":"2","manager":null},{"id":"3","manager":{"id":null}}]}"##,
        #"{"@odata.deltaLink":"https://g/v1.0/users/delta?$deltatoken=abc","value":[{"id":"1","@removed":{"reason":"changed"}},{"id":"2","manager@delta":[{"id":"old","@removed":{"reason":"deleted"}},{"id":"new"}]},{"id":"3","manager@delta":[]},{"id":"4","displayName":null,"manager@delta":[{"id":"m","displayName":"M"}],"manager":{"id":"x"}}]}"#,
        #"{"value":[{"jobTitle":"@odata.nextLink","department":"\"@odata.nextLink\":\"https://evil\""}],"unknown":{"a":[true,false,null,"\u20ac"]},"@odata.nextLink":null}"#,
    ]

    @Test("pages Graph sends are read by the fast path exactly as JSONDecoder reads them", arguments: readable)
    func readsLikeJSONDecoder(json: String) {
        let (fast, slow) = Self.both(json)
        #expect(fast != nil, "the fast path gave up on \(json)")
        Self.expectSame(fast, slow, json)
    }

    static let refused: [String] = [
        #"{"value":[{"id":"1","id":"2"}]}"#,  // duplicate key
        #"{"value":[{"id":"1","extension_x":"a","extension_x":"b"}]}"#,
        #"{"value":[{"id":"1","manager@delta":[],"manager@delta":[]}]}"#,
        #"{"value":[],"value":[]}"#,
        #"{"value":[{"id":"1","score":1.5}]}"#,  // non-integer number shown as text
        #"{"value":[{"id":"1","score":1e2}]}"#,
        #"{"value":[{"id":"1","score":-0}]}"#,
        #"{"value":[{"id":"\ud800"}]}"#,  // lone surrogate
        #"{"value":[{"id":"\udc00\ud800"}]}"#,
        #"{"value":[{"id":1}]}"#,  // wrong type: JSONDecoder fails the page
        #"{"value":[{"accountEnabled":"yes"}]}"#,
        #"{"value":[{"manager":"m"}]}"#,  // JSONDecoder drops such a manager silently: let it decide
        #"{"value":null}"#,
        #"{"@odata.count":"3","value":[]}"#,
        #"{"value":[],}"#,
        #"{"value":[{"id":"1"}]"#,
        #"{"value":[]} x"#,
        "\u{FEFF}{\"value\":[]}",
        "{\"value\":[{\"id\":\"a\u{01}b\"}]}",  // raw control character
        #"{"value":[{"x":01}]}"#,
        #"{"value":[{"x":tru}]}"#,
    ]

    @Test("every key a user object carried is in its sent keys, nulls and annotations included, and only those")
    func sentKeys() throws {
        let json = ##"{"value":[{"id":"1","mail":null,"manager@delta":[],"extension_x":"a","@removed":{}}]}"##
        let (fast, slow) = Self.both(json)
        let expected: Set<String> = ["id", "mail", "manager@delta", "extension_x", "@removed"]
        #expect(try #require(fast?.value.first).sentKeys == expected)
        #expect(try #require(slow?.value.first).sentKeys == expected)
        var user = GraphUser()
        user.sentKeys = ["displayName", "extension_y"]
        #expect(user.knownSentKeys.contains(.displayName) && !user.knownSentKeys.contains(.id))
        #expect(user.otherSentKeys == ["extension_y"])
        #expect(user.sentKeys == ["displayName", "extension_y"])
        #expect(GraphUserKey.allCases.allSatisfy { GraphUserKey(name: $0.name) == $0 })
    }

    @Test("anything the fast path is not sure about is left to JSONDecoder", arguments: refused)
    func givesUp(json: String) {
        #expect(GraphPageDecoder.page(from: Data(json.utf8)) == nil, "\(json)")
    }

    @Test("a body nested thousands deep is left to JSONDecoder instead of exhausting the stack")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let json = #"{"value":[{"id":"1","extension_x":"# + deep + "}]}"
        #expect(GraphPageDecoder.page(from: Data(json.utf8)) == nil)
        let shallow = #"{"value":[{"id":"1","extension_x":[[["a"]]]}]}"#
        #expect(GraphPageDecoder.page(from: Data(shallow.utf8))?.value.first?.extra["extension_x"] == "a")
    }

    @Test("invalid UTF-8 inside a string is left to JSONDecoder")
    func invalidUTF8() {
        var bytes = Array(#"{"value":[{"id":""#.utf8)
        bytes += [0xC3, 0x28]
        bytes += Array(#""}]}"#.utf8)
        #expect(GraphPageDecoder.page(from: Data(bytes)) == nil)
    }

    @Test("a thousand random pages of hostile values, escapes, nulls and shuffled keys read as JSONDecoder reads them")
    func randomPages() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<1000 {
            let json = RandomGraphPage.make(&random)
            let (fast, slow) = Self.both(json)
            #expect(fast != nil, "gave up on \(json)")
            Self.expectSame(fast, slow, json)
        }
    }
}

/// A small deterministic generator (SplitMix64).
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((value ^ (value >> 31)) % UInt64(bound))
    }
}

/// Graph-shaped pages written by hand, so escapes, whitespace and key order vary.
enum RandomGraphPage {
    static let texts = [
        "Ada", "", "Jürgen Müller", "O'Brien", "quote \" backslash \\ slash /", "tab\tnew\nline\r", "王小明",
        "👩🏽‍💻 team", "\u{202E}evil", "</script><script>alert(1)</script>", "[x](javascript:alert(1))",
        "{{#mustache}}", "\u{07}bell", String(repeating: "ä", count: 256), "é\u{301}", "\u{0}nul",
    ]

    static func string(_ text: String, _ random: inout SeededRandom) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += random.next(2) == 0 ? "/" : "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || random.next(6) == 0 {
                    for unit in String(scalar).utf16 { out += String(format: "\\u%04x", unit) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func value(_ random: inout SeededRandom) -> String {
        random.next(5) == 0 ? "null" : string(texts[random.next(texts.count)], &random)
    }

    static func make(_ random: inout SeededRandom) -> String {
        let space = [" ", "", "\n  ", "\t"]
        func sp(_ random: inout SeededRandom) -> String { space[random.next(space.count)] }
        var users: [String] = []
        for number in 0..<random.next(6) {
            var members = ["\"id\":\"id-\(number)\""]
            for key in [
                "userPrincipalName", "displayName", "givenName", "surname", "mail", "mobilePhone", "jobTitle",
                "department", "officeLocation", "companyName", "userType", "employeeId", "preferredLanguage", "city",
            ]
            where random.next(4) != 0 {
                members.append("\"\(key)\":\(sp(&random))\(value(&random))")
            }
            if random.next(2) == 0 {
                let phones = (0..<random.next(3)).map { _ in value(&random) }
                members.append("\"businessPhones\":[\(phones.joined(separator: ","))]")
            }
            if random.next(3) == 0 { members.append("\"accountEnabled\":\(["true", "false", "null"][random.next(3)])") }
            if random.next(4) == 0 {
                members.append("\"manager\":{\"id\":\(value(&random)),\"displayName\":\(value(&random))}")
            }
            if random.next(6) == 0 { members.append("\"@removed\":{\"reason\":\"changed\"}") }
            if random.next(5) == 0 { members.append("\"extension_x_level\":\(random.next(1000) - 500)") }
            for index in members.indices.reversed() { members.swapAt(index, random.next(index + 1)) }
            users.append("{" + members.joined(separator: "," + sp(&random)) + "}")
        }
        var page = ["\"@odata.context\":\"c\"", "\"value\":[\(users.joined(separator: ",\(sp(&random))"))]"]
        if random.next(2) == 0 {
            page.append("\"@odata.nextLink\":\(string("https://g/v1.0/users?$skiptoken=x/y", &random))")
        }
        if random.next(3) == 0 { page.append("\"@odata.count\":\(random.next(100_000))") }
        page.swapAt(0, random.next(page.count))
        return sp(&random) + "{" + page.joined(separator: ",") + "}" + sp(&random)
    }
}
