import Foundation

/// Where each person's row sits in the published exports (`people.csv`, `.json`, `.vcf`), so the next run copies
/// the rows of people whose row inputs are unchanged from the published files instead of making them again.
///
/// Making every row of three exports was about a fifth of a nightly run's work at 100,000 people, for the one
/// percent whose rows changed. A row is found by its key (`rowKey`): the person's record digest, slug and
/// manager's name, everything a row of any export shows. What every row depends on (the format, orgdir's build, the
/// hidden fields and the extra columns) is the `context`; a table made in another context is not used. Each
/// export's entry records the size of the file it describes: a published file of another size (replaced, cut
/// short) is not copied from.
///
/// Every export has the same rows in the same order, so the keys are kept once, in row order, and each file's
/// spans in that order beside them: a run looks each person's key up once, in one map of row numbers, where
/// a map of spans per export (three of 100,000 entries, filled and read three times) was most of the table's
/// cost.
///
/// The list pages' rows are made per person in the same order, from a subset of what a row key covers, but no
/// published file holds them one after the other: the run keeps them in the state folder (`KeptRowFiles`), and the
/// table describes that file too (`kept`), tied to it by `stamp`.
public struct ExportRows: Sendable, Equatable {
    /// A row's place in its export file.
    struct Span: Sendable, Equatable {
        let offset: UInt64
        let length: UInt32
    }

    /// One export file: its size when written, and each row's span, in row order (`keys`).
    struct File: Sendable, Equatable {
        var size: UInt64
        var spans: [Span]
    }

    /// The table a run's exports made, and how many of their rows were copied rather than made.
    typealias Made = (table: ExportRows, copied: Int)

    /// What the rows were made in (`context(hiding:extraKeys:)`).
    let context: RenderFingerprint
    /// Each row's key, in the order of the rows (the same in every export).
    var keys: [RenderFingerprint] = []
    var files: [SiteExport: File] = [:]
    /// The rows kept in the state folder (`KeptRowFiles`), each file's spans in row order; a kind is here only when
    /// its file was written whole.
    var kept: [KeptRowKind: File] = [:]
    /// What the kept files must carry to be read with this table (`RowMatch.stamp`).
    var stamp = RenderFingerprint(high: 0, low: 0)

    /// The key of the row of the person at `index` of `directory`: what any export's row shows of them, which is
    /// their record (after hiding), their page's slug and their manager's name. Made in `input`, a buffer kept from
    /// one person to the next.
    ///
    /// Only what the record's digest does not cover is added: the slug when a collision lengthened it
    /// (`SiteDirectory.hasLengthenedSlug`: an ordinary slug follows from the record), and the manager's
    /// own name when the record's reference has none (a reference's name is part of the record). Why: the slug and
    /// the reference's name read for everyone were the first touch of two strings a person, in a place of their own
    /// each, 16 of a nightly's 28 samples of row keys (`swift_retain`, `PROFILE_CALL_GRAPH=dwarf
    /// Benchmarks/profile-nightly.sh`), on the stretch before the render starts.
    static func rowKey(at index: Int, in directory: SiteDirectory, input: inout FingerprintInput) -> RenderFingerprint {
        let person = directory.people[index]
        input.reset()
        input.add(directory.recordDigest(at: index))
        if directory.hasLengthenedSlug(at: index) {
            input.add(true)
            input.add(person.slug)
        } else {
            input.add(false)
        }
        if let name = directory.managerNameOutsideRecord(of: person) {
            input.add(true)
            input.add(name)
        } else {
            input.add(false)
        }
        return input.fingerprint
    }

    /// What a table must have been made with to be used: the format, orgdir's version and build, the hidden
    /// fields and the extra (`select`) columns, which decide every row's columns and keys.
    static func context(hiding hidden: Set<String>, extraKeys: [String]) -> RenderFingerprint {
        var input = FingerprintInput.stateCache("orgdir-export-rows/4", hiding: hidden)
        input.add(extraKeys.count)
        for key in extraKeys { input.add(key) }
        return input.fingerprint
    }
}

