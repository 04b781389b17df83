import Foundation

/// `application/x-www-form-urlencoded` decoding, used for token request bodies and query strings
/// (Graph, like ASP.NET, reads `+` in a query as a space).
enum FormEncoding {
    /// One `name=value` pair: raw (as sent) and decoded.
    struct Pair: Sendable, Equatable {
        var rawName: String
        var rawValue: String?
        var name: String
        var value: String
    }

    /// Splits and decodes; malformed percent escapes are kept literally rather than failing the request.
    static func pairs(_ text: String) -> [Pair] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(parts[0])
            let rawValue = parts.count > 1 ? String(parts[1]) : nil
            return Pair(
                rawName: rawName, rawValue: rawValue, name: decode(rawName), value: rawValue.map(decode) ?? "")
        }
    }

    /// Decodes one component: `+` is a space, then percent escapes.
    static func decode(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// Encodes one component for a form body or query value (RFC 3986 unreserved characters stay).
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
