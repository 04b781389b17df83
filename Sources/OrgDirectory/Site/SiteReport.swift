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
    /// People whose render fingerprint was carried from the published site's because no change reached their page
    /// (`PageReach`), instead of taken again.
    public var fingerprintsCarried: Int = 0
    /// Night pages under `changes/` carried over from the published site because no change since reached them
    /// (`SiteRenderJob.carriedNights`), instead of rendered again.
    public var changePagesCarried: Int = 0
    /// Every person's render fingerprint, for the next run; nil when the render was not asked to keep them.
    public var fingerprints: RenderFingerprints?
    /// People whose search tokens were worked out by this render (the others were numbered while the build
    /// fetched or taken from the run before's `SearchTokenCache`).
    public var peopleTokenized: Int = 0
    /// Everyone's search tokens for the next run, when asked for and the directory is small enough to number them.
    public var searchTokens: SearchTokenCache?
    /// When the render left the published search base in place and wrote only an overlay of who changed since
    /// (`SearchOverlayPlan`), everyone's base number by display position: the stored search tokens, which describe
    /// that base, must then be kept as they are, and the next run is given these rows.
    public var searchBaseRows: SearchBaseRows?
    /// Whether the render wrote a search overlay (`searchBaseRows`).
    public var searchOverlay: Bool { searchBaseRows != nil }
    /// Search records a render that made a new search base copied from the published base's (`SearchBaseRecords`).
    public var searchRecordsFromBase: Int = 0
    /// Where everyone's rows are in the exports just written, for the next run (see `ExportRows`); nil when not
    /// asked for or the directory is too large to keep it.
    var exportRows: ExportRows?
    /// Everyone's preparation for the next run's `PreparationCache`, when asked for and the directory is small
    /// enough to keep caches; nil when the render handed it to a `PreparationSaving` instead.
    var preparations: PreparationCache.Made?
    /// People whose preparation was taken from the run before's `PreparationCache` instead of made.
    public var peoplePreparedBefore: Int = 0
    /// Export rows copied from the published exports rather than made.
    public var exportRowsCopied: Int = 0
    /// List rows copied from the run before's (`KeptRowFiles`) instead of made.
    public var keptRowsCopied: Int = 0
    /// What the render could not keep for the next run, said as warnings (the site itself is whole).
    public var warnings: [String] = []

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