extension SiteExports {
    /// Writes `exports` of `directory` through `write`, one file each: the one place exports are made. Rows of
    /// people whose row is unchanged since `previous` (used only when made in the same context) are copied from
    /// `published(export)`, the bytes of the export that table describes. With `keepingTable`, returns the new
    /// table and how many rows were copied.
    ///
    /// The files are open at once, each inside the one before (`write` is called again from within the pieces of
    /// the one before), so one pass over the people writes every export's row of each (`ExportWriter`).
    ///
    /// `match` is everyone's row key and previous row, made once for every kind of row (`RowMatch.make`); without
    /// it, and with `keepingTable`, the exports make it themselves.
    static func write(
        _ exports: [SiteExport], of directory: SiteDirectory, hidden: Set<String>, keepingTable: Bool,
        previous: ExportRows?, match: RowMatch? = nil, published: (SiteExport) -> MappedFile?,
        through write: (SiteExport, SitePieceProducer) throws -> Void
    ) throws -> ExportRows.Made? {
        let match =
            keepingTable ? match ?? RowMatch.make(directory, previous: previous, hiding: hidden, parallel: false) : nil
        let extraKeys = match?.extraKeys ?? directory.extraColumns
        var table = ExportRows(context: match?.context ?? ExportRows.context(hiding: hidden, extraKeys: extraKeys))
        let usable = match?.copiesRows == true ? previous : nil
        var writers: [ExportWriter] = []
        // `write` is called from within the pieces of its own call (each file stays open while the next is made):
        // re-entrant, which a non-escaping closure may not be.
        try withoutActuallyEscaping(write) { write in
            func open(_ position: Int) throws {
                guard position < exports.count else {
                    try writeRows(of: directory, match: match, into: &writers)
                    return
                }
                let export = exports[position]
                let entry = usable?.files[export]
                let rows = RowCopier(
                    keeping: keepingTable, count: directory.people.count, previous: entry,
                    published: entry == nil ? nil : published(export))
                try write(export) { emit in
                    writers.append(
                        ExportWriter(
                            export, of: directory, hidden: hidden, extraKeys: extraKeys, rows: rows, emit: emit))
                    try open(position + 1)
                }
            }
            try open(0)
        }
        guard let match else { return nil }
        table.keys = match.keys
        table.stamp = match.stamp
        var copied = 0
        for writer in writers {
            table.files[writer.export] = writer.rows.file
            copied += writer.rows.copied
        }
        return (table, copied)
    }

    /// Every writer's file, start to finish, in one pass over the people. A person's row is copied from the previous
    /// files' row `match` gives them.
    private static func writeRows(
        of directory: SiteDirectory, match: RowMatch?, into writers: inout [ExportWriter]
    ) throws {
        for position in writers.indices { try writers[position].start() }
        for index in directory.people.indices {
            let previousRow = match?.previousRow(at: index)
            for position in writers.indices { try writers[position].add(index, copying: previousRow) }
        }
        for position in writers.indices { try writers[position].finish() }
    }
}

/// A table's row number by key, read from every core at once: open addressing over the key's own bits (a key is a
/// digest, spread evenly already), where a dictionary hashed each of a hundred thousand keys again, on one core
/// while the other waited.
struct RowNumbers: Sendable {
    /// Row numbers by slot, -1 for an empty slot; a key's first slot is its low bits.
    private let slots: [Int32]
    private let keys: [RenderFingerprint]
    private let mask: Int

    /// The rows of `keys` (at most `Int32.max`); should a key come twice, its first row serves (keys are unique:
    /// each holds the person's id).
    init(_ keys: [RenderFingerprint]) {
        var capacity = 16
        while capacity < keys.count * 2 { capacity <<= 1 }
        var slots = [Int32](repeating: -1, count: capacity)
        let mask = capacity - 1
        for (row, key) in keys.enumerated() {
            var slot = Int(truncatingIfNeeded: key.low) & mask
            while slots[slot] >= 0, keys[Int(slots[slot])] != key { slot = (slot + 1) & mask }
            if slots[slot] < 0 { slots[slot] = Int32(truncatingIfNeeded: row) }
        }
        (self.slots, self.keys, self.mask) = (slots, keys, mask)
    }

