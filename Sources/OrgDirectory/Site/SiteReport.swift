/// What a render produced, for the run summary.
public struct SiteReport: Sendable, Equatable {
    /// Every file handed to the `SiteOutput`.
    public var filesWritten: Int
    /// People with a page.
    public var people: Int
    /// Search shard files (token, phone and record shards).
    public var searchShards: Int
    /// Departments with a page.
    public var departments: Int
    /// Every relative path written, sorted (empty when the render was asked not to list them).
    public var paths: [String]
    /// People whose three files were rendered, and people whose published files were carried over because
    /// their render fingerprint was unchanged.
    public var peopleRendered: Int = 0
    public var peopleReused: Int = 0
    /// Of `peopleRendered`, people whose pages were rendered while the fetch was still running and kept.
    public var peoplePrerendered: Int = 0
    /// Every person's render fingerprint, for the next run; nil when the render was not asked to keep them.
    public var fingerprints: RenderFingerprints?

    public init(
        filesWritten: Int = 0, people: Int = 0, searchShards: Int = 0, departments: Int = 0, paths: [String] = []
    ) {
        self.filesWritten = filesWritten
        self.people = people
        self.searchShards = searchShards
        self.departments = departments
        self.paths = paths
    }
}
