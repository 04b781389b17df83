/// Facts about Graph's `user` properties that shape the `$select` orgdir sends.
public enum GraphUserProperties {
    /// What the User model reads; always selected, `id` included (Graph does not add it by itself).
    public static let modelProperties = [
        "id", "userPrincipalName", "displayName", "givenName", "surname", "mail", "businessPhones", "mobilePhone",
        "jobTitle", "department", "officeLocation", "companyName", "accountEnabled", "userType", "employeeId",
        "preferredLanguage",
    ]

    /// Properties Graph returns only for a single user; on /users they make the request fail with 501.
    public static let singleUserOnly: Set<String> = [
        "aboutMe", "birthday", "hireDate", "interests", "mySite", "pastProjects", "preferredName",
        "responsibilities", "schools", "skills", "mailboxSettings",
    ]
}
