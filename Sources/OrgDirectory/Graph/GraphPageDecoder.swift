import Foundation

/// Reads a Graph users page straight from its bytes into `GraphUsersPage`, with exactly the values the
/// `Decodable` path gives.
///
/// Why: Foundation's `JSONDecoder` builds a whole JSON map and goes through keyed containers and dynamic casts
/// for every property; at 100,000 people it was the largest single cost of a full sync (about 25 ms per
/// 999-user page). This reader handles the shapes Graph sends and nothing else: anything it is not certain to
/// read the way `JSONDecoder` would (a type it does not expect, a duplicate key, a number in an unusual form,
/// malformed JSON, invalid UTF-8, a lone surrogate) makes it give up, and the caller decodes the page with
/// `JSONDecoder` as before, so error messages and edge cases stay those of the `Decodable` path.
struct GraphPageDecoder {
    /// The page, or nil when the fast path does not apply (decode with `JSONDecoder` then).
    static func page(from data: Data) -> GraphUsersPage? {
        data.withUnsafeBytes { raw -> GraphUsersPage? in
            var reader = GraphPageDecoder(bytes: raw.bindMemory(to: UInt8.self))
            return try? reader.readPage()
        }
    }

    /// The fast path does not apply; never shown to anyone.
    struct GiveUp: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Objects and arrays open around the reader: a hostile body nested thousands deep must not exhaust the stack
    /// (Graph's own pages are four deep).
    private var depth = 0
    private static let maximumDepth = 64

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private static let modelKeys = Set(GraphUserProperties.modelProperties + ["manager"])

    // MARK: - Page and user

    private mutating func readPage() throws(GiveUp) -> GraphUsersPage {
        var users: [GraphUser]?
        var nextLink: String?
        var count: Int?
        var deltaLink: String?
        var seen = Set<String>()
        try readObject { (reader: inout GraphPageDecoder, key: String) throws(GiveUp) in
            guard seen.insert(key).inserted else { throw GiveUp() }
            switch key {
            case "value": users = try reader.readUsers()
            case "@odata.nextLink": nextLink = try reader.readOptionalString()
            case "@odata.deltaLink": deltaLink = try reader.readOptionalString()
            case "@odata.count": count = try reader.readOptionalInt()
            default: try reader.skipValue()
            }
        }
        skipWhitespace()
        guard index == bytes.count, let users else { throw GiveUp() }
        return GraphUsersPage(value: users, nextLink: nextLink, count: count, deltaLink: deltaLink)
    }

    private mutating func readUsers() throws(GiveUp) -> [GraphUser] {
        var users: [GraphUser] = []
        try readArray { (reader: inout GraphPageDecoder) throws(GiveUp) in
            users.append(try reader.readUser())
        }
        return users
    }

    private mutating func readUser() throws(GiveUp) -> GraphUser {
        var user = GraphUser()
        var managerDelta: [GraphManager]?
        try readObject { (reader: inout GraphPageDecoder, key: String) throws(GiveUp) in
            guard let known = GraphUserKey(name: key) else {
                guard user.otherSentKeys.insert(key).inserted else { throw GiveUp() }
                if key.utf8.contains(UInt8(ascii: "@")) || Self.modelKeys.contains(key) {
                    try reader.skipValue()
                } else if let text = try reader.readDisplayText() {
                    user.extra[key] = text
                }
                return
            }
            guard user.knownSentKeys.insert(known) else { throw GiveUp() }
            switch known {
            case .id: user.id = try reader.readOptionalString()
            case .userPrincipalName: user.userPrincipalName = try reader.readOptionalString()
            case .displayName: user.displayName = try reader.readOptionalString()
            case .givenName: user.givenName = try reader.readOptionalString()
            case .surname: user.surname = try reader.readOptionalString()
            case .mail: user.mail = try reader.readOptionalString()
            case .businessPhones: user.businessPhones = try reader.readOptionalStrings()
            case .mobilePhone: user.mobilePhone = try reader.readOptionalString()
            case .jobTitle: user.jobTitle = try reader.readOptionalString()
            case .department: user.department = try reader.readOptionalString()
            case .officeLocation: user.officeLocation = try reader.readOptionalString()
            case .companyName: user.companyName = try reader.readOptionalString()
            case .accountEnabled: user.accountEnabled = try reader.readOptionalBool()
            case .userType: user.userType = try reader.readOptionalString()
            case .employeeId: user.employeeId = try reader.readOptionalString()
            case .preferredLanguage: user.preferredLanguage = try reader.readOptionalString()
            case .manager: user.manager = try reader.readOptionalManager()
            case .managerDelta: managerDelta = try reader.readManagers()
            }
        }
        user.removed = user.otherSentKeys.contains("@removed")
        if let managerDelta {
            user.managerDelta = true
            user.manager = managerDelta.first { $0.id != nil && !$0.removed }
        }
        return user
    }

