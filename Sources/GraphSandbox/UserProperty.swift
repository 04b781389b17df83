/// The catalog of Graph `user` property names the sandbox knows, with Graph's rules about which are
/// returned by default, which exist only on a single user, and which it serves with real data.
enum UserProperty {
    /// Returned when the request has no `$select`, in Graph's documented order.
    static let defaultSet: [String] = [
        "businessPhones", "displayName", "givenName", "jobTitle", "mail", "mobilePhone",
        "officeLocation", "preferredLanguage", "surname", "userPrincipalName", "id",
    ]

    /// Properties with data in the sandbox tenant.
    static let served: [String] =
        defaultSet + [
            "department", "companyName", "accountEnabled", "userType", "employeeId", "employeeType",
            "city", "state", "country", "postalCode", "streetAddress", "usageLocation", "mailNickname",
            "faxNumber", "createdDateTime", "otherMails", "proxyAddresses",
        ]

    /// Real `user` properties the sandbox has no data for: selecting them is valid and yields null or [].
    static let unpopulated: [String] = [
        "ageGroup", "consentProvidedForMinor", "creationType", "deletedDateTime", "employeeHireDate",
        "employeeLeaveDateTime", "employeeOrgData", "externalUserState", "externalUserStateChangeDateTime",
        "isResourceAccount", "lastPasswordChangeDateTime", "legalAgeGroupClassification",
        "onPremisesDistinguishedName", "onPremisesDomainName", "onPremisesExtensionAttributes",
        "onPremisesImmutableId", "onPremisesLastSyncDateTime", "onPremisesSamAccountName",
        "onPremisesSecurityIdentifier", "onPremisesSyncEnabled", "onPremisesUserPrincipalName",
        "passwordPolicies", "passwordProfile", "preferredDataLocation", "securityIdentifier",
        "showInAddressList", "signInActivity", "signInSessionsValidFromDateTime", "authorizationInfo",
        "customSecurityAttributes",
    ]

    /// Collection-valued unpopulated properties, which come back as `[]` rather than null.
    static let unpopulatedCollections: [String] = [
        "assignedLicenses", "assignedPlans", "identities", "imAddresses", "licenseAssignmentStates",
        "onPremisesProvisioningErrors", "provisionedPlans", "serviceProvisioningErrors",
    ]

    /// Properties Graph returns only for a single user; on the collection they give 501 NotImplemented.
    static let singleUserOnly: [String] = [
        "aboutMe", "birthday", "hireDate", "interests", "mySite", "pastProjects", "preferredName",
        "responsibilities", "schools", "skills", "mailboxSettings",
    ]

    /// Navigation properties of `user` that `$expand` knows about (only `manager` is implemented).
    static let navigation: [String] = [
        "manager", "directReports", "memberOf", "transitiveMemberOf", "ownedDevices", "ownedObjects",
        "registeredDevices", "createdObjects", "sponsors", "photo", "photos", "extensions",
    ]

    private static let canonicalByLowercase: [String: String] = {
        var map: [String: String] = [:]
        for name in served + unpopulated + unpopulatedCollections + singleUserOnly {
            map[name.lowercased()] = name
        }
        return map
    }()

    /// Graph matches property names case-insensitively and answers with the declared spelling.
    static func canonicalName(_ name: String) -> String? {
        canonicalByLowercase[name.lowercased()]
    }

    /// The declared spelling of a navigation property, matched case-insensitively.
    static func canonicalNavigation(_ name: String) -> String? {
        navigation.first { $0.caseInsensitiveCompare(name) == .orderedSame }
    }
}

/// Property values of a user by Graph name, as JSON.
extension SandboxUser {
    /// The JSON value of one property by canonical name; unknown names give `nil`.
    func jsonValue(forProperty name: String) -> JSONNode? {
        switch name {
        case "id": return .string(id)
        case "userPrincipalName": return .string(userPrincipalName)
        case "displayName": return .string(displayName)
        case "givenName": return .optional(givenName)
        case "surname": return .optional(surname)
        case "mail": return .optional(mail)
        case "businessPhones": return .array(businessPhones.map(JSONNode.string))
        case "mobilePhone": return .optional(mobilePhone)
        case "jobTitle": return .optional(jobTitle)
        case "officeLocation": return .optional(officeLocation)
        case "preferredLanguage": return .optional(preferredLanguage)
        case "department": return .optional(department)
        case "companyName": return .optional(companyName)
        case "accountEnabled": return .bool(accountEnabled)
        case "userType": return .string(userType)
        case "employeeId": return .optional(employeeId)
        case "employeeType": return .optional(employeeType)
        case "city": return .optional(city)
        case "state": return .optional(state)
        case "country": return .optional(country)
        case "postalCode": return .optional(postalCode)
        case "streetAddress": return .optional(streetAddress)
        case "usageLocation": return .optional(usageLocation)
        case "mailNickname": return .string(mailNickname)
        case "faxNumber": return .optional(faxNumber)
        case "createdDateTime": return .string(createdDateTime)
        case "otherMails": return .array(otherMails.map(JSONNode.string))
        case "proxyAddresses": return .array(proxyAddresses.map(JSONNode.string))
        default:
            if UserProperty.unpopulatedCollections.contains(name) { return .array([]) }
            if UserProperty.unpopulated.contains(name) || UserProperty.singleUserOnly.contains(name) {
                return .null
            }
            return nil
        }
    }
}
