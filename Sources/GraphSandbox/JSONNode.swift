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

    static func == (lhs: JSONNode, rhs: JSONNode) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    /// A string or `null` when absent.
    static func optional(_ value: String?) -> JSONNode {
        value.map(JSONNode.string) ?? .null
    }

    /// Compact JSON text, escaping as RFC 8259 requires (non-ASCII stays as UTF-8).
    func serialized() -> String {
        var out = ""
        write(into: &out)
        return out
    }

    /// Compact JSON as UTF-8 bytes.
    func data() -> Data {
        Data(serialized().utf8)
    }

    private func write(into out: inout String) {
        switch self {
        case .null:
            out += "null"
        case .bool(let value):
            out += value ? "true" : "false"
        case .int(let value):
            out += String(value)
        case .string(let value):
            Self.writeString(value, into: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(member.0, into: &out)
                out += ":"
                member.1.write(into: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, into out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