    /// The row of `key`, nil when the table has none.
    subscript(key: RenderFingerprint) -> Int? {
        var slot = Int(truncatingIfNeeded: key.low) & mask
        while true {
            let row = slots[slot]
            if row < 0 { return nil }
            if keys[Int(row)] == key { return Int(row) }
            slot = (slot + 1) & mask
        }
    }
}

/// Every person's row key and the row the run before's table has for that key, made once before the render's tasks
/// start: the exports and the list rows copy by it.
struct RowMatch: Sendable {
    /// One person's row key and their row in the run before's table (the same key), -1 when it has none.
    struct Row: Sendable {
        let key: RenderFingerprint
        let previous: Int32
    }

    /// Everyone's, in display order.
    private let rows: [Row]
    /// Whether the run before's table was made in this run's context: otherwise nothing is copied.
    let copiesRows: Bool
    /// The extra (`select`) columns and the context the keys were made in (`ExportRows.context`).
    let extraKeys: [String]
    let context: RenderFingerprint
    /// What ties the kept files this run writes to its table: a digest of the context and every key, which decide
    /// every kept row's bytes, so a kept file whose stamp is the table's holds the rows the table describes.
    let stamp: RenderFingerprint

    /// Each person's row key, in display order: the new table's keys.
    var keys: [RenderFingerprint] { rows.map(\.key) }

    /// The run before's row for the person at `index`, nil when there is none to copy.
    func previousRow(at index: Int) -> Int? {
        guard index < rows.count else { return nil }
        let row = rows[index].previous
        return row < 0 ? nil : Int(row)
    }

    /// The match of `directory`'s people, with the fields `hidden`, with `previous` (used only when made in the same
    /// context). With `parallel`, the keys are made and looked up on every core (`ParallelArray`: not from within
    /// other parallel work).
    static func make(
        _ directory: SiteDirectory, previous: ExportRows?, hiding hidden: Set<String>, parallel: Bool = true
    ) -> RowMatch {
        let extraKeys = directory.extraColumns
        let context = ExportRows.context(hiding: hidden, extraKeys: extraKeys)
        let count = directory.people.count
        let numbers = previous.flatMap { $0.context == context ? RowNumbers($0.keys) : nil }
        @Sendable func fill(_ range: Range<Int>, into slots: UnsafeMutableBufferPointer<Row>) {
            var input = FingerprintInput()
            for (slot, index) in range.enumerated() {
                // Each key is a digest of a few hundred bytes: a hundred thousand of them were a third of the
                // exports' task (68 of 212 samples in a nightly profile).
                let key = ExportRows.rowKey(at: index, in: directory, input: &input)
                let row = numbers?[key].map { Int32(truncatingIfNeeded: $0) } ?? -1
                slots.initializeElement(at: slot, to: Row(key: key, previous: row))
            }
        }
        let ranges = ParallelArray.ranges(count: count, chunks: 8)
        let made =
            parallel
            ? ParallelArray.make(count: count, ranges: ranges) { chunk, slots in
                fill(ranges[chunk], into: slots)
                return (ranges[chunk].count, true)
            } : nil
        // One core: the exports' own match (tests, and callers already inside parallel work).
        let rows =
            made
            ?? [Row](unsafeUninitializedCapacity: count) { slots, initialized in
                fill(0..<count, into: slots)
                initialized = count
            }
        var input = FingerprintInput()
        input.add("orgdir-kept-rows")
        input.add(context)
        input.add(count)
        for row in rows { input.add(row.key) }
        return RowMatch(
            rows: rows, copiesRows: numbers != nil, extraKeys: extraKeys, context: context, stamp: input.fingerprint)
    }
}

