/// Everyone's rows of one kind in display order (the list page rows), each either made here or read in
/// place from the run before's kept file (`KeptRowFiles`), the way a run keeps them for the next: one after the
/// other.
///
/// Why in place: a nightly run finds nearly every row in the kept file. Copied into a buffer of their own, the list
/// rows alone were some 31 MB of fresh memory at 100,000 people, which the kernel had to clear first, and 77–85 of a
/// nightly profile's 1,314–1,390 samples (11 read in place; `PROFILE_USERS=100000 Benchmarks/profile-nightly.sh`).
struct PlacedRows: Sendable {
    /// The rows made here, one after the other.
    private var made: PageBytes
    /// The run before's kept rows, when any row is read from them.
    private var kept: MappedFile?
    /// Where the row at position `i` ends among the rows one after the other (it starts where the one before ends).
    private var ends: [Int] = []
    /// Where the row at position `i` starts: in `made` when not negative, else at offset `~origins[i]` of `kept`.
    private var origins: [Int] = []

    /// Room for `count` rows, read from `copier`'s file where it has them (about `bytesPerRow` each when made).
    init(count: Int, from copier: RowCopier, bytesPerRow: Int) {
        kept = copier.source
        made = PageBytes(capacity: kept == nil ? count * bytesPerRow : 64 * 1024)
        ends.reserveCapacity(count)
        origins.reserveCapacity(count)
    }

    /// Adds the next row: the kept file's row number `row` when `copier` has it, else the one `make` appends; notes
    /// where it goes with `copier`.
    mutating func add(copying copier: inout RowCopier, row: Int?, make: (inout PageBytes) -> Void) {
        let start = ends.last ?? 0
        if let place = copier.place(row: row) {
            origins.append(~place.lowerBound)
            ends.append(start + place.count)
        } else {
            let madeStart = made.bytes.count
            make(&made)
            origins.append(madeStart)
            ends.append(start + made.bytes.count - madeStart)
        }
        copier.record(at: start..<(ends.last ?? start))
    }

    /// Lets the kept file go when no row was read from it.
    mutating func finish(_ copier: RowCopier) {
        if copier.copied == 0 { kept = nil }
    }

    /// Rows added.
    var count: Int { ends.count }

    /// Calls `body` with the row at `position`.
    func withRow<Result>(_ position: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withBytes(at: origins[position], count: ends[position] - (position == 0 ? 0 : ends[position - 1]), body)
    }

    /// Calls `body` with `count` bytes from `origin` (see `origins`).
    private func withBytes<Result>(
        at origin: Int, count: Int, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        if origin < 0, let kept {
            return body(UnsafeRawBufferPointer(rebasing: kept.bytes[~origin..<(~origin + count)]))
        }
        return made.bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[origin..<(origin + count)])) }
    }

    /// Every row one after the other, handed to `write` in runs (rows that follow each other where they are, in
    /// `made` or in the kept file, go in one piece); returns the bytes written and the error code that stopped it,
    /// if any.
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
}
