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
public struct ExportRows: Sendable, Equatable {
    /// A row's place in its export file.
    struct Span: Sendable, Equatable {
        let offset: UInt64
        let length: UInt32
    }

    /// One export file: its size when written, and each row's span by row key.
    struct File: Sendable, Equatable {
        var size: UInt64
        var spans: [RenderFingerprint: Span]
    }

    /// The table a run's exports made, and how many of their rows were copied rather than made.
    typealias Made = (table: ExportRows, copied: Int)

    /// What the rows were made in (`context(hiding:extraKeys:)`).
    let context: RenderFingerprint
    var files: [SiteExport: File] = [:]

    /// The key of the row of the person at `index` of `directory`: what any export's row shows of them.
    /// Made in `input`, a buffer kept from one person to the next.
    static func rowKey(at index: Int, in directory: SiteDirectory, input: inout FingerprintInput) -> RenderFingerprint {
        let person = directory.people[index]
        input.reset()
        input.add(directory.recordDigest(at: index))
        input.add(person.slug)
        input.add(SiteExports.managerName(of: person, directory))
        return input.fingerprint
    }

    /// What a table must have been made with to be used: the format, orgdir's version and build, the hidden
    /// fields and the extra (`select`) columns, which decide every row's columns and keys.
    static func context(hiding hidden: Set<String>, extraKeys: [String]) -> RenderFingerprint {
        var input = FingerprintInput()
        input.add("orgdir-export-rows/1")
        input.add(OrgDirVersion.current)
        input.add(ExecutableIdentity.current)
        input.add(hidden.sorted().joined(separator: "\n"))
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
    static func write(
        _ exports: [SiteExport], of directory: SiteDirectory, hidden: Set<String>, keepingTable: Bool,
        previous: ExportRows?, published: (SiteExport) -> MappedFile?,
        through write: (SiteExport, SitePieceProducer) throws -> Void
    ) throws -> ExportRows.Made? {
        let extraKeys = extraColumns(directory)
        var table = ExportRows(context: ExportRows.context(hiding: hidden, extraKeys: extraKeys))
        let usable = previous.flatMap { $0.context == table.context ? $0 : nil }
        var writers: [ExportWriter] = []
        // `write` is called from within the pieces of its own call (each file stays open while the next is made):
        // re-entrant, which a non-escaping closure may not be.
        try withoutActuallyEscaping(write) { write in
            func open(_ position: Int) throws {
                guard position < exports.count else {
                    try writeRows(of: directory, keepingTable: keepingTable, into: &writers)
                    return
                }
                let export = exports[position]
                let entry = usable?.files[export]
                let rows = ExportRowCopier(
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
        var copied = 0
        for writer in writers {
            table.files[writer.export] = writer.rows.file
            copied += writer.rows.copied
        }
        return keepingTable ? (table, copied) : nil
    }

    /// Every writer's file, start to finish, in one pass over the people.
    private static func writeRows(
        of directory: SiteDirectory, keepingTable: Bool, into writers: inout [ExportWriter]
    ) throws {
        for position in writers.indices { try writers[position].start() }
        var input = FingerprintInput()
        for index in directory.people.indices {
            let key = keepingTable ? ExportRows.rowKey(at: index, in: directory, input: &input) : nil
            for position in writers.indices { try writers[position].add(index, key: key) }
        }
        for position in writers.indices { try writers[position].finish() }
    }
}

/// The rows of one export while it is written: copies a person's row from the published file when the table
/// has their key, and notes where every row of the new file goes.
struct ExportRowCopier {
    private let previous: [RenderFingerprint: ExportRows.Span]
    /// Mapped, not read: a hundred-thousand-person export is tens of megabytes, of which a nightly run copies
    /// nearly all, once; the pages already copied from are handed back as the copying moves on.
    private let published: MappedFile?
    private(set) var spans: [RenderFingerprint: ExportRows.Span] = [:]
    /// Rows copied from the published file.
    private(set) var copied = 0
    /// The new file's size, once it is written (`finish`).
    private var written = 0
    /// Where the published file's pages were last handed back up to.
    private var releasedUpTo = 0
    /// Bytes copied past `releasedUpTo` before those pages are handed back.
    private let releaseStep: Int

    /// With `keeping`, room for `count` rows' spans (rows come with their keys; without a table they come with
    /// none, and nothing is copied or noted, as in a directory too large to keep the table); `previous` the
    /// published file's entry and `published` its bytes (nil when there is nothing to copy from); the pages
    /// copied from are handed back every `releaseStep` bytes.
    init(
        keeping: Bool, count: Int, previous: ExportRows.File?, published: MappedFile?, releaseStep: Int = 4 << 20
    ) {
        self.releaseStep = releaseStep
        if let previous, let published, UInt64(published.bytes.count) == previous.size {
            self.previous = previous.spans
            self.published = published
        } else {
            self.previous = [:]
            self.published = nil
        }
        if keeping { spans.reserveCapacity(count) }
    }

    /// Appends the published row whose key is `key` to `out` and returns true, when there is one.
    mutating func copy(_ key: RenderFingerprint?, to out: inout [UInt8]) -> Bool {
        guard let published, let key, let span = previous[key] else { return false }
        let start = Int(span.offset)
        let end = start + Int(span.length)
        guard end <= published.bytes.count else { return false }
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: published.bytes[start..<end]))
        // Rows are copied in nearly the order of the file: what lies well behind is done with.
        if end - releasedUpTo >= releaseStep {
            published.release(releasedUpTo..<end)
            releasedUpTo = end
        }
        copied += 1
        return true
    }

    /// Notes the new file's size once everything is written.
    mutating func finish(size: Int) {
        written = size
    }

    /// The new file's entry, once it is finished.
    var file: ExportRows.File {
        ExportRows.File(size: UInt64(written), spans: spans)
    }

    /// Notes that the row whose key is `key` went to `range` of the new file (nothing without a key).
    mutating func record(_ key: RenderFingerprint?, at range: Range<Int>) {
        guard let key else { return }
        spans[key] = ExportRows.Span(offset: UInt64(range.lowerBound), length: UInt32(range.count))
    }
}

extension ExportRows {
    private static let magic = Array("orgdir-export-rows\n".utf8)

    /// The table as bytes: a header line, the context digest, then per export its name, size and rows (key,
    /// offset, length).
    func encode() -> [UInt8] {
        var out = Self.magic
        out.reserveCapacity(64 + files.values.reduce(0) { $0 + $1.spans.count * 28 })
        BinaryRecord.append(context, to: &out)
        BinaryRecord.append(UInt32(files.count), to: &out)
        for (export, file) in files.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            BinaryRecord.append(export.rawValue, to: &out)
            BinaryRecord.append(file.size, to: &out)
            BinaryRecord.append(UInt32(file.spans.count), to: &out)
            for (key, span) in file.spans {
                BinaryRecord.append(key, to: &out)
                BinaryRecord.append(span.offset, to: &out)
                BinaryRecord.append(span.length, to: &out)
            }
        }
        return out
    }

    /// The table in `bytes` when they are whole; nil for anything else. Whether its context is the run's is for
    /// the renderer to judge: it depends on everyone's extra properties.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> ExportRows? {
        var reader = BinaryReader(bytes: bytes)
        guard reader.take(magic.count).elementsEqual(magic), let context = reader.digest(),
            let fileCount: UInt32 = reader.number(), fileCount <= SiteExport.allCases.count
        else { return nil }
        var rows = ExportRows(context: context)
        for _ in 0..<fileCount {
            guard let name = reader.string(), let export = SiteExport(rawValue: name), rows.files[export] == nil,
                let size: UInt64 = reader.number(), let count: UInt32 = reader.number(),
                Int(count) <= reader.remaining / 28
            else { return nil }
            var spans: [RenderFingerprint: Span] = [:]
            spans.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let key = reader.digest(), let offset: UInt64 = reader.number(),
                    let length: UInt32 = reader.number(), offset <= size, UInt64(length) <= size - offset
                else { return nil }
                spans[key] = Span(offset: offset, length: length)
            }
            rows.files[export] = File(size: size, spans: spans)
        }
        guard reader.remaining == 0 else { return nil }
        return rows
    }
}
