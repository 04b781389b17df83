/// What one `orgdir fetch` did, printed with `--json`: the first half of a build, without a site.
public struct FetchSummary: Sendable, Codable, Equatable {
    /// People Graph gave (before local rules).
    public var fetched: Int
    /// People written to the snapshot file (after local rules).
    public var people: Int
    public var pages: Int
    public var removedByRule: [String: Int]
    public var tokensIssued: Int
    /// The snapshot file written.
    public var snapshot: String
    public var durationSeconds: Double
    public var warnings: [String]
}
