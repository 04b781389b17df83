/// Rules applied on orgdir's side for what Graph cannot filter (or not cheaply), each counted per run.
public struct LocalRules: Sendable, Equatable {
    public var excludeDisabled: Bool
    public var excludeGuests: Bool
    /// Drop accounts with neither mail nor any phone: nobody can reach them through the phone book.
    public var excludeWithoutContact: Bool
    /// Drop rooms, equipment and shared mailboxes (see `isLikelyResource`).
    public var excludeResources: Bool
    /// UPNs (lowercased) never shown.
    public var excludeUsers: Set<String>
    /// When set, only these UPNs (lowercased) are shown.
    public var includeOnlyUsers: Set<String>?

    public init(
        excludeDisabled: Bool = false, excludeGuests: Bool = false, excludeWithoutContact: Bool = false,
        excludeResources: Bool = false, excludeUsers: Set<String> = [], includeOnlyUsers: Set<String>? = nil
    ) {
        self.excludeDisabled = excludeDisabled
        self.excludeGuests = excludeGuests
        self.excludeWithoutContact = excludeWithoutContact
        self.excludeResources = excludeResources
        self.excludeUsers = excludeUsers
        self.includeOnlyUsers = includeOnlyUsers
    }

    /// Graph properties the rules read, so the fetch can `$select` them.
    public var requiredProperties: [String] {
        var names: [String] = []
        if excludeDisabled || excludeResources { names.append("accountEnabled") }
        if excludeGuests { names.append("userType") }
        return names
    }

    /// The rule that removes a user, or nil when the user stays. The first matching rule is the one counted.
    public func rule(removing user: User) -> LocalRule? {
        if includeOnlyUsers != nil || !excludeUsers.isEmpty {
            let upn = user.userPrincipalName.lowercased()
            if let includeOnlyUsers, !includeOnlyUsers.contains(upn) { return .notIncluded }
            if excludeUsers.contains(upn) { return .excludedByName }
        }
        if excludeDisabled, user.accountEnabled == false { return .disabled }
        if excludeGuests, user.isGuest { return .guest }
        if excludeResources, user.isLikelyResource { return .resource }
        if excludeWithoutContact, user.mail == nil, user.businessPhones.isEmpty, user.mobilePhone == nil {
            return .withoutContact
        }
        return nil
    }

    /// Applies every rule; returns who stays and how many each rule removed.
    public func apply(to users: [User]) -> (kept: [User], removed: [LocalRule: Int]) {
        var kept = users
        let removed = apply(removingFrom: &kept)
        return (kept, removed)
    }

    /// Applies every rule to `users` in place, the people kept in their order; returns how many each rule
    /// removed. In place because copying every kept record into a new list (a retain of each of its fields, and
    /// a release of the old list's) was most of applying the rules to a hundred thousand people; with no rule
    /// switched on nobody is even looked at.
    public func apply(removingFrom users: inout [User]) -> [LocalRule: Int] {
        guard isActive else { return [:] }
        var removed: [LocalRule: Int] = [:]
        users.removeAll { user in
            guard let rule = rule(removing: user) else { return false }
            removed[rule, default: 0] += 1
            return true
        }
        return removed
    }

    /// Whether any rule is switched on.
    var isActive: Bool {
        excludeDisabled || excludeGuests || excludeWithoutContact || excludeResources || !excludeUsers.isEmpty
            || includeOnlyUsers != nil
    }
}

/// One local rule, named as the run summary reports it.
public enum LocalRule: String, Sendable, CaseIterable, Codable {
    case notIncluded = "includeOnlyUsers"
    case excludedByName = "excludeUsers"
    case disabled = "excludeDisabled"
    case guest = "excludeGuests"
    case resource = "excludeResources"
    case withoutContact = "excludeWithoutContact"
}

extension User {
    /// Guests are B2B accounts: `userType` Guest, or the `#EXT#` marker Entra puts in their UPN.
    public var isGuest: Bool {
        userType?.caseInsensitiveCompare("Guest") == .orderedSame || userPrincipalName.contains("#EXT#")
    }

    /// A heuristic for rooms, equipment and shared mailboxes, which Graph lists as users.
    ///
    /// Exchange creates them as accounts with no given name and no surname, usually disabled for sign-in,
    /// and admins name them after what they are. So: no person name, and either a disabled account or a
    /// display name / UPN that says room, equipment or shared. A real person with only a display name and an
    /// enabled account is kept.
    public var isLikelyResource: Bool {
        guard givenName == nil, surname == nil else { return false }
        if accountEnabled == false { return true }
        let words = (displayName + " " + userPrincipalName).lowercased()
        let markers = ["room", "shared", "mailbox", "equipment", "resource", "conf-", "meeting"]
        return markers.contains { words.contains($0) }
    }
}
