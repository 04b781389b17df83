/// Applying one delta record to what the previous snapshot knew about the person.
extension User {
    /// Optional text properties by Graph name, for carrying over what a delta record did not send.
    private static var carriedText: [(String, WritableKeyPath<User, String?>)] {
        [
            ("givenName", \.givenName), ("surname", \.surname), ("mail", \.mail), ("mobilePhone", \.mobilePhone),
            ("jobTitle", \.jobTitle), ("department", \.department), ("officeLocation", \.officeLocation),
            ("companyName", \.companyName), ("userType", \.userType), ("employeeId", \.employeeId),
            ("preferredLanguage", \.preferredLanguage),
        ]
    }

    /// This user (normalized from `record`) with every property the record did not send taken from `previous`.
    ///
    /// Graph may send a changed user with only some properties (`Prefer: return=minimal`, or "id plus at
    /// least the updated properties"); a property sent as null is cleared, one not sent at all is unchanged.
    /// Blanking the missing ones would turn every partial record into a wave of fake changes.
    func merged(sent keys: Set<String>, managerSent: Bool, onto previous: User) -> User {
        var user = self
        for (name, path) in Self.carriedText where !keys.contains(name) {
            user[keyPath: path] = previous[keyPath: path]
        }
        if !keys.contains("userPrincipalName") { user.userPrincipalName = previous.userPrincipalName }
        if !keys.contains("displayName") { user.displayName = previous.displayName }
        if !keys.contains("businessPhones") { user.businessPhones = previous.businessPhones }
        if !keys.contains("accountEnabled") { user.accountEnabled = previous.accountEnabled }
        if !managerSent { user.manager = previous.manager }
        if let manager = user.manager, manager.displayName == nil, previous.manager?.id == manager.id {
            user.manager = previous.manager
        }
        for (name, value) in previous.extra where !keys.contains(name) {
            user.extra[name] = value
        }
        return user
    }
}
