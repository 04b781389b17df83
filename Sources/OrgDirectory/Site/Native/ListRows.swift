/// Everyone's `person-row` as the browse and department pages show it (`root` "../"), made once in display
/// order and copied into both kinds of page.
///
/// Why: every person is on one browse page and on at most one department page, with the same row on both. Made
/// for each page, every row was escaped twice and each person's strings fetched from memory twice; the two list
/// passes were about 4 % of a first build's CPU at 100,000 people.
struct ListRows: Sendable {
    /// Everyone's rows one after the other (what a run keeps for the next, `KeptRowFiles`).
    private(set) var bytes: [UInt8] = []
    /// Where the row of the person at position `i` ends in `bytes` (it starts where the one before ends).
    private var ends: [Int] = []

    /// The rows of everyone in `directory`.
    init(_ directory: SiteDirectory) {
        var nothing = RowCopier.copyingNothing
        self.init(directory, copying: &nothing, match: nil)
    }

    /// The rows of everyone in `directory`, each copied from `copier` (the run before's kept rows) when `match` gives
    /// the person a row there, else made; `copier` notes where each row goes, for the next run.
    init(_ directory: SiteDirectory, copying copier: inout RowCopier, match: RowMatch?) {
        var page = PageBytes(capacity: directory.people.count * 320)
        ends.reserveCapacity(directory.people.count)
        for index in directory.people.indices {
            let start = page.bytes.count
            if let row = copier.take(row: match?.previousRow(at: index)) {
                page.raw(row)
            } else {
                ListPage.append(ListPage.Row(directory.people[index]), root: Self.root, to: &page)
            }
            copier.record(at: start..<page.bytes.count)
            ends.append(page.bytes.count)
        }
        bytes = page.bytes
    }

    /// The root the rows are made for.
    static let root = "../"

    /// Appends the row of the person at `position` to `page`.
    func append(_ position: Int, to page: inout PageBytes) {
        let start = position == 0 ? 0 : ends[position - 1]
        page.raw(bytes[start..<ends[position]])
    }

    /// Directories up to this size make the rows once: at a million people they would hold about 300 MB.
    static let limit = 300_000
}
