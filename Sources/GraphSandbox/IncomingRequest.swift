import Foundation

/// One HTTP request as the sandbox sees it: method, raw target, headers with lowercased names, body.
struct IncomingRequest: Sendable {
    var method: String
    /// Path and query exactly as sent, still percent-encoded.
    var target: String
    var headers: [String: String]
    var body: Data

    /// The percent-decoded path without the query.
    var path: String {
        let raw = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
        return (raw ?? "").removingPercentEncoding ?? (raw ?? "")
    }

    /// The raw query (after `?`), still percent-encoded; empty when absent.
    var rawQuery: String {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count > 1 ? String(parts[1]) : ""
    }

    /// A header value by case-insensitive name.
    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
