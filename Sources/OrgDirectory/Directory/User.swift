/// A person in the directory, normalized from one Graph `user` object.
///
/// Everything the site, the snapshots and the diff need is here and nothing else: strings are trimmed,
/// empty strings become `nil`, phone lists drop blanks. Extra properties asked for with the plist's
/// `select` key land in `extra`, keyed by their Graph name.
///
/// A value type whose fields live in one shared, copy-on-write box (`Record` in a `ManagedBuffer`): a copy of a
/// user is one reference, not eighteen fields. Why: a nightly run holds the snapshot's hundred thousand people and
/// tonight's, which are the same people but for a few hundred, and making tonight's list copied every record field
/// by field (a retain of each string, some 30 MB of fresh memory): 87 of a nightly's 2,763 samples, on the one core
/// the run has between the delta round and the render (`perf record` of a replayed nightly, 2026-11-28). The box is
/// never written while shared (every setter makes it unique first), which is what makes the type `Sendable`.
public struct User: @unchecked Sendable {
    /// The stored fields, as `User` had them: `Codable` and `Hashable` synthesized over them, so the encoded form and
    /// the hash stay what they were.
    struct Record: Hashable, Codable, Sendable {
        var id: String
        var userPrincipalName: String
        var displayName: String
        var givenName: String?
        var surname: String?
        var mail: String?
        var businessPhones: [String]
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
        var extra: [String: String]
    }

    /// The record's box. Read and written through pointers (`withUnsafeMutablePointerToHeader`), not `header`:
    /// a class's stored property is checked for exclusive access on every use.
    private var box: ManagedBuffer<Record, Void>

    private init(record: Record) {
        box = Self.box(holding: record)
    }

    /// A new box holding `record`.
    private static func box(holding record: Record) -> ManagedBuffer<Record, Void> {
        ManagedBuffer<Record, Void>.create(minimumCapacity: 0) { _ in record }
    }

    /// The fields, read in place.
    @inline(__always) private func read<Value, Failure: Error>(
        _ field: (UnsafeMutablePointer<Record>) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        try box.withUnsafeMutablePointerToHeader(field)
    }

    /// The fields, written after making the box this user's alone.
    @inline(__always) private mutating func write(_ change: (UnsafeMutablePointer<Record>) -> Void) {
        if !isKnownUniquelyReferenced(&box) { box = Self.box(holding: read { $0.pointee }) }
        box.withUnsafeMutablePointerToHeader(change)
    }

    /// Graph's object id: opaque, stable for the life of the account, the key for diffs and slugs.
    public var id: String {
        get { read { $0.pointee.id } }
        set { write { $0.pointee.id = newValue } }
    }
    public var userPrincipalName: String {
        get { read { $0.pointee.userPrincipalName } }
        set { write { $0.pointee.userPrincipalName = newValue } }
    }
    public var displayName: String {
        get { read { $0.pointee.displayName } }
        set { write { $0.pointee.displayName = newValue } }
    }
    public var givenName: String? {
        get { read { $0.pointee.givenName } }
        set { write { $0.pointee.givenName = newValue } }
    }
    public var surname: String? {
        get { read { $0.pointee.surname } }
        set { write { $0.pointee.surname = newValue } }
    }
    public var mail: String? {
        get { read { $0.pointee.mail } }
        set { write { $0.pointee.mail = newValue } }
    }
    public var businessPhones: [String] {
        get { read { $0.pointee.businessPhones } }
        set { write { $0.pointee.businessPhones = newValue } }
    }
    public var mobilePhone: String? {
        get { read { $0.pointee.mobilePhone } }
        set { write { $0.pointee.mobilePhone = newValue } }
    }
    public var jobTitle: String? {
        get { read { $0.pointee.jobTitle } }
        set { write { $0.pointee.jobTitle = newValue } }
    }
    public var department: String? {
        get { read { $0.pointee.department } }
        set { write { $0.pointee.department = newValue } }
    }
    public var officeLocation: String? {
        get { read { $0.pointee.officeLocation } }
        set { write { $0.pointee.officeLocation = newValue } }
    }
    public var companyName: String? {
        get { read { $0.pointee.companyName } }
        set { write { $0.pointee.companyName = newValue } }
    }
    public var accountEnabled: Bool? {
        get { read { $0.pointee.accountEnabled } }
        set { write { $0.pointee.accountEnabled = newValue } }
    }
    public var userType: String? {
        get { read { $0.pointee.userType } }
        set { write { $0.pointee.userType = newValue } }
    }
    public var employeeId: String? {
        get { read { $0.pointee.employeeId } }
        set { write { $0.pointee.employeeId = newValue } }
    }
    public var preferredLanguage: String? {
        get { read { $0.pointee.preferredLanguage } }
        set { write { $0.pointee.preferredLanguage = newValue } }
    }
    /// The manager, when the run asked for it with `$expand=manager`.
    public var manager: ManagerReference? {
        get { read { $0.pointee.manager } }
        set { write { $0.pointee.manager = newValue } }
    }
    /// Properties named in the plist's `select` that the model has no field for, as display strings.
    public var extra: [String: String] {
        get { read { $0.pointee.extra } }
        set { write { $0.pointee.extra = newValue } }
    }

