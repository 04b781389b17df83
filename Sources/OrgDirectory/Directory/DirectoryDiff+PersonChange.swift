/// What changed for one person who is in both directories.
public struct PersonChange: Sendable, Equatable, Codable {
    public var id: String
    /// The person's name now (a rename shows up as a `displayName` field change).
    public var displayName: String
    /// Every changed field, in the order of `FieldChange.displayOrder`, then extra properties by name.
    public var fieldChanges: [FieldChange]

    public init(id: String, displayName: String, fieldChanges: [FieldChange]) {
        self.id = id
        self.displayName = displayName
        self.fieldChanges = fieldChanges
    }

    /// The changes that move the person in the organization: department, manager, office.
    public var moves: [FieldChange] { fieldChanges.filter(\.isMove) }

    /// The change for a person seen twice, or nil when nothing a reader would notice differs.
    ///
    /// Business phones are compared as a set (Graph gives no meaning to their order, and only lets one be set),
    /// and the manager by id, so a manager's own rename does not show up on every report's record.
    static func between(_ old: User, _ new: User) -> PersonChange? {
        var changes: [FieldChange] = []
        func compare(_ field: String, _ before: String?, _ after: String?) {
            if before != after { changes.append(FieldChange(field: field, old: before, new: after)) }
        }
        compare("displayName", old.displayName, new.displayName)
        compare("givenName", old.givenName, new.givenName)
        compare("surname", old.surname, new.surname)
        compare("userPrincipalName", old.userPrincipalName, new.userPrincipalName)
        compare("mail", old.mail, new.mail)
        if old.businessPhones.sorted() != new.businessPhones.sorted() {
            changes.append(
                FieldChange(field: "businessPhones", old: phones(old.businessPhones), new: phones(new.businessPhones)))
        }
        compare("mobilePhone", old.mobilePhone, new.mobilePhone)
        compare("jobTitle", old.jobTitle, new.jobTitle)
        compare("department", old.department, new.department)
        compare("officeLocation", old.officeLocation, new.officeLocation)
        compare("companyName", old.companyName, new.companyName)
        if old.manager?.id != new.manager?.id {
            let (before, after) = managerNames(old.manager, new.manager)
            changes.append(FieldChange(field: "manager", old: before, new: after))
        }
        compare("accountEnabled", old.accountEnabled.map(String.init), new.accountEnabled.map(String.init))
        compare("userType", old.userType, new.userType)
        compare("employeeId", old.employeeId, new.employeeId)
        compare("preferredLanguage", old.preferredLanguage, new.preferredLanguage)
        if old.extra != new.extra {
            for key in Set(old.extra.keys).union(new.extra.keys).sorted() {
                compare(key, old.extra[key], new.extra[key])
            }
        }
        guard !changes.isEmpty else { return nil }
        return PersonChange(id: new.id, displayName: new.displayName, fieldChanges: changes)
    }

    private static func phones(_ numbers: [String]) -> String? {
        numbers.isEmpty ? nil : numbers.joined(separator: ", ")
    }

    /// Managers by name; when two different managers share a name, their ids tell them apart.
    private static func managerNames(_ old: ManagerReference?, _ new: ManagerReference?) -> (String?, String?) {
        let before = old.map { $0.displayName ?? $0.id }
        let after = new.map { $0.displayName ?? $0.id }
        guard before == after, let old, let new else { return (before, after) }
        return ("\(before ?? old.id) (\(old.id))", "\(after ?? new.id) (\(new.id))")
    }
}
