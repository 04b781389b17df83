import OData

/// Lets the configured `$filter` run on normalized users where Graph cannot apply it (delta sync).
extension User: ODataRecord {
    public func value(forProperty name: String) -> ODataValue {
        func text(_ value: String?) -> ODataValue { value.map(ODataValue.string) ?? .null }
        switch name.lowercased() {
        case "id": return .string(id)
        case "userprincipalname": return .string(userPrincipalName)
        case "displayname": return .string(displayName)
        case "givenname": return text(givenName)
        case "surname": return text(surname)
        case "mail": return text(mail)
        case "businessphones": return .array(businessPhones.map(ODataValue.string))
        case "mobilephone": return text(mobilePhone)
        case "jobtitle": return text(jobTitle)
        case "department": return text(department)
        case "officelocation": return text(officeLocation)
        case "companyname": return text(companyName)
        case "accountenabled": return accountEnabled.map(ODataValue.bool) ?? .null
        case "usertype": return text(userType)
        case "employeeid": return text(employeeId)
        case "preferredlanguage": return text(preferredLanguage)
        default:
            let match = extra.first { $0.key.lowercased() == name.lowercased() }?.value
            if let match, match == "true" || match == "false" { return .bool(match == "true") }
            return text(match)
        }
    }
}
