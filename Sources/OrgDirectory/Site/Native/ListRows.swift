/// Everyone's `person-row` as the browse and department pages show it (`root` "../"), made once in display
/// order and copied into both kinds of page.
///
/// Why: every person is on one browse page and on at most one department page, with the same row on both. Made
/// for each page, every row was escaped twice and each person's strings fetched from memory twice; the two list
/// passes were about 4 % of a first build's CPU at 100,000 people.
///
/// A row the run before kept (`KeptRowFiles`) is read where it is, in that file's mapping, not copied (`PlacedRows`).
struct ListRows: Sendable {
    private var rows: PlacedRows

    /// The rows of everyone in `directory`.
    init(_ directory: SiteDirectory) {
        var nothing = RowCopier.copyingNothing
        self.init(directory, copying: &nothing, match: nil)
    }

    /// The rows of everyone in `directory`, each read from `copier` (the run before's kept rows) when `match` gives
    /// the person a row there, else made; `copier` notes where each row goes, for the next run.
    init(_ directory: SiteDirectory, copying copier: inout RowCopier, match: RowMatch?) {
        // The people, not the directory, in the closure made for each row: capturing the directory copied it (a
        // retain and a release of each of its dozen lists, which other tasks retain from the other core) for each of
        // a hundred thousand people, about 14 of 1,000 samples of a nightly (`Benchmarks/profile-nightly.sh`).
        let people = directory.people
        rows = PlacedRows(count: people.count, from: copier, bytesPerRow: 320)
        for index in people.indices {
            rows.add(copying: &copier, row: match?.previousRow(at: index)) { page in
                ListPage.append(ListPage.Row(people[index]), root: Self.root, to: &page)
            }
        }
        rows.finish(copier)
    }

    /// The root the rows are made for.
    static let root = "../"

    /// Appends the row of the person at `position` to `page`.
    func append(_ position: Int, to page: inout PageBytes) {
        rows.withRow(position) { page.raw($0) }
    }

    /// Everyone's rows one after the other, handed to `write` (see `PlacedRows.write`).
    func write(_ write: (UnsafeRawBufferPointer) -> Int32?) -> (size: Int, failed: Int32?) {
        rows.write(write)
    }

    /// Directories up to this size make the rows once: at a million people they would hold about 300 MB.
    static let limit = 300_000
}
