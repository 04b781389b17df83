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
