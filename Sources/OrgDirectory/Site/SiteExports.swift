import Foundation

/// The whole-directory downloads: CSV for spreadsheets, JSON for scripts, vCard for address books.
///
/// Each export is produced in pieces of about a megabyte handed to `emit`, so a million-person directory
/// never holds a whole export (hundreds of megabytes) in memory.
enum SiteExports {
    /// Bytes gathered before a piece is handed on.
    static let pieceSize = 1 << 20

    /// Collects bytes and hands them on in pieces of about `pieceSize`.
    private struct PieceBuffer {
        var bytes: [UInt8] = []
        let emit: ([UInt8]) throws -> Void
        /// Bytes handed on so far.
        private var flushed = 0

        /// Where the next byte goes in the whole file.
        var position: Int { flushed + bytes.count }

        init(emit: @escaping ([UInt8]) throws -> Void) {
            self.emit = emit
            bytes.reserveCapacity(SiteExports.pieceSize + 4_096)
        }

        mutating func append(_ text: String) throws {
            bytes.append(contentsOf: text.utf8)
            try flushIfFull()
        }

        /// Hands the bytes on once they reach a piece; called after each person.
        mutating func flushIfFull() throws {
            if bytes.count >= SiteExports.pieceSize { try flush() }
        }

        mutating func flush() throws {
            guard !bytes.isEmpty else { return }
            try emit(bytes)
            flushed += bytes.count
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Columns of the CSV and keys of the JSON, in order, with the Graph property each comes from.
    static let columns: [(key: String, header: String)] = Column.allCases.map { ($0.rawValue, $0.header) }

    /// A column of the CSV (and key of the JSON), named by its Graph property.
    enum Column: String, CaseIterable {
        case displayName, givenName, surname, jobTitle, department, officeLocation, companyName, mail, businessPhones
        case mobilePhone, userPrincipalName, manager

        var header: String {
            switch self {
            case .displayName: "Name"
            case .givenName: "Given name"
            case .surname: "Surname"
            case .jobTitle: "Job title"
            case .department: "Department"
            case .officeLocation: "Office"
            case .companyName: "Company"
            case .mail: "Mail"
            case .businessPhones: "Business phones"
            case .mobilePhone: "Mobile phone"
            case .userPrincipalName: "User principal name"
            case .manager: "Manager"
            }
        }
    }

    /// `people.csv`: RFC 4180 (CRLF, every field quoted, quotes doubled) with a UTF-8 byte order mark so
    /// spreadsheet programs pick the right encoding; hidden fields have no column. `rows` copies unchanged rows
    /// from the published file and notes where each goes.
    static func csv(
        _ directory: SiteDirectory, hidden: Set<String>, extraKeys: [String], rows: inout ExportRowCopier,
        emit: @escaping ([UInt8]) throws -> Void
    ) throws {
        let visible = Column.allCases.filter { !hidden.contains($0.rawValue) }
        var out = PieceBuffer(emit: emit)
        out.bytes += [0xEF, 0xBB, 0xBF]
        let headers = visible.map(\.header) + extraKeys
        try out.append(headers.map(csvField).joined(separator: ",") + "\r\n")
        for index in directory.people.indices {
            let start = out.position
            defer { rows.record(index, at: start..<out.position) }
            if rows.copy(index, to: &out.bytes) {
                try out.flushIfFull()
                continue
            }
            let person = directory.people[index]
            var first = true
            for column in visible {
                if !first { out.bytes.append(0x2C) }
                first = false
                appendCSVField(value(of: column, person, directory) ?? "", to: &out.bytes)
            }
            for key in extraKeys {
                if !first { out.bytes.append(0x2C) }
                first = false
                appendCSVField(person.user.extra[key] ?? "", to: &out.bytes)
            }
            out.bytes.append(0x0D)
            out.bytes.append(0x0A)
            try out.flushIfFull()
        }
        rows.finish(size: out.position)
        try out.flush()
    }

    /// One CSV field: quoted; a value a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`,
    /// tab or carriage return) is prefixed with `'` so it stays text. Bidi overrides are dropped so a cell
    /// cannot show its text reordered; line breaks stay (quoted fields may hold them).
    static func csvField(_ value: String) -> String {
        var bytes: [UInt8] = []
        appendCSVField(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `csvField(value)`, appended; a value with no quote, no bidi control and no formula start (nearly all) is
    /// copied as it is.
    static func appendCSVField(_ value: String, to bytes: inout [UInt8]) {
        value.withUTF8Bytes { utf8 in
            // Every bidi control starts with E2; most values have no such byte and skip the scalar pass.
            if utf8.contains(0xE2), value.unicodeScalars.contains(where: SiteEscaping.isBidiControl) {
                let kept = String(
                    String.UnicodeScalarView(value.unicodeScalars.filter { !SiteEscaping.isBidiControl($0) }))
                kept.withUTF8Bytes { appendCSVField(utf8: $0, to: &bytes) }
            } else {
                appendCSVField(utf8: utf8, to: &bytes)
            }
        }
    }

    /// `appendCSVField` of a value's UTF-8 bytes, bidi controls already dropped.
    private static func appendCSVField(utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(0x22)
        switch utf8.first {
        case 0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D: bytes.append(0x27)
        default: break
        }
        if utf8.contains(0x22) {
            // Quotes doubled byte by byte: Foundation's replacingOccurrences was a tenth of an export's time.
            for byte in utf8 {
                bytes.append(byte)
                if byte == 0x22 { bytes.append(0x22) }
            }
        } else {
            bytes.append(contentsOf: utf8)
        }
        bytes.append(0x22)
    }

    /// `people.json`: an array of objects with the visible fields (absent ones left out), keys sorted. `rows`
    /// copies unchanged objects from the published file and notes where each goes.
    static func json(
        _ directory: SiteDirectory, hidden: Set<String>, extraKeys: [String], rows: inout ExportRowCopier,
        emit: @escaping ([UInt8]) throws -> Void
    ) throws {
        var out = PieceBuffer(emit: emit)
        out.bytes += Array("[\n".utf8)
        // The keys every object may have, sorted once (the objects used to be sorted one by one): the id, the
        // visible columns, the page and the extra properties, each with its encoded `"key":`.
        var keys: [(key: String, field: JSONField)] = [("id", .id), ("page", .page)]
        keys += Column.allCases.filter { !hidden.contains($0.rawValue) }.map { ($0.rawValue, .column($0)) }
        keys += extraKeys.map { ($0, .extra($0)) }
        keys.sort { $0.key < $1.key }
        let encodedKeys = keys.map { key, _ in
            var bytes: [UInt8] = []
            appendJSONString(key, to: &bytes)
            return bytes + [0x3A]
        }
        for index in directory.people.indices {
            // The separator after an object is not part of its row: the last one has none.
            let separator = index == directory.people.count - 1 ? Self.lastSeparator : Self.separator
            let start = out.position
            if rows.copy(index, to: &out.bytes) {
                rows.record(index, at: start..<out.position)
                out.bytes.append(contentsOf: separator)
                try out.flushIfFull()
                continue
            }
            let person = directory.people[index]
            out.bytes.append(0x7B)
            var first = true
            for (number, key) in keys.enumerated() {
                let value: JSONValue
                switch key.field {
                case .id: value = .text(person.user.id)
                case .page: value = .page(slug: person.slug)
                case .column(.businessPhones):
                    value = .list(person.user.businessPhones)
                case .column(let column):
                    guard let text = self.value(of: column, person, directory) else { continue }
                    value = .text(text)
                case .extra(let name):
                    guard let text = person.user.extra[name] else { continue }
                    value = .text(text)
                }
                if !first { out.bytes.append(0x2C) }
                first = false
                out.bytes += encodedKeys[number]
                switch value {
                case .text(let value):
                    appendJSONString(value, to: &out.bytes)
                case .page(let slug):
                    out.bytes += Self.pagePrefix
                    SiteEscaping.appendJSONString(slug, to: &out.bytes)
                    out.bytes += Self.pageSuffix
                case .list(let values):
                    out.bytes.append(0x5B)
                    for (index, value) in values.enumerated() {
                        if index > 0 { out.bytes.append(0x2C) }
                        appendJSONString(value, to: &out.bytes)
                    }
                    out.bytes.append(0x5D)
                }
            }
            out.bytes.append(0x7D)
            rows.record(index, at: start..<out.position)
            out.bytes.append(contentsOf: separator)
            try out.flushIfFull()
        }
        try out.append("]\n")
        rows.finish(size: out.position)
        try out.flush()
    }

    /// What follows an object of `people.json`: a comma and a line break, or a line break after the last.
    private static let separator: [UInt8] = [0x2C, 0x0A]
    private static let lastSeparator: [UInt8] = [0x0A]

    /// Where a `people.json` key's value comes from.
    private enum JSONField {
        case id, page
        case column(Column)
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

    /// `people.vcf`: every person's card, in display order; `rows` copies unchanged cards from the published file
    /// and notes where each goes.
    static func vcf(
        _ directory: SiteDirectory, rows: inout ExportRowCopier, emit: @escaping ([UInt8]) throws -> Void
    ) throws {
        var out = PieceBuffer(emit: emit)
        for index in directory.people.indices {
            let start = out.position
            if !rows.copy(index, to: &out.bytes) { out.bytes += VCard.cardBytes(for: directory.people[index]) }
            rows.record(index, at: start..<out.position)
            try out.flushIfFull()
        }
        rows.finish(size: out.position)
        try out.flush()
    }

    /// Extra (`select`) property names present on anyone, sorted.
    static func extraColumns(_ directory: SiteDirectory) -> [String] {
        var keys = Set<String>()
        for person in directory.people { keys.formUnion(person.user.extra.keys) }
        return keys.sorted()
    }

    /// The value of `column` for `person`, nil when absent.
    private static func value(of column: Column, _ person: SitePerson, _ directory: SiteDirectory) -> String? {
        switch column {
        case .displayName: return person.user.displayName
        case .givenName: return person.user.givenName
        case .surname: return person.user.surname
        case .jobTitle: return person.user.jobTitle
        case .department: return person.user.department
        case .officeLocation: return person.user.officeLocation
        case .companyName: return person.user.companyName
        case .mail: return person.user.mail
        case .businessPhones:
            return person.user.businessPhones.isEmpty ? nil : person.user.businessPhones.joined(separator: "; ")
        case .mobilePhone: return person.user.mobilePhone
        case .userPrincipalName: return person.user.userPrincipalName.isEmpty ? nil : person.user.userPrincipalName
        case .manager: return managerName(of: person, directory)
        }
    }

    /// The manager's name a row shows: from the record's reference, else from the manager's own record.
    static func managerName(of person: SitePerson, _ directory: SiteDirectory) -> String? {
        guard let manager = person.user.manager else { return nil }
        return manager.displayName ?? directory.positionByID[manager.id].map { directory.people[$0].user.displayName }
    }
}