    /// An expanded `manager`: null, or an object whose `id` and `displayName` are strings or null.
    private mutating func readOptionalManager() throws(GiveUp) -> GraphManager? {
        if try readNull() { return nil }
        var manager = GraphManager()
        var seen = Set<String>()
        try readObject { (reader: inout GraphPageDecoder, key: String) throws(GiveUp) in
            guard seen.insert(key).inserted else { throw GiveUp() }
            switch key {
            case "id": manager.id = try reader.readOptionalString()
            case "displayName": manager.displayName = try reader.readOptionalString()
            case "@removed":
                manager.removed = true
                try reader.skipValue()
            default: try reader.skipValue()
            }
        }
        return manager
    }

    /// `manager@delta`: an array of manager objects.
    private mutating func readManagers() throws(GiveUp) -> [GraphManager] {
        var managers: [GraphManager] = []
        try readArray { (reader: inout GraphPageDecoder) throws(GiveUp) in
            guard let manager = try reader.readOptionalManager() else { throw GiveUp() }
            managers.append(manager)
        }
        return managers
    }

    /// A property outside the model as display text (what `JSONScalar` makes of it): strings as they are,
    /// booleans and integers as written, arrays joined with ", ", null and objects as nil.
    private mutating func readDisplayText() throws(GiveUp) -> String? {
        skipWhitespace()
        guard index < bytes.count else { throw GiveUp() }
        switch bytes[index] {
        case UInt8(ascii: "\""): return try readString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return try readBool() ? "true" : "false"
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return nil
        case UInt8(ascii: "{"):
            try skipValue()
            return nil
        case UInt8(ascii: "["):
            var parts: [String] = []
            try readArray { (reader: inout GraphPageDecoder) throws(GiveUp) in
                if let part = try reader.readDisplayText() { parts.append(part) }
            }
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        default: return String(try readPlainInt())
        }
    }

    // MARK: - Typed values

    private mutating func readOptionalString() throws(GiveUp) -> String? {
        if try readNull() { return nil }
        return try readString()
    }

    private mutating func readOptionalStrings() throws(GiveUp) -> [String?]? {
        if try readNull() { return nil }
        var values: [String?] = []
        try readArray { (reader: inout GraphPageDecoder) throws(GiveUp) in
            values.append(try reader.readOptionalString())
        }
        return values
    }

    private mutating func readOptionalBool() throws(GiveUp) -> Bool? {
        if try readNull() { return nil }
        return try readBool()
    }

    private mutating func readOptionalInt() throws(GiveUp) -> Int? {
        if try readNull() { return nil }
        return try readPlainInt()
    }

