/// One field of one person, before and after. Values are display strings; nil means the field was empty.
public struct FieldChange: Sendable, Equatable, Codable {
    /// The Graph property name (`department`, `mobilePhone`…), or the name of an extra `select` property.
    public var field: String
    public var old: String?
    public var new: String?
    /// Whether this change moves the person in the organization (department, manager, office).
    public var isMove: Bool

    public init(field: String, old: String?, new: String?) {
        self.field = field
        self.old = old
        self.new = new
        self.isMove = Self.moveFields.contains(field)
    }

    /// The fields whose change is a move, called out in every diff format and on person pages.
    public static let moveFields: Set<String> = ["department", "manager", "officeLocation"]

    /// The order fields are reported in: who the person is, how to reach them, where they sit.
    public static let displayOrder = [
        "displayName", "givenName", "surname", "userPrincipalName", "mail", "businessPhones", "mobilePhone",
        "jobTitle", "department", "officeLocation", "companyName", "manager", "accountEnabled", "userType",
        "employeeId", "preferredLanguage",
    ]

    /// A label for people: "Department", "Office", "Mobile phone"; extra properties keep their Graph name.
    public var label: String {
        switch field {
        case "displayName": "Name"
        case "givenName": "Given name"
        case "surname": "Surname"
        case "userPrincipalName": "Sign-in name"
        case "mail": "Mail"
        case "businessPhones": "Business phone"
        case "mobilePhone": "Mobile phone"
        case "jobTitle": "Job title"
        case "department": "Department"
        case "officeLocation": "Office"
        case "companyName": "Company"
        case "manager": "Manager"
        case "accountEnabled": "Account enabled"
        case "userType": "User type"
        case "employeeId": "Employee ID"
        case "preferredLanguage": "Preferred language"
        default: field
        }
    }
}
