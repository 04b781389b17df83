/// What one `orgdir build` did, printed with `--json` for monitoring.
public struct RunSummary: Sendable, Codable, Equatable {
    /// `full` or `delta`.
    public var sync: String
    /// People Graph gave (before local rules).
    public var fetched: Int
    /// People on the published site.
    public var published: Int
    public var pages: Int
    public var joiners: Int
    public var leavers: Int
    public var changed: Int
    public var removedByRule: [String: Int]
    public var filesWritten: Int
    public var filesUnchanged: Int
    public var tokensIssued: Int
    public var output: String
    public var snapshot: String
    public var durationSeconds: Double
    public var warnings: [String]
}
