extension User {
    /// The user without the fields named in `hidden` (Graph property names), so nothing downstream can leak them.
    func hiding(_ hidden: Set<String>) -> User {
        guard !hidden.isEmpty else { return self }
        var user = self
        for field in hidden {
            switch field {
            case "givenName": user.givenName = nil
            case "surname": user.surname = nil
            case "mail": user.mail = nil
            case "businessPhones": user.businessPhones = []
            case "mobilePhone": user.mobilePhone = nil
            case "jobTitle": user.jobTitle = nil
            case "department": user.department = nil
            case "officeLocation": user.officeLocation = nil
            case "companyName": user.companyName = nil
            case "userPrincipalName": user.userPrincipalName = ""
            case "manager": user.manager = nil
            case "employeeId": user.employeeId = nil
            case "preferredLanguage": user.preferredLanguage = nil
            default: user.extra[field] = nil
            }
        }
        return user
    }
}