    private mutating func readBool() throws(GiveUp) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw GiveUp() }
        if bytes[index] == UInt8(ascii: "t") {
            try readLiteral("true")
            return true
        }
        try readLiteral("false")
        return false
    }

    /// True (and consumed) when the next value is `null`.
    private mutating func readNull() throws(GiveUp) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw GiveUp() }
        guard bytes[index] == UInt8(ascii: "n") else { return false }
        try readLiteral("null")
        return true
    }

    /// An integer written plainly (`0`, or an optional `-` and up to 18 digits without a leading zero); any other
    /// number form gives up, as `JSONDecoder`'s handling of it is not worth guessing.
    private mutating func readPlainInt() throws(GiveUp) -> Int {
        skipWhitespace()
        let start = index
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var value = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value = value * 10 + Int(bytes[index] - 0x30)
            digits += 1
            index += 1
        }
        let leadingZero = digits > 1 && bytes[start + (negative ? 1 : 0)] == 0x30
        guard digits > 0, digits <= 18, !leadingZero, !(negative && value == 0) else { throw GiveUp() }
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            throw GiveUp()
        }
        return negative ? -value : value
    }

    // MARK: - Structure

    /// Reads `{ "key": value, … }`, handing each key to `member`, which must read its value.
    private mutating func readObject(
        _ member: (inout GraphPageDecoder, String) throws(GiveUp) -> Void
    ) throws(GiveUp) {
        try expect(UInt8(ascii: "{"))
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw GiveUp() }
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            let key = try readString()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            skipWhitespace()
            guard index < bytes.count else { throw GiveUp() }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "}") { return }
            guard separator == UInt8(ascii: ",") else { throw GiveUp() }
        }
    }

    /// Reads `[ value, … ]`, calling `element` to read each value.
    private mutating func readArray(_ element: (inout GraphPageDecoder) throws(GiveUp) -> Void) throws(GiveUp) {
        try expect(UInt8(ascii: "["))
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw GiveUp() }
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try element(&self)
            skipWhitespace()
            guard index < bytes.count else { throw GiveUp() }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "]") { return }
            guard separator == UInt8(ascii: ",") else { throw GiveUp() }
        }
    }

    /// Skips any JSON value, checking its grammar (a value `JSONDecoder` would reject must not pass here).
    private mutating func skipValue() throws(GiveUp) {
        skipWhitespace()
        guard index < bytes.count else { throw GiveUp() }
        switch bytes[index] {
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "{"):
            try readObject { (reader: inout GraphPageDecoder, _: String) throws(GiveUp) in try reader.skipValue() }
        case UInt8(ascii: "["):
            try readArray { (reader: inout GraphPageDecoder) throws(GiveUp) in try reader.skipValue() }
        case UInt8(ascii: "t"): try readLiteral("true")
        case UInt8(ascii: "f"): try readLiteral("false")
        case UInt8(ascii: "n"): try readLiteral("null")
        default: try skipNumber()
        }
    }

    /// RFC 8259's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func skipNumber() throws(GiveUp) {
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw GiveUp() }
        if bytes[index] == 0x30 {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw GiveUp() }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw GiveUp() }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func readLiteral(_ word: StaticString) throws(GiveUp) {
        skipWhitespace()
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw GiveUp() }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] { throw GiveUp() }
        index += count
    }

    private mutating func expect(_ byte: UInt8) throws(GiveUp) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { throw GiveUp() }
        index += 1
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    // MARK: - Strings

    /// A JSON string. Without escapes the bytes become the string directly (ASCII needs no check; other text is
    /// validated as UTF-8); escapes are decoded into a buffer, surrogate pairs joined, lone surrogates refused.
    private mutating func readString() throws(GiveUp) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if ascii { return String(decoding: text, as: UTF8.self) }
                guard let validated = String(validating: text, as: UTF8.self) else { throw GiveUp() }
                return validated
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw GiveUp() }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        var buffer = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: buffer, as: UTF8.self) else { throw GiveUp() }
                return text
            case UInt8(ascii: "\\"):
                guard JSONEscape.decode(UnsafeRawBufferPointer(bytes), at: &index, end: bytes.count, into: &buffer)
                else { throw GiveUp() }
            case 0..<0x20:
                throw GiveUp()
            default:
                buffer.append(byte)
            }
        }
        throw GiveUp()
    }
}
