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
        UserField(property: name).map { value(of: $0).node }
    }

    /// One field's value: the single place that maps Graph properties to the sandbox's data.
    func value(of field: UserField) -> UserField.Value {
        switch field {
        case .id: .text(id)
        case .userPrincipalName: .text(userPrincipalName)
        case .displayName: .text(displayName)
        case .givenName: .optionalText(givenName)
        case .surname: .optionalText(surname)
        case .mail: .optionalText(mail)
        case .businessPhones: .texts(businessPhones)
        case .mobilePhone: .optionalText(mobilePhone)
        case .jobTitle: .optionalText(jobTitle)
        case .officeLocation: .optionalText(officeLocation)
        case .preferredLanguage: .optionalText(preferredLanguage)
        case .department: .optionalText(department)
        case .companyName: .optionalText(companyName)
        case .accountEnabled: .flag(accountEnabled)
        case .userType: .text(userType)
        case .employeeId: .optionalText(employeeId)
        case .employeeType: .optionalText(employeeType)
        case .city: .optionalText(city)
        case .state: .optionalText(state)
        case .country: .optionalText(country)
        case .postalCode: .optionalText(postalCode)
        case .streetAddress: .optionalText(streetAddress)
        case .usageLocation: .optionalText(usageLocation)
        case .mailNickname: .text(mailNickname)
        case .faxNumber: .optionalText(faxNumber)
        case .createdDateTime: .text(createdDateTime)
        case .otherMails: .texts(otherMails)
        case .proxyAddresses: .texts(proxyAddresses)
        case .unpopulated: .optionalText(nil)
        case .unpopulatedCollection: .texts([])
        }
    }
}
