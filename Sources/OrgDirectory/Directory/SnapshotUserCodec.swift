import Foundation

/// A hand-written JSON reader and writer for `User`, producing exactly the bytes `JSONEncoder` does with
/// `.sortedKeys` and `.withoutEscapingSlashes`.
///
/// Why: on Linux, Foundation's JSONDecoder reads about 25 MB/s per core, so two 100,000-person snapshots (55 MB
/// each) took over 4 s to load: far more than the 10% of a build that `orgdir diff` may cost. This codec does
/// the same work about ten times faster. Anything it does not recognise (an unknown key, an unexpected type)
/// makes the caller fall back to JSONDecoder, so it can only ever be faster, never different.
/// `SnapshotCodecTests` pins the equivalence and checks that it knows every stored property of `User`.
enum SnapshotUserCodec {
    /// Every key the codec writes, in canonical (sorted) order; tests compare it with `User`'s properties.
    static let keys = [
        "accountEnabled", "businessPhones", "companyName", "department", "displayName", "employeeId", "extra",
        "givenName", "id", "jobTitle", "mail", "manager", "mobilePhone", "officeLocation", "preferredLanguage",
        "surname", "userPrincipalName", "userType",
    ]

    // MARK: Writing

    /// Appends one user as a canonical JSON object (no trailing separator).
    static func append(_ user: User, to out: inout [UInt8]) {
        var first = true
        func key(_ name: StaticString) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            out.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(UInt8(ascii: "\""))
            out.append(UInt8(ascii: ":"))
        }
        func optional(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            key(name)
            appendString(value, to: &out)
        }
        if let value = user.accountEnabled {
            key("accountEnabled")
            appendStatic(value ? "true" : "false", to: &out)
        }
        key("businessPhones")
        out.append(UInt8(ascii: "["))
        for (index, phone) in user.businessPhones.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(phone, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        optional("companyName", user.companyName)
        optional("department", user.department)
        key("displayName")
        appendString(user.displayName, to: &out)
        optional("employeeId", user.employeeId)
        key("extra")
        appendDictionary(user.extra, to: &out)
        optional("givenName", user.givenName)
        key("id")
        appendString(user.id, to: &out)
        optional("jobTitle", user.jobTitle)
        optional("mail", user.mail)
        if let manager = user.manager {
            key("manager")
            if let name = manager.displayName {
                appendStatic(#"{"displayName":"#, to: &out)
                appendString(name, to: &out)
                appendStatic(#","id":"#, to: &out)
            } else {
                appendStatic(#"{"id":"#, to: &out)
            }
            appendString(manager.id, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        optional("mobilePhone", user.mobilePhone)
        optional("officeLocation", user.officeLocation)
        optional("preferredLanguage", user.preferredLanguage)
        optional("surname", user.surname)
        key("userPrincipalName")
        appendString(user.userPrincipalName, to: &out)
        optional("userType", user.userType)
        out.append(UInt8(ascii: "}"))
    }

    static func appendStatic(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// A string dictionary with keys sorted as JSONEncoder's `.sortedKeys` sorts them (Swift `String` order).
    private static func appendDictionary(_ values: [String: String], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        if values.count == 1, let (key, value) = values.first {
            // The common case needs no sorting (and no array of keys).
            appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendString(value, to: &out)
            out.append(UInt8(ascii: "}"))
            return
        }
        for (index, key) in values.keys.sorted().enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendString(values[key] ?? "", to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends a JSON string literal escaped as JSONEncoder escapes it: `"` and `\` with a backslash, control
    /// characters as `\b \t \n \f \r` or `\u00xx`, everything else (slashes, DEL, non-ASCII) as raw UTF-8.
    static func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        value.withUTF8Bytes { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [
                        UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                        hex[Int(byte & 0xF)],
                    ])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    // MARK: Reading

    /// Why the fast reader gave up; the caller then lets JSONDecoder read the same bytes (and explain errors).
    struct Unsupported: Error {
        var offset: Int
    }

    /// Reads the users in `range`: JSON objects separated by commas and/or line breaks (the body of the people
    /// array, or lines of the history file). Throws `Unsupported` for anything outside the canonical subset.
    static func readUsers(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) throws(Unsupported) -> [User] {
        var reader = Reader(bytes: bytes, index: range.lowerBound, end: range.upperBound)
        return try reader.sequence(expectedSize: 400) { (reader: inout Reader) throws(Unsupported) in
            try reader.user()
        }
    }

    /// Reads the users in `range` (as `readUsers`) into `slots`, from the first; returns how many it initialized,
    /// and whether they were exactly all of `range`, nothing outside the canonical subset, filling every slot
    /// (otherwise the caller reads them the general way).
    static func readUsers(
        _ bytes: UnsafeRawBufferPointer, range: Range<Int>, into slots: UnsafeMutableBufferPointer<User>
    ) -> (initialized: Int, exact: Bool) {
        var reader = Reader(bytes: bytes, index: range.lowerBound, end: range.upperBound)
        var count = 0
        reader.skipWhitespace()
        while reader.index < reader.end {
            guard count < slots.count else { return (count, false) }
            // A record that does not read ends the fast path: the caller reads the range the general way.
            do {
                try slots.initializeElement(at: count, to: reader.user())
            } catch {
                return (count, false)
            }
            count += 1
            reader.skipWhitespace()
            if reader.index < reader.end, bytes[reader.index] == UInt8(ascii: ",") {
                reader.index += 1
                reader.skipWhitespace()
            }
        }
        return (count, count == slots.count)
    }

    /// A cursor over canonical JSON bytes.
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index: Int
        let end: Int

        var unsupported: Unsupported { Unsupported(offset: index) }

        /// Values separated by commas and/or whitespace, up to `end`.
        mutating func sequence<Value>(
            expectedSize: Int, _ element: (inout Reader) throws(Unsupported) -> Value
        ) throws(Unsupported) -> [Value] {
            var values: [Value] = []
            values.reserveCapacity((end - index) / expectedSize)
            skipWhitespace()
            while index < end {
                values.append(try element(&self))
                skipWhitespace()
                if index < end, bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                }
            }
            return values
        }

        mutating func skipWhitespace() {
            while index < end {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        mutating func expect(_ byte: UInt8) throws(Unsupported) {
            skipWhitespace()
            guard index < end, bytes[index] == byte else { throw unsupported }
            index += 1
        }

        /// Consumes `null` when it comes next.
        mutating func null() -> Bool {
            skipWhitespace()
            guard index + 4 <= end, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
                bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
            else { return false }
            index += 4
            return true
        }

        mutating func optionalString() throws(Unsupported) -> String? {
            null() ? nil : try string()
        }

        mutating func bool() throws(Unsupported) -> Bool? {
            if null() { return nil }
            if matches("true") { return true }
            if matches("false") { return false }
            throw unsupported
        }

        mutating func matches(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard index + count <= end else { return false }
            let same = literal.withUTF8Buffer { literalBytes in
                (0..<count).allSatisfy { bytes[index + $0] == literalBytes[$0] }
            }
            if same { index += count }
            return same
        }

        /// A string literal; the common case (no escapes) is one scan and one String.
        mutating func string() throws(Unsupported) -> String {
            try expect(UInt8(ascii: "\""))
            let start = index
            skipPlainBytes()
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let value = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    return value
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw unsupported }
                index += 1
            }
            return try escapedString(from: start)
        }

        /// Moves `index` past the bytes of a string that need no look (no quote, backslash or control character), 16 at
        /// a time; the byte loop after it finds what ends the run. Why: byte by byte, finding where each of a snapshot's
        /// strings ends was some 15 of 1,000 samples of a 100,000-person nightly's snapshot read
        /// (`Benchmarks/profile-nightly.sh`), on the stretch the run waits for.
        private mutating func skipPlainBytes() {
            guard let base = bytes.baseAddress else { return }
            let quote = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
            let backslash = SIMD16<UInt8>(repeating: UInt8(ascii: "\\"))
            let space = SIMD16<UInt8>(repeating: 0x20)
            while index + 16 <= end {
                let chunk = (base + index).loadUnaligned(as: SIMD16<UInt8>.self)
                if any((chunk .== quote) .| (chunk .== backslash) .| (chunk .< space)) { return }
                index += 16
            }
        }

        /// The slow path for strings with escapes: decodes `\"`, `\\`, `\/`, `\b\f\n\r\t` and `\uXXXX` pairs.
        private mutating func escapedString(from start: Int) throws(Unsupported) -> String {
            var buffer = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            while index < end {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: buffer, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard JSONEscape.decode(bytes, at: &index, end: end, into: &buffer) else { throw unsupported }
                default:
                    if byte < 0x20 { throw unsupported }
                    buffer.append(byte)
                }
            }
            throw unsupported
        }

        mutating func stringArray() throws(Unsupported) -> [String] {
            try expect(UInt8(ascii: "["))
            var values: [String] = []
            skipWhitespace()
            if index < end, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return values
            }
            while true {
                values.append(try string())
                skipWhitespace()
                guard index < end else { throw unsupported }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return values
                }
                try expect(UInt8(ascii: ","))
            }
        }

        /// Calls `body` with each key of an object; `body` must consume the value.
        mutating func object(_ body: (inout Reader, UnsafeRawBufferPointer) throws(Unsupported) -> Void)
            throws(Unsupported)
        {
            var nothing: Void = ()
            try object(into: &nothing) { (reader: inout Reader, key, _: inout Void) throws(Unsupported) in
                try body(&reader, key)
            }
        }

        /// `object(_:)` with `state` handed to `body` for what it reads: a value captured by the closure instead was
        /// copied out of it at the end (a retain and a release of every field of each user read).
        mutating func object<State>(
            into state: inout State,
            _ body: (inout Reader, UnsafeRawBufferPointer, inout State) throws(Unsupported) -> Void
        ) throws(Unsupported) {
            try expect(UInt8(ascii: "{"))
            skipWhitespace()
            if index < end, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return
            }
            while true {
                try expect(UInt8(ascii: "\""))
                let start = index
                while index < end, bytes[index] != UInt8(ascii: "\"") {
                    // Our keys never need escaping; an escaped key is left to JSONDecoder.
                    if bytes[index] == UInt8(ascii: "\\") { throw unsupported }
                    index += 1
                }
                guard index < end else { throw unsupported }
                let key = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                try expect(UInt8(ascii: ":"))
                try body(&self, key, &state)
                skipWhitespace()
                guard index < end else { throw unsupported }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return
                }
                try expect(UInt8(ascii: ","))
            }
        }

        mutating func stringDictionary() throws(Unsupported) -> [String: String] {
            var values: [String: String] = [:]
            try object { (reader: inout Reader, key) throws(Unsupported) in
                values[String(decoding: key, as: UTF8.self)] = try reader.string()
            }
            return values
        }

        mutating func manager() throws(Unsupported) -> ManagerReference? {
            if null() { return nil }
            var id: String?
            var displayName: String?
            try object { (reader: inout Reader, key) throws(Unsupported) in
                if key.elementsEqual("id".utf8) {
                    id = try reader.string()
                } else if key.elementsEqual("displayName".utf8) {
                    displayName = try reader.optionalString()
                } else {
                    throw reader.unsupported
                }
            }
            guard let id else { throw unsupported }
            return ManagerReference(id: id, displayName: displayName)
        }

        /// One user object; required keys missing or unknown keys make it `Unsupported`.
        ///
        /// Inlined into the loops that read users: called, each record it made was copied out of the call and the
        /// original dropped (decoding a 100,000-person snapshot went 84-88 -> 75-79 samples inlined,
        /// `Benchmarks/profile-ab.sh OLD NEW 3`).
        @inline(__always)
        mutating func user() throws(Unsupported) -> User {
            /// What the object gives, every field apart until all are read: the user is made once at the end with
            /// each value moved in. Made in place (a `User` among the fields, its required ones set last), every
            /// record was copied out and the fields dropped, a retain and a release of every string, some 14 of the
            /// 90 samples of decoding a 100,000-person snapshot.
            struct Fields {
                var id: String?
                var userPrincipalName: String?
                var displayName: String?
                var givenName: String?
                var surname: String?
                var mail: String?
                var businessPhones: [String]?
                var mobilePhone: String?
                var jobTitle: String?
                var department: String?
                var officeLocation: String?
                var companyName: String?
                var accountEnabled: Bool?
                var userType: String?
                var employeeId: String?
                var preferredLanguage: String?
                var manager: ManagerReference?
                var extra: [String: String]?
            }
            var read = Fields()
            try object(into: &read) { (reader: inout Reader, key, read: inout Fields) throws(Unsupported) in
                guard let field = Field(key) else { throw reader.unsupported }
                switch field {
                case .accountEnabled: read.accountEnabled = try reader.bool()
                case .businessPhones: read.businessPhones = try reader.stringArray()
                case .companyName: read.companyName = try reader.optionalString()
                case .department: read.department = try reader.optionalString()
                case .displayName: read.displayName = try reader.string()
                case .employeeId: read.employeeId = try reader.optionalString()
                case .extra: read.extra = try reader.stringDictionary()
                case .givenName: read.givenName = try reader.optionalString()
                case .id: read.id = try reader.string()
                case .jobTitle: read.jobTitle = try reader.optionalString()
                case .mail: read.mail = try reader.optionalString()
                case .manager: read.manager = try reader.manager()
                case .mobilePhone: read.mobilePhone = try reader.optionalString()
                case .officeLocation: read.officeLocation = try reader.optionalString()
                case .preferredLanguage: read.preferredLanguage = try reader.optionalString()
                case .surname: read.surname = try reader.optionalString()
                case .userPrincipalName: read.userPrincipalName = try reader.string()
                case .userType: read.userType = try reader.optionalString()
                }
            }
            guard let id = read.id.take(), let userPrincipalName = read.userPrincipalName.take(),
                let displayName = read.displayName.take(), let businessPhones = read.businessPhones.take(),
                let extra = read.extra.take()
            else {
                throw unsupported
            }
            return User(
                id: id, userPrincipalName: userPrincipalName, displayName: displayName,
                givenName: read.givenName.take(), surname: read.surname.take(), mail: read.mail.take(),
                businessPhones: businessPhones, mobilePhone: read.mobilePhone.take(), jobTitle: read.jobTitle.take(),
                department: read.department.take(), officeLocation: read.officeLocation.take(),
                companyName: read.companyName.take(),
                accountEnabled: read.accountEnabled.take(), userType: read.userType.take(),
                employeeId: read.employeeId.take(), preferredLanguage: read.preferredLanguage.take(),
                manager: read.manager.take(), extra: extra)
        }
    }

    /// The keys of a user object, recognised from raw bytes without making a String.
    private enum Field {
        case accountEnabled, businessPhones, companyName, department, displayName, employeeId, extra, givenName
        case id, jobTitle, mail, manager, mobilePhone, officeLocation, preferredLanguage, surname
        case userPrincipalName, userType

        /// Length and first byte pick the one candidate; the full comparison confirms it.
        init?(_ key: UnsafeRawBufferPointer) {
            guard let first = key.first else { return nil }
            let candidate: (Field, StaticString)
            switch (key.count, first) {
            case (14, UInt8(ascii: "a")): candidate = (.accountEnabled, "accountEnabled")
            case (14, UInt8(ascii: "b")): candidate = (.businessPhones, "businessPhones")
            case (14, UInt8(ascii: "o")): candidate = (.officeLocation, "officeLocation")
            case (11, UInt8(ascii: "c")): candidate = (.companyName, "companyName")
            case (11, UInt8(ascii: "d")): candidate = (.displayName, "displayName")
            case (11, UInt8(ascii: "m")): candidate = (.mobilePhone, "mobilePhone")
            case (10, UInt8(ascii: "d")): candidate = (.department, "department")
            case (10, UInt8(ascii: "e")): candidate = (.employeeId, "employeeId")
            case (5, UInt8(ascii: "e")): candidate = (.extra, "extra")
            case (9, UInt8(ascii: "g")): candidate = (.givenName, "givenName")
            case (2, UInt8(ascii: "i")): candidate = (.id, "id")
            case (8, UInt8(ascii: "j")): candidate = (.jobTitle, "jobTitle")
            case (8, UInt8(ascii: "u")): candidate = (.userType, "userType")
            case (4, UInt8(ascii: "m")): candidate = (.mail, "mail")
            case (7, UInt8(ascii: "m")): candidate = (.manager, "manager")
            case (7, UInt8(ascii: "s")): candidate = (.surname, "surname")
            case (17, UInt8(ascii: "p")): candidate = (.preferredLanguage, "preferredLanguage")
            case (17, UInt8(ascii: "u")): candidate = (.userPrincipalName, "userPrincipalName")
            default: return nil
            }
            // One `memcmp` of the equal lengths: `elementsEqual` of the two buffers went byte by byte through generic
            // iterators, 14 of some 1,000 samples of a nightly's snapshot read (`Benchmarks/profile-nightly.sh`).
            let matches = candidate.1.withUTF8Buffer { name in
                guard let expected = name.baseAddress, let found = key.baseAddress else { return false }
                return memcmp(expected, found, key.count) == 0
            }
            guard matches else { return nil }
            self = candidate.0
        }
    }
}
