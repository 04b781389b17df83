import Foundation

/// One request the sandbox received, kept so tests can check what a client did and when
/// (for example that a retry came at least `Retry-After` seconds after the 429).
public struct RecordedRequest: Sendable {
    /// Which endpoint family handled it.
    public enum Endpoint: String, Sendable, Codable {
        case token
        case graph
        case other
    }

    /// 1-based order of arrival.
    public var sequence: Int
    public var method: String
    /// Path and query exactly as sent (percent-encoded).
    public var target: String
    /// Header names lowercased.
    public var headers: [String: String]
    /// Arrival time on the monotonic clock: subtract two of these for exact intervals.
    public var receivedAt: ContinuousClock.Instant
    /// Arrival time on the wall clock.
    public var wallTime: Date
    /// HTTP status sent (for a dropped connection, the status in the headers that went out).
    public var status: Int
    public var endpoint: Endpoint
    /// The injected fault, if any: "throttle", "serviceUnavailable", "gatewayTimeout", "latency",
    /// "dropConnection", "foreignNextLink", "tokenExpired".
    public var fault: String?
    /// The `Retry-After` header value sent with this response, if any.
    public var retryAfter: String?

    /// The percent-decoded path without the query.
    public var path: String {
        let raw = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
        return (raw ?? "").removingPercentEncoding ?? (raw ?? "")
    }

    /// Decoded query parameters (first value wins).
    public var query: [String: String] {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count > 1 else { return [:] }
        var result: [String: String] = [:]
        for pair in FormEncoding.pairs(String(parts[1])) where result[pair.name] == nil {
            result[pair.name] = pair.value
        }
        return result
    }
}
