/// A person in the directory, normalized from one Graph `user` object.
///
/// Everything the site, the snapshots and the diff need is here and nothing else: strings are trimmed,
/// empty strings become `nil`, phone lists drop blanks. Extra properties asked for with the plist's
/// `select` key land in `extra`, keyed by their Graph name.
public struct User: Sendable, Hashable, Codable {
    /// Graph's object id: opaque, stable for the life of the account, the key for diffs and slugs.
    public var id: String
    public var userPrincipalName: String
    public var displayName: String
    public var givenName: String?
    public var surname: String?
    public var mail: String?
    public var businessPhones: [String]
    public var mobilePhone: String?
    public var jobTitle: String?
    public var department: String?
    public var officeLocation: String?
    public var companyName: String?
    public var accountEnabled: Bool?
    public var userType: String?
    public var employeeId: String?
    public var preferredLanguage: String?
    /// The manager, when the run asked for it with `$expand=manager`.
    public var manager: ManagerReference?
    /// Properties named in the plist's `select` that the model has no field for, as display strings.
    public var extra: [String: String]

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
        self.id = id
        self.userPrincipalName = userPrincipalName
        self.displayName = displayName
        self.givenName = givenName
        self.surname = surname
        self.mail = mail
        self.businessPhones = businessPhones
        self.mobilePhone = mobilePhone
        self.jobTitle = jobTitle
        self.department = department
        self.officeLocation = officeLocation
        self.companyName = companyName
        self.accountEnabled = accountEnabled
        self.userType = userType
        self.employeeId = employeeId
        self.preferredLanguage = preferredLanguage
        self.manager = manager
        self.extra = extra
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

extension User {
    /// Equal when every stored property is: `sameRecord`'s one list of fields, so the two cannot drift apart.
    /// (`hash(into:)` is synthesized over every stored property, so equal records still hash alike.)
    public static func == (lhs: User, rhs: User) -> Bool {
        withUnsafePointer(to: lhs) { lhs in withUnsafePointer(to: rhs) { rhs in sameRecord(lhs, rhs) } }
    }

    /// Whether the records at `lhs` and `rhs` are equal, compared field by field where they lie: the one list of
    /// fields, which `==` uses too.
    ///
    /// Why pointers: `old[i] == new[j]` copied each record out of its buffer first (a retain and a release of every
    /// field), and the diff compares everyone with their record of the night before: 16 of its 24 samples in a
    /// 100,000-person nightly's profile. `UserEqualityTests` changes each stored property in turn (and checks it
    /// has named them all), so a field added to `User` cannot be left out of here unnoticed.
    static func sameRecord(_ lhs: UnsafePointer<User>, _ rhs: UnsafePointer<User>) -> Bool {
        lhs.pointee.id == rhs.pointee.id && lhs.pointee.userPrincipalName == rhs.pointee.userPrincipalName
            && lhs.pointee.displayName == rhs.pointee.displayName && lhs.pointee.givenName == rhs.pointee.givenName
            && lhs.pointee.surname == rhs.pointee.surname && lhs.pointee.mail == rhs.pointee.mail
            && lhs.pointee.businessPhones == rhs.pointee.businessPhones
            && lhs.pointee.mobilePhone == rhs.pointee.mobilePhone && lhs.pointee.jobTitle == rhs.pointee.jobTitle
            && lhs.pointee.department == rhs.pointee.department
            && lhs.pointee.officeLocation == rhs.pointee.officeLocation
            && lhs.pointee.companyName == rhs.pointee.companyName
            && lhs.pointee.accountEnabled == rhs.pointee.accountEnabled
            && lhs.pointee.userType == rhs.pointee.userType && lhs.pointee.employeeId == rhs.pointee.employeeId
            && lhs.pointee.preferredLanguage == rhs.pointee.preferredLanguage
            && lhs.pointee.manager == rhs.pointee.manager && lhs.pointee.extra == rhs.pointee.extra
    }
}
