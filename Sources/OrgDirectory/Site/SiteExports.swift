import Foundation

/// The whole-directory downloads: CSV for spreadsheets, JSON for scripts, vCard for address books.
///
/// Each export is produced in pieces of about a megabyte handed to `emit`, so a million-person directory
/// never holds a whole export (hundreds of megabytes) in memory.
enum SiteExports {
    /// Bytes gathered before a piece is handed on.
    static let pieceSize = 1 << 20

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

    /// The value of `column` for `person`, nil when absent.
    static func value(of column: Column, _ person: SitePerson, _ directory: SiteDirectory) -> String? {
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
        // As the directory placed it: read from the record, in display order, it was a record in a place of its own
        // for each person, for every export row's key.
        let manager = directory.manager(of: person)
        return manager.named ? manager.displayName(in: directory.people) : nil
    }
}
