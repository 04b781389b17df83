/// Everyone's `person-row` as the browse and department pages show it (`root` "../"), made once in display
/// order and copied into both kinds of page.
///
/// Why: every person is on one browse page and on at most one department page, with the same row on both. Made
/// for each page, every row was escaped twice and each person's strings fetched from memory twice; the two list
/// passes were about 4 % of a first build's CPU at 100,000 people.
///
/// A row the run before kept (`KeptRowFiles`) is read where it is, in that file's mapping, not copied: on a nightly
/// run that is nearly every row, some 31 MB of fresh memory at 100,000 people, which the kernel had to clear first.
struct ListRows: Sendable {
    /// The rows made here, one after the other.
    private var made: [UInt8] = []
    /// The run before's kept rows, when any row is read from them.
    private var kept: MappedFile?
    /// Where the row of the person at position `i` ends among everyone's rows one after the other (what a run
    /// keeps for the next, `KeptRowFiles`): it starts where the one before ends.
    private var ends: [Int] = []
    /// Where the row of the person at position `i` starts: in `made` when not negative, else at `~origins[i]` in
    /// `kept`.
    private var origins: [Int] = []

    /// The rows of everyone in `directory`.
    init(_ directory: SiteDirectory) {
        var nothing = RowCopier.copyingNothing
        self.init(directory, copying: &nothing, match: nil)
    }

    /// The rows of everyone in `directory`, each read from `copier` (the run before's kept rows) when `match` gives
    /// the person a row there, else made; `copier` notes where each row goes, for the next run.
    init(_ directory: SiteDirectory, copying copier: inout RowCopier, match: RowMatch?) {
        kept = copier.source
        var page = PageBytes(capacity: kept == nil ? directory.people.count * 320 : 64 * 1024)
        ends.reserveCapacity(directory.people.count)
        origins.reserveCapacity(directory.people.count)
        var end = 0
        for index in directory.people.indices {
            let start = end
            if let place = copier.place(row: match?.previousRow(at: index)) {
                origins.append(~place.lowerBound)
                end += place.count
            } else {
                let madeStart = page.bytes.count
                ListPage.append(ListPage.Row(directory.people[index]), root: Self.root, to: &page)
                origins.append(madeStart)
                end += page.bytes.count - madeStart
            }
            copier.record(at: start..<end)
            ends.append(end)
        }
        made = page.bytes
        if copier.copied == 0 { kept = nil }
    }

    /// The root the rows are made for.
    static let root = "../"

    /// Appends the row of the person at `position` to `page`.
    func append(_ position: Int, to page: inout PageBytes) {
        withRow(position) { page.raw($0) }
    }

    /// Calls `body` with the row of the person at `position`.
    private func withRow<Result>(_ position: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withBytes(at: origins[position], count: ends[position] - (position == 0 ? 0 : ends[position - 1]), body)
    }

    /// Calls `body` with `count` bytes from `origin` (see `origins`).
    private func withBytes<Result>(
        at origin: Int, count: Int, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        if origin < 0, let kept {
            return body(UnsafeRawBufferPointer(rebasing: kept.bytes[~origin..<(~origin + count)]))
        }
        return made.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[origin..<(origin + count)])) }
    }

    /// Everyone's rows one after the other, handed to `write` in runs (rows that follow each other where they
    /// are, in `made` or in the kept file, go in one piece); returns the bytes written and the error code that
    /// stopped it, if any.
    func write(_ write: (UnsafeRawBufferPointer) -> Int32?) -> (size: Int, failed: Int32?) {
        var written = 0
        var run: (origin: Int, count: Int)?
        func flush() -> Int32? {
            guard let current = run else { return nil }
            run = nil
            let failed = withBytes(at: current.origin, count: current.count) { write($0) }
            if failed == nil { written += current.count }
            return failed
        }
        for position in origins.indices {
            let count = ends[position] - (position == 0 ? 0 : ends[position - 1])
            let origin = origins[position]
            // A row goes on the run when it starts where the run ends, in the same place (a kept origin is the
            // complement of its offset, so it counts down).
            if let current = run, (current.origin < 0) == (origin < 0),
                origin < 0 ? origin == current.origin - current.count : origin == current.origin + current.count
            {
                run = (current.origin, current.count + count)
                continue
            }
            if let failed = flush() { return (written, failed) }
            run = (origin, count)
        }
        if let failed = flush() { return (written, failed) }
        return (written, nil)
    }

    /// Everyone's rows one after the other (tests).
    var bytes: [UInt8] {
        var all: [UInt8] = []
        _ = write { piece in
            all.append(contentsOf: piece)
            return nil
        }
        return all
    }

    /// Directories up to this size make the rows once: at a million people they would hold about 300 MB.
    static let limit = 300_000
}
