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
    static func rowKey(at index: Int, in directory: SiteDirectory) -> RenderFingerprint {
        let person = directory.people[index]
        var input = FingerprintInput()
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
    static func write(
        _ exports: [SiteExport], of directory: SiteDirectory, hidden: Set<String>, keepingTable: Bool,
        previous: ExportRows?, published: (SiteExport) -> Data?,
        through write: (SiteExport, SitePieceProducer) throws -> Void
    ) throws -> ExportRows.Made? {
        let extraKeys = extraColumns(directory)
        let keys = keepingTable ? directory.people.indices.map { ExportRows.rowKey(at: $0, in: directory) } : []
        var table = ExportRows(context: ExportRows.context(hiding: hidden, extraKeys: extraKeys))
        let usable = previous.flatMap { $0.context == table.context ? $0 : nil }
        var copied = 0
        for export in exports {
            let entry = usable?.files[export]
            var rows = ExportRowCopier(keys: keys, previous: entry, published: entry == nil ? nil : published(export))
            try write(export) { emit in
                switch export {
                case .csv: try csv(directory, hidden: hidden, extraKeys: extraKeys, rows: &rows, emit: emit)
                case .json: try json(directory, hidden: hidden, extraKeys: extraKeys, rows: &rows, emit: emit)
                case .vcf: try vcf(directory, rows: &rows, emit: emit)
                }
            }
            table.files[export] = rows.file
            copied += rows.copied
        }
        return keepingTable ? (table, copied) : nil
    }
}

/// The rows of one export while it is written: copies a person's row from the published file when the table
/// has their key, and notes where every row of the new file goes.
struct ExportRowCopier {
    private let keys: [RenderFingerprint]
    private let previous: [RenderFingerprint: ExportRows.Span]
    /// Mapped, not read: a hundred-thousand-person export is tens of megabytes, of which a nightly run copies
    /// nearly all, once.
    private let published: Data
    private(set) var spans: [RenderFingerprint: ExportRows.Span] = [:]
    /// Rows copied from the published file.
    private(set) var copied = 0
    /// The new file's size, once it is written (`finish`).
    private var written = 0

    /// `keys` by position (none: nothing is copied or noted, as in a directory too large to keep the table);
    /// `previous` the published file's entry and `published` its bytes (nil when there is nothing to copy from).
    init(keys: [RenderFingerprint], previous: ExportRows.File?, published: Data?) {
        self.keys = keys
        if let previous, let published, UInt64(published.count) == previous.size {
            self.previous = previous.spans
            self.published = published
        } else {
            self.previous = [:]
            self.published = Data()
        }
        spans.reserveCapacity(keys.count)
    }

    /// Appends the published row of the person at `index` to `out` and returns true, when there is one.
    mutating func copy(_ index: Int, to out: inout [UInt8]) -> Bool {
        guard !previous.isEmpty, !keys.isEmpty, let span = previous[keys[index]] else { return false }
        let start = Int(span.offset)
        let end = start + Int(span.length)
        guard end <= published.count else { return false }
        published.withUnsafeBytes { raw in out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[start..<end])) }
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

    /// Notes that the row of the person at `index` went to `range` of the new file.
    mutating func record(_ index: Int, at range: Range<Int>) {
        guard !keys.isEmpty else { return }
        spans[keys[index]] = ExportRows.Span(offset: UInt64(range.lowerBound), length: UInt32(range.count))
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
    static func decode(_ bytes: [UInt8]) -> ExportRows? {
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