/// The rows of one file while it is written (an export, or the kept list rows): copies a person's
/// row from the published or kept file when the table has their key, and notes where every row of the new file
/// goes.
struct RowCopier {
    /// The published file's rows, in the previous table's row order.
    private let previous: [ExportRows.Span]
    /// Mapped, not read: a hundred-thousand-person export is tens of megabytes, of which a nightly run copies
    /// nearly all, once; the pages already copied from are handed back as the copying moves on.
    private let published: MappedFile?
    private(set) var spans: [ExportRows.Span] = []
    /// Whether rows are noted (a table is kept).
    private let keeping: Bool
    /// Rows copied from the published file.
    private(set) var copied = 0
    /// The new file's size, once it is written (`finish`).
    private var written = 0
    /// Where the rows' bytes start in `published` (a kept file's header comes first).
    private let base: Int
    /// Where the published file's pages were last handed back up to.
    private var releasedUpTo = 0
    /// Where the row copied last ends.
    private var lastEnd = 0
    /// Bytes copied past `releasedUpTo` before those pages are handed back.
    private let releaseStep: Int

    /// A copier with nothing to copy that notes nothing: rows made where no table is kept.
    static var copyingNothing: RowCopier {
        RowCopier(keeping: false, count: 0, previous: nil, published: nil)
    }

    /// With `keeping`, room for `count` rows' spans (rows come with their keys; without a table they come with
    /// none, and nothing is copied or noted, as in a directory too large to keep the table); `previous` the
    /// published file's entry and `published` its bytes (nil when there is nothing to copy from); the pages
    /// copied from are handed back every `releaseStep` bytes.
    /// `published` starts with `base` bytes that are not rows (a kept file's header).
    init(
        keeping: Bool, count: Int, previous: ExportRows.File?, published: MappedFile?, base: Int = 0,
        releaseStep: Int = 4 << 20
    ) {
        self.releaseStep = releaseStep
        self.keeping = keeping
        self.base = base
        if let previous, let published, published.bytes.count >= base,
            UInt64(published.bytes.count - base) == previous.size
        {
            self.previous = previous.spans
            self.published = published
        } else {
            self.previous = []
            self.published = nil
        }
        if keeping { spans.reserveCapacity(count) }
    }

    /// Appends the published file's row number `row` to `out` and returns true, when there is one.
    mutating func copy(row: Int?, to out: inout [UInt8]) -> Bool {
        guard let bytes = take(row: row) else { return false }
        out.append(contentsOf: bytes)
        return true
    }

    /// The published file's row number `row`, counted as copied, when there is one: valid until the next call
    /// (the pages behind it may be handed back then).
    mutating func take(row: Int?) -> UnsafeRawBufferPointer? {
        guard let published, let place = place(row: row) else { return nil }
        // The pages up to the row copied last are done with: rows are copied in nearly the order of the file.
        if lastEnd - releasedUpTo >= releaseStep {
            published.release(releasedUpTo..<lastEnd)
            releasedUpTo = lastEnd
        }
        lastEnd = place.upperBound
        return UnsafeRawBufferPointer(rebasing: published.bytes[place])
    }

    /// The run before's file the rows are copied from, when there is one (see `place(row:)`).
    var source: MappedFile? { published }

    /// Where the published file's row number `row` is in `source`, counted as copied, when there is one. Unlike
    /// `take(row:)`, no page is handed back: the caller reads the row where it is, later and more than once.
    mutating func place(row: Int?) -> Range<Int>? {
        guard let published, let row, previous.indices.contains(row) else { return nil }
        let span = previous[row]
        let start = base + Int(span.offset)
        let end = start + Int(span.length)
        guard end <= published.bytes.count else { return nil }
        copied += 1
        return start..<end
    }

    /// Notes the new file's size once everything is written.
    mutating func finish(size: Int) {
        written = size
    }

    /// The new file's entry, once it is finished.
    var file: ExportRows.File {
        ExportRows.File(size: UInt64(written), spans: spans)
    }

    /// Notes that the next row went to `range` of the new file (nothing when no table is kept).
    mutating func record(at range: Range<Int>) {
        guard keeping else { return }
        spans.append(ExportRows.Span(offset: UInt64(range.lowerBound), length: UInt32(range.count)))
    }
}