    public init(
        id: String,
        userPrincipalName: String,
        displayName: String,
        givenName: String? = nil,
        surname: String? = nil,
        mail: String? = nil,
        businessPhones: [String] = [],
        mobilePhone: String? = nil,
        jobTitle: String? = nil,
        department: String? = nil,
        officeLocation: String? = nil,
        companyName: String? = nil,
        accountEnabled: Bool? = nil,
        userType: String? = nil,
        employeeId: String? = nil,
        preferredLanguage: String? = nil,
        manager: ManagerReference? = nil,
        extra: [String: String] = [:]
    ) {
        self.init(
            record: Record(
                id: id, userPrincipalName: userPrincipalName, displayName: displayName, givenName: givenName,
                surname: surname, mail: mail, businessPhones: businessPhones, mobilePhone: mobilePhone,
                jobTitle: jobTitle, department: department, officeLocation: officeLocation, companyName: companyName,
                accountEnabled: accountEnabled, userType: userType, employeeId: employeeId,
                preferredLanguage: preferredLanguage, manager: manager, extra: extra))
    }
}

/// The manager of a user as `$expand=manager($select=id,displayName)` returns it.
public struct ManagerReference: Sendable, Hashable, Codable {
    public var id: String
    public var displayName: String?

    public init(id: String, displayName: String?) {
        self.id = id
        self.displayName = displayName
    }
}

extension User: Hashable, Codable, CustomReflectable {
    /// Equal when every field is: `sameRecord`.
    public static func == (lhs: User, rhs: User) -> Bool {
        withUnsafePointer(to: lhs) { lhs in withUnsafePointer(to: rhs) { rhs in sameRecord(lhs, rhs) } }
    }

    /// Whether the records at `lhs` and `rhs` are equal: at once when they share a box (a record copied from one list
    /// into the next, as a nightly's unchanged people are), else field by field as `Record`'s synthesized `==`
    /// compares them, read where they lie. `UserEqualityTests` changes each field in turn (and checks it has named
    /// them all).
    ///
    /// Why pointers: the diff compares everyone with their record of the night before, and a copy of each record
    /// out of its list was most of its time.
    static func sameRecord(_ lhs: UnsafePointer<User>, _ rhs: UnsafePointer<User>) -> Bool {
        if lhs.pointee.box === rhs.pointee.box { return true }
        return lhs.pointee.box.withUnsafeMutablePointerToHeader { left in
            rhs.pointee.box.withUnsafeMutablePointerToHeader { right in left.pointee == right.pointee }
        }
    }

    public func hash(into hasher: inout Hasher) {
        read { $0.pointee.hash(into: &hasher) }
    }

    /// Encoded as the fields were before they moved into the box: the same keys, nil fields left out.
    public func encode(to encoder: any Encoder) throws {
        try read { try $0.pointee.encode(to: encoder) }
    }

    public init(from decoder: any Decoder) throws {
        self.init(record: try Record(from: decoder))
    }

    /// The fields, as a debugger and the tests' field lists (`Mirror(reflecting:)`) saw them as stored properties.
    public var customMirror: Mirror {
        Mirror(reflecting: read { $0.pointee })
    }
}
