/// Graph's `$filter` support for /users, per property, from graph-facts.md §2.
///
/// Sources and where they disagree (the choices made here):
/// - Which operators a property supports at all comes from the user resource page [G-user]; whether each needs
///   an advanced query comes from the D/A matrix [G-filtertbl, older version as quoted in the fact sheet].
///   A newer version of that include (microsoft-graph-docs-contrib @0a8bce95) adds ge/le and collection rows.
/// - Where a source says "default" and another says "advanced", this catalog says advanced: every default query
///   also works as an advanced one [G-aq], so the request succeeds under either reading. The cost is that
///   advanced queries cannot use `$expand`. Cases: ge/le on strings (blank in the older matrix, D in the newer
///   one); createdDateTime eq/ge/le (A in the older matrix, D in the newer one); startsWith on businessPhones
///   (listed by G-user, not marked in either matrix).
/// - department startsWith: G-user does not list it, G-filtertbl marks it default; chosen: supported by default.
/// - employeeId startsWith: G-user lists it and the newer matrix marks it default; chosen: default.
/// - gt/lt: no source lists them for any /users property, so they are rejected (ge/le are the supported forms).
/// - Extension attributes support eq, ne and `eq null` [G-list]; the newer matrix marks onPremisesExtensionAttributes
///   advanced, and directory extensions are not in any matrix, so both are advanced.
/// - Collections: businessPhones, otherMails, proxyAddresses, imAddresses and assignedLicenses eq are default in the
///   newer matrix; the List users doc filters `assignedLicenses/any(u:u/skuId eq <guid>)` with no headers.
/// - signInActivity: eq, ne, not, ge, le (default in the newer matrix), and it cannot be combined with any other
///   filter property [G-user, G-list].
enum UserPropertyCatalog {
    /// The property named `name` (case-insensitive, as Graph matches names) and its canonical spelling.
    static func property(named name: String) -> (name: String, property: UserProperty)? {
        let key = name.lowercased()
        if let entry = properties[key] { return entry }
        if key.hasPrefix("extension_"), key.count > "extension_".count {
            return (name, .scalar(.extensionAttribute))
        }
        return nil
    }

    /// Canonical names of every property the catalog knows, for messages and tests.
    static var knownPropertyNames: [String] { properties.values.map(\.name).sorted() }

    /// Lower-cased name → canonical name and shape.
    private static let properties: [String: (name: String, property: UserProperty)] = {
        var table: [String: (name: String, property: UserProperty)] = [:]
        func add(_ names: [String], _ property: UserProperty) {
            for name in names { table[name.lowercased()] = (name, property) }
        }
        add(["id"], .scalar(UserPropertyRule(type: .string, equality: .standard)))
        add(
            ["userPrincipalName"],
            .scalar(
                UserPropertyRule(
                    type: .string, equality: .standard, startsWith: .standard, range: .advanced, endsWith: true)))
        add(
            [
                "displayName", "givenName", "surname", "jobTitle", "mailNickname", "department", "city", "country",
                "state", "usageLocation",
            ],
            .scalar(.indexedString))
        add(["mail"], .scalar(UserPropertyRule.indexedString.withEndsWith()))
        add(
            ["employeeId"],
            .scalar(
                UserPropertyRule(
                    type: .string, equality: .standard, startsWith: .standard, range: .advanced, equalsNull: .advanced))
        )
        add(["userType"], .scalar(UserPropertyRule(type: .string, equality: .standard, equalsNull: .advanced)))
        add(
            ["companyName", "mobilePhone", "officeLocation", "preferredLanguage", "postalCode", "streetAddress"],
            .scalar(.advancedString))
        add(
            ["faxNumber"],
            .scalar(UserPropertyRule(type: .string, equality: .advanced, startsWith: .advanced, equalsNull: .advanced)))
        add(["employeeType"], .scalar(UserPropertyRule(type: .string, equality: .advanced)))
        add(["accountEnabled"], .scalar(UserPropertyRule(type: .boolean, equality: .standard)))
        add(
            ["onPremisesSyncEnabled"],
            .scalar(UserPropertyRule(type: .boolean, equality: .standard, equalsNull: .advanced)))
        add(
            ["createdDateTime", "employeeHireDate"],
            .scalar(UserPropertyRule(type: .dateTimeOffset, equality: .advanced, range: .advanced)))
        add(
            ["businessPhones"],
            .collection(
                UserPropertyRule(
                    type: .string, equality: .standard, startsWith: .advanced, range: .advanced, negatable: false)))
        add(
            ["otherMails", "proxyAddresses"],
            .collection(
                UserPropertyRule(
                    type: .string, equality: .standard, startsWith: .standard, range: .advanced, endsWith: true)))
        add(
            ["imAddresses"],
            .collection(UserPropertyRule(type: .string, equality: .standard, startsWith: .standard, range: .advanced)))
        add(
            ["assignedLicenses"],
            .objectCollection([.init("skuId", UserPropertyRule(type: .guid, equality: .standard, negatable: false))]))
        let identityRule = UserPropertyRule(type: .string, equality: .standard, negatable: false)
        add(
            ["identities"],
            .objectCollection([
                .init("issuer", identityRule), .init("issuerAssignedId", identityRule),
                .init("signInType", identityRule),
            ]))
        let signInRule = UserPropertyRule(type: .dateTimeOffset, equality: .standard, range: .standard)
        add(
            ["signInActivity"],
            .object(
                [
                    .init("lastSignInDateTime", signInRule), .init("lastNonInteractiveSignInDateTime", signInRule),
                    .init("lastSuccessfulSignInDateTime", signInRule),
                ],
                exclusive: true))
        let attributes = (1...15).map { UserProperty.Member("extensionAttribute\($0)", .extensionAttribute) }
        add(["onPremisesExtensionAttributes"], .object(attributes, exclusive: false))
        return table
    }()
}