extension ExportRows {
    private static let magic = Array("orgdir-export-rows/4\n".utf8)
    private static let keySize = 16
    private static let spanSize = 12

    /// The table as bytes, written through `out` (`StateCacheFile.replace(encodingInPieces:)`): a header line, the
    /// context digest, the rows' keys, then per export its name, size and each row's span (offset, length), in row
    /// order.
    func encode<Failure: Error>(into out: inout PieceBuffer<Failure>) throws(Failure) {
        out.bytes.append(contentsOf: Self.magic)
        BinaryRecord.append(context, to: &out.bytes)
        BinaryRecord.append(UInt32(keys.count), to: &out.bytes)
        for key in keys {
            BinaryRecord.append(key, to: &out.bytes)
            try out.flushIfFull()
        }
        BinaryRecord.append(UInt32(files.count), to: &out.bytes)
        for (export, file) in files.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            BinaryRecord.append(export.rawValue, to: &out.bytes)
            BinaryRecord.append(file.size, to: &out.bytes)
            try Self.append(file, to: &out)
        }
        BinaryRecord.append(stamp, to: &out.bytes)
        BinaryRecord.append(UInt32(kept.count), to: &out.bytes)
        for (kind, file) in kept.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            BinaryRecord.append(kind.rawValue, to: &out.bytes)
            BinaryRecord.append(file.size, to: &out.bytes)
            try Self.append(file, to: &out)
        }
    }

    /// A file's spans, in row order.
    private static func append<Failure: Error>(_ file: File, to out: inout PieceBuffer<Failure>) throws(Failure) {
        for span in file.spans {
            BinaryRecord.append(span.offset, to: &out.bytes)
            BinaryRecord.append(span.length, to: &out.bytes)
            try out.flushIfFull()
        }
    }

    /// The spans of `count` rows of a file of `size` bytes, nil when any is damaged or points past the file.
    private static func spans(_ count: UInt32, size: UInt64, from reader: inout BinaryReader) -> [Span]? {
        guard Int(count) <= reader.remaining / spanSize else { return nil }
        var spans: [Span] = []
        spans.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let offset: UInt64 = reader.number(), let length: UInt32 = reader.number(), offset <= size,
                UInt64(length) <= size - offset
            else { return nil }
            spans.append(Span(offset: offset, length: length))
        }
        return spans
    }

    /// The table in `bytes` when they are whole; nil for anything else. Whether its context is the run's is for
    /// the renderer to judge: it depends on everyone's extra properties.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> ExportRows? {
        var reader = BinaryReader(bytes: bytes)
        guard reader.take(magic.count).elementsEqual(magic), let context = reader.digest(),
            let count: UInt32 = reader.number(), Int(count) <= reader.remaining / keySize
        else { return nil }
        var rows = ExportRows(context: context)
        rows.keys.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let key = reader.digest() else { return nil }
            rows.keys.append(key)
        }
        guard let fileCount: UInt32 = reader.number(), fileCount <= SiteExport.allCases.count else { return nil }
        for _ in 0..<fileCount {
            guard let name = reader.string(), let export = SiteExport(rawValue: name), rows.files[export] == nil,
                let size: UInt64 = reader.number(), let spans = spans(count, size: size, from: &reader)
            else { return nil }
            rows.files[export] = File(size: size, spans: spans)
        }
        guard let stamp = reader.digest(), let keptCount: UInt32 = reader.number(),
            keptCount <= KeptRowKind.allCases.count
        else { return nil }
        rows.stamp = stamp
        for _ in 0..<keptCount {
            guard let name = reader.string(), let kind = KeptRowKind(rawValue: name), rows.kept[kind] == nil,
                let size: UInt64 = reader.number(), let spans = spans(count, size: size, from: &reader)
            else { return nil }
            rows.kept[kind] = File(size: size, spans: spans)
        }
        guard reader.remaining == 0 else { return nil }
        return rows
    }
}
