/// One export file while every export is written in the same pass over the people: its format's header, each
/// person's row (copied from the published file when unchanged, see `RowCopier`) and its footer, in pieces
/// of about a megabyte.
///
/// Why one pass: each export reads every person's strings, and a hundred thousand people's strings are far more
/// than the processor's caches hold, so three passes fetched each string from memory three times (the exports
/// were a tenth of a first build's CPU, much of it waiting on those reads).
struct ExportWriter {
    let export: SiteExport
    /// The rows copied and where each went.
    private(set) var rows: RowCopier
    private var out: PieceBuffer<any Error>
    private let directory: SiteDirectory
    private let format: Format

    /// What a format needs to write its rows, worked out once.
    private enum Format {
        /// The visible columns, then the extra (`select`) properties.
        case csv(columns: [SiteExports.Column], extraKeys: [String])
        /// The keys every object may have, sorted, each with its encoded `"key":`.
        case json(keys: [(field: JSONField, encoded: [UInt8])])
        case vcf
    }

    /// A writer of `export` for `directory` with fields `hidden` and the extra properties `extraKeys`, handing its
    /// pieces to `emit`.
    init(
        _ export: SiteExport, of directory: SiteDirectory, hidden: Set<String>, extraKeys: [String],
        rows: RowCopier, emit: @escaping ([UInt8]) throws -> Void
    ) {
        self.export = export
        self.rows = rows
        self.directory = directory
        out = PieceBuffer(pieceSize: SiteExports.pieceSize, emit: emit)
        let visible = SiteExports.Column.allCases.filter { !hidden.contains($0.rawValue) }
        switch export {
        case .csv:
            format = .csv(columns: visible, extraKeys: extraKeys)
        case .json:
            // Sorted once (the objects used to be sorted one by one): the id, the visible columns, the page and the
            // extra properties.
            var keys: [(key: String, field: JSONField)] = [("id", .id), ("page", .page)]
            keys += visible.map { ($0.rawValue, .column($0)) }
            keys += extraKeys.map { ($0, .extra($0)) }
            keys.sort { $0.key < $1.key }
            format = .json(
                keys: keys.map { key, field in
                    var bytes: [UInt8] = []
                    Self.appendJSONString(key, to: &bytes)
                    return (field, bytes + [0x3A])
                })
        case .vcf:
            format = .vcf
        }
    }

    /// The file's start: for `people.csv` a UTF-8 byte order mark (so spreadsheet programs pick the right
    /// encoding) and the header line; for `people.json` the array's opening.
    mutating func start() throws {
        switch format {
        case .csv(let columns, let extraKeys):
            out.bytes += [0xEF, 0xBB, 0xBF]
            let headers = columns.map(\.header) + extraKeys
            try out.append(headers.map(SiteExports.csvField).joined(separator: ",") + "\r\n")
        case .json:
            out.bytes += Array("[\n".utf8)
        case .vcf:
            break
        }
    }

    /// The row of the person at `index`, copied from the published file's row number `previousRow` when given.
    mutating func add(_ index: Int, copying previousRow: Int?) throws {
        let start = out.position
        if !rows.copy(row: previousRow, to: &out.bytes) {
            let person = directory.people[index]
            switch format {
            case .csv(let columns, let extraKeys): appendCSVRow(person, columns: columns, extraKeys: extraKeys)
            case .json(let keys): appendJSONObject(person, keys: keys)
            case .vcf: VCard.appendCard(for: person, to: &out.bytes)
            }
        }
        rows.record(at: start..<out.position)
        if case .json = format {
            // The separator after an object is not part of its row: the last one has none.
            out.bytes += index == directory.people.count - 1 ? Self.lastSeparator : Self.separator
        }
        try out.flushIfFull()
    }

    /// The file's end (`people.json`'s closing bracket), its size noted for the table, and the last piece.
    mutating func finish() throws {
        if case .json = format { try out.append("]\n") }
        rows.finish(size: out.position)
        try out.flush()
    }

    /// `people.csv`'s row: RFC 4180 (CRLF, every field quoted, quotes doubled); hidden fields have no column.
    private mutating func appendCSVRow(_ person: SitePerson, columns: [SiteExports.Column], extraKeys: [String]) {
        var first = true
        for column in columns {
            if !first { out.bytes.append(0x2C) }
            first = false
            SiteExports.appendCSVField(SiteExports.value(of: column, person, directory) ?? "", to: &out.bytes)
        }
        for key in extraKeys {
            if !first { out.bytes.append(0x2C) }
            first = false
            SiteExports.appendCSVField(person.user.extra[key] ?? "", to: &out.bytes)
        }
        out.bytes.append(0x0D)
        out.bytes.append(0x0A)
    }

    /// `people.json`'s object: the visible fields, absent ones left out, keys sorted.
    private mutating func appendJSONObject(
        _ person: SitePerson, keys: [(field: JSONField, encoded: [UInt8])]
    ) {
        out.bytes.append(0x7B)
        var first = true
        for key in keys {
            let value: JSONValue
            switch key.field {
            case .id: value = .text(person.user.id)
            case .page: value = .page(slug: person.slug)
            case .column(.businessPhones): value = .list(person.user.businessPhones)
            case .column(let column):
                guard let text = SiteExports.value(of: column, person, directory) else { continue }
                value = .text(text)
            case .extra(let name):
                guard let text = person.user.extra[name] else { continue }
                value = .text(text)
            }
            if !first { out.bytes.append(0x2C) }
            first = false
            out.bytes += key.encoded
            switch value {
            case .text(let value):
                Self.appendJSONString(value, to: &out.bytes)
            case .page(let slug):
                out.bytes += Self.pagePrefix
                SiteEscaping.appendJSONString(slug, to: &out.bytes)
                out.bytes += Self.pageSuffix
            case .list(let values):
                out.bytes.append(0x5B)
                for (index, value) in values.enumerated() {
                    if index > 0 { out.bytes.append(0x2C) }
                    Self.appendJSONString(value, to: &out.bytes)
                }
                out.bytes.append(0x5D)
            }
        }
        out.bytes.append(0x7D)
    }

    /// What follows an object of `people.json`: a comma and a line break, or a line break after the last.
    private static let separator: [UInt8] = [0x2C, 0x0A]
    private static let lastSeparator: [UInt8] = [0x0A]

    /// Where a `people.json` key's value comes from.
    private enum JSONField {
        case id, page
        case column(SiteExports.Column)
        case extra(String)
    }

    /// A field value of `people.json`, encoded straight into the output (no String per field).
    private enum JSONValue {
        case text(String)
        case list([String])
        /// `"people/<slug>.html"`, appended in parts (no String made per person).
        case page(slug: String)
    }

    /// The parts of a `page` value around the slug: `"people/` and `.html"`.
    private static let pagePrefix = Array("\"people/".utf8)
    private static let pageSuffix = Array(".html\"".utf8)

    /// `SiteEscaping.jsonString(value)`, appended.
    private static func appendJSONString(_ value: String, to out: inout [UInt8]) {
        out.append(0x22)
        SiteEscaping.appendJSONString(value, to: &out)
        out.append(0x22)
    }
}
