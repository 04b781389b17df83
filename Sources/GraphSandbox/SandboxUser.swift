/// One directory object in the sandbox tenant: the Graph `user` properties the sandbox serves,
/// plus the manager link and what kind of account it is (for tests to compare against).
public struct SandboxUser: Sendable, Hashable, Codable {
    /// What the account is in real life; Graph itself has no such property.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case member
        case guest
        case room
        case sharedMailbox
    }

    public var id: String
    public var userPrincipalName: String
    public var displayName: String
    public var givenName: String?
    public var surname: String?
    public var mail: String?
    public var businessPhones: [String]
    public var mobilePhone: String?
    public var jobTitle: String?
    public var officeLocation: String?
    public var preferredLanguage: String?
    public var department: String?
    public var companyName: String?
    public var accountEnabled: Bool
    /// `Member` or `Guest`.
    public var userType: String
    public var employeeId: String?
    public var employeeType: String?
    public var city: String?
    public var state: String?
    public var country: String?
    public var postalCode: String?
    public var streetAddress: String?
    public var usageLocation: String?
    public var mailNickname: String
    public var faxNumber: String?
    /// ISO 8601 with `Z`, as Graph writes it.
    public var createdDateTime: String
    public var otherMails: [String]
    public var proxyAddresses: [String]
    /// The `id` of the manager, when there is one.
    public var managerId: String?
    public var kind: Kind

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
        officeLocation: String? = nil,
        preferredLanguage: String? = nil,
        department: String? = nil,
        companyName: String? = nil,
        accountEnabled: Bool = true,
        userType: String = "Member",
        employeeId: String? = nil,
        employeeType: String? = nil,
        city: String? = nil,
        state: String? = nil,
        country: String? = nil,
        postalCode: String? = nil,
        streetAddress: String? = nil,
        usageLocation: String? = nil,
        mailNickname: String? = nil,
        faxNumber: String? = nil,
        createdDateTime: String = "2020-01-01T00:00:00Z",
        otherMails: [String] = [],
        proxyAddresses: [String] = [],
        managerId: String? = nil,
        kind: Kind = .member
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
        self.officeLocation = officeLocation
        self.preferredLanguage = preferredLanguage
        self.department = department
        self.companyName = companyName
        self.accountEnabled = accountEnabled
        self.userType = userType
        self.employeeId = employeeId
        self.employeeType = employeeType
        self.city = city
        self.state = state
        self.country = country
        self.postalCode = postalCode
        self.streetAddress = streetAddress
        self.usageLocation = usageLocation
        self.mailNickname =
            mailNickname ?? String(userPrincipalName.prefix { $0 != "@" })
        self.faxNumber = faxNumber
        self.createdDateTime = createdDateTime
        self.otherMails = otherMails
        self.proxyAddresses = proxyAddresses
        self.managerId = managerId
        self.kind = kind
    }
}
