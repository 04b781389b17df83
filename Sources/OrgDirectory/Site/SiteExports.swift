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
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Columns of the CSV and keys of the JSON, in order, with the Graph property each comes from.
    static let columns: [(key: String, header: String)] = [
        ("displayName", "Name"), ("givenName", "Given name"), ("surname", "Surname"), ("jobTitle", "Job title"),
        ("department", "Department"), ("officeLocation", "Office"), ("companyName", "Company"), ("mail", "Mail"),
        ("businessPhones", "Business phones"), ("mobilePhone", "Mobile phone"),
        ("userPrincipalName", "User principal name"), ("manager", "Manager"),
    ]

    /// `people.csv`: RFC 4180 (CRLF, every field quoted, quotes doubled) with a UTF-8 byte order mark so
    /// spreadsheet programs pick the right encoding; hidden fields have no column.
    static func csv(
        _ directory: SiteDirectory, hidden: Set<String>, emit: @escaping ([UInt8]) throws -> Void
    ) throws {
        let extraKeys = extraColumns(directory)
        let visible = columns.filter { !hidden.contains($0.key) }
        var out = PieceBuffer(emit: emit)
        out.bytes += [0xEF, 0xBB, 0xBF]
        let headers = visible.map(\.header) + extraKeys
        try out.append(headers.map(csvField).joined(separator: ",") + "\r\n")
        for person in directory.people {
            let values =
                visible.map { value(of: $0.key, person, directory) ?? "" }
                + extraKeys.map { person.user.extra[$0] ?? "" }
            try out.append(values.map(csvField).joined(separator: ",") + "\r\n")
        }
        try out.flush()
    }

    /// One CSV field: quoted; a value a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`,
    /// tab or carriage return) is prefixed with `'` so it stays text. Bidi overrides are dropped so a cell
    /// cannot show its text reordered; line breaks stay (quoted fields may hold them).
    static func csvField(_ value: String) -> String {
        var text = value
        if text.unicodeScalars.contains(where: SiteEscaping.isBidiControl) {
            text = String(String.UnicodeScalarView(text.unicodeScalars.filter { !SiteEscaping.isBidiControl($0) }))
        }
        if let first = text.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) {
            text = "'" + text
        }
        guard text.utf8.contains(0x22) else { return "\"" + text + "\"" }
        // Quotes doubled byte by byte: Foundation's replacingOccurrences was a tenth of an export's time.
        var bytes: [UInt8] = [0x22]
        bytes.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == 0x22 { bytes.append(0x22) }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `people.json`: an array of objects with the visible fields (absent ones left out), keys sorted.
    static func json(
        _ directory: SiteDirectory, hidden: Set<String>, emit: @escaping ([UInt8]) throws -> Void
    ) throws {
        var out = PieceBuffer(emit: emit)
        out.bytes += Array("[\n".utf8)
        var fields: [(key: String, value: JSONValue)] = []
        for (position, person) in directory.people.enumerated() {
            fields.removeAll(keepingCapacity: true)
            fields.append(("id", .text(person.user.id)))
            for column in columns where !hidden.contains(column.key) {
                if column.key == "businessPhones" {
                    fields.append((column.key, .list(person.user.businessPhones)))
                } else if let value = value(of: column.key, person, directory) {
                    fields.append((column.key, .text(value)))
                }
            }
            fields.append(("page", .text("people/\(person.slug).html")))
            for (key, value) in person.user.extra { fields.append((key, .text(value))) }
            fields.sort { $0.key < $1.key }
            out.bytes.append(0x7B)
            for (number, field) in fields.enumerated() {
                if number > 0 { out.bytes.append(0x2C) }
                appendJSONString(field.key, to: &out.bytes)
                out.bytes.append(0x3A)
                switch field.value {
                case .text(let value):
                    appendJSONString(value, to: &out.bytes)
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
            out.bytes.append(contentsOf: position == directory.people.count - 1 ? [0x0A] : [0x2C, 0x0A])
            try out.flushIfFull()
        }
        try out.append("]\n")
        try out.flush()
    }

    /// A field value of `people.json`, encoded straight into the output (no String per field).
    private enum JSONValue {
        case text(String)
        case list([String])
    }

    /// `SiteEscaping.jsonString(value)`, appended.
    private static func appendJSONString(_ value: String, to out: inout [UInt8]) {
        out.append(0x22)
        SiteEscaping.appendJSONString(value, to: &out)
        out.append(0x22)
    }

    /// `people.vcf`: every person's card, in display order.
    static func vcf(_ directory: SiteDirectory, emit: @escaping ([UInt8]) throws -> Void) throws {
        var out = PieceBuffer(emit: emit)
        for person in directory.people {
            out.bytes += VCard.cardBytes(for: person)
            try out.flushIfFull()
        }
        try out.flush()
    }

    /// Extra (`select`) property names present on anyone, sorted.
    private static func extraColumns(_ directory: SiteDirectory) -> [String] {
        var keys = Set<String>()
        for person in directory.people { keys.formUnion(person.user.extra.keys) }
        return keys.sorted()
    }

    private static func value(of key: String, _ person: SitePerson, _ directory: SiteDirectory) -> String? {
        let user = person.user
        switch key {
        case "displayName": return user.displayName
        case "givenName": return user.givenName
        case "surname": return user.surname
        case "jobTitle": return user.jobTitle
        case "department": return user.department
        case "officeLocation": return user.officeLocation
        case "companyName": return user.companyName
        case "mail": return user.mail
        case "businessPhones": return user.businessPhones.isEmpty ? nil : user.businessPhones.joined(separator: "; ")
        case "mobilePhone": return user.mobilePhone
        case "userPrincipalName": return user.userPrincipalName.isEmpty ? nil : user.userPrincipalName
        case "manager":
            guard let manager = user.manager else { return nil }
            return manager.displayName
                ?? directory.positionByID[manager.id].map { directory.people[$0].user.displayName }
        default: return nil
        }
    }
}
