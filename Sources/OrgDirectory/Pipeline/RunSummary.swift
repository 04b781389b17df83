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
    /// People whose pages were rendered this run, and people whose published pages were carried over
    /// unchanged because nothing that shapes them changed (render fingerprints in the state folder).
    public var peopleRendered: Int = 0
    public var peopleReused: Int = 0
    /// Of `peopleRendered`, people whose pages were rendered while the fetch was still running (a first build)
    /// and kept because nothing they show changed once everyone had arrived.
    public var peoplePrerendered: Int = 0
    /// People whose search tokens were worked out this run; the others' came from the run before
    /// (`search-tokens.bin` in the state folder) or were worked out while a first build fetched.
    public var peopleTokenized: Int = 0
    /// Rows of the exports (`people.csv`, `.json`, `.vcf`, all counted) copied from the published exports because
    /// the person's row was unchanged (`export-rows.bin` in the state folder); the others were made this run.
    public var exportRowsCopied: Int = 0
    /// List page rows copied from those the run before kept (`list-rows.bin` in the state folder) because the
    /// person's row was unchanged.
    public var keptRowsCopied: Int = 0
    /// People whose preparation for the site directory (sort key, slug, phone links, record digest) came from the
    /// run before (`preparations.bin` in the state folder) because their record was the one in the last snapshot.
    public var peoplePreparedBefore: Int = 0
    /// Of `peopleReused`, people whose render fingerprint was carried from the run before without being taken
    /// again, because none of tonight's changes reached their page (their record, their manager, their reports).
    public var fingerprintsCarried: Int = 0
    /// Night pages under `changes/` carried over from the published site without being rendered, because no change
    /// since reached them (their people's pages links).
    public var changePagesCarried: Int = 0
}
