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
    /// Every relative path written, sorted, so Publish can remove what is no longer there.
    public var paths: [String]

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
