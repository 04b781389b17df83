import Foundation

/// A JSON value whose object keys keep their insertion order, so responses list `@odata.context` first
/// and properties in Graph's order (Foundation's serializer does not preserve order).
enum JSONNode: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONNode])
    case object([(String, JSONNode)])
    /// JSON text serialized already (a user rendered through a `UserJSONPlan`), written out as it is.
    case raw([UInt8])

    static func == (lhs: JSONNode, rhs: JSONNode) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    /// A string or `null` when absent.
    static func optional(_ value: String?) -> JSONNode {
        value.map(JSONNode.string) ?? .null
    }

    /// Compact JSON text, escaping as RFC 8259 requires (non-ASCII stays as UTF-8).
    func serialized() -> String {
        String(decoding: bytes(), as: UTF8.self)
    }

    /// Compact JSON as UTF-8 bytes.
    func data() -> Data {
        Data(bytes())
    }

    /// Written byte by byte into one buffer: a users page of 999 people is about 450 KB, and building it
    /// through `String` one Unicode scalar at a time cost the sandbox 20–50 ms a page, which a latency
    /// benchmark would charge to the client.
    private func bytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    func write(into out: inout [UInt8]) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let value):
            out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value):
            out.append(contentsOf: String(value).utf8)
        case .string(let value):
            Self.writeString(value, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.0, into: &out)
                out.append(UInt8(ascii: ":"))
                member.1.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .raw(let bytes):
            out.append(contentsOf: bytes)
        }
    }

    /// Quotes and escapes `value`; UTF-8 bytes of 0x20 and above other than `"` and `\` are copied as they are
    /// (every byte of a multi-byte sequence is 0x80 or above, so non-ASCII text passes through untouched).
    /// Runs that need no escaping are copied in one piece: a users page writes some 16,000 strings.
    static func writeString(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = value
        text.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscaped(byte, into: &out)
                runStart = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The escape sequence RFC 8259 asks for: the short forms where JSON has one, `\u00XX` for other controls.
    private static func appendEscaped(_ byte: UInt8, into out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: out.append(contentsOf: "\\n".utf8)
        case 0x0D: out.append(contentsOf: "\\r".utf8)
        case 0x09: out.append(contentsOf: "\\t".utf8)
        case 0x08: out.append(contentsOf: "\\b".utf8)
        case 0x0C: out.append(contentsOf: "\\f".utf8)
        default:
            let hex = String(byte, radix: 16)
            out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
        }
    }
}
