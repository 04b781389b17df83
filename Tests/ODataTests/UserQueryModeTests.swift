import OData
import Testing

/// What Graph does with a filter on /users.
enum ExpectedMode: Sendable, Equatable {
    case standard
    case advanced
    /// Rejected with 400 Request_UnsupportedQuery; every fragment must appear in the message.
    case unsupported([String])
}

/// A filter and how Graph treats it, per graph-facts.md §2.
struct ModeCase: Sendable, CustomTestStringConvertible {
    let filter: String
    let expected: ExpectedMode
    var testDescription: String { "\(filter) → \(expected)" }

    init(_ filter: String, _ expected: ExpectedMode) {
        self.filter = filter
        self.expected = expected
    }
}

private let sku = "cbdc14ab-d96c-4c30-b9f4-6ada7cdc1d46"
private let notIndexed = "the request uses a filter property that is not indexed"

private let standardCases: [ModeCase] = [
    "id eq '8a8b5f3e-1c2d-4e5f-9a0b-1c2d3e4f5a6b'",
    "id in ('a', 'b')",
    "userPrincipalName eq 'ann@contoso.com'",
    "startswith(userPrincipalName,'ann')",
    "displayName eq 'Ann'",
    "startswith(displayName,'A')",
    "displayName in ('Ann', 'Bo')",
    "givenName eq 'Ann'", "startswith(givenName,'A')",
    "surname eq 'Ek'", "startswith(surname,'E')",
    "jobTitle eq 'Dev'", "startswith(jobTitle,'D')",
    "mail eq 'ann@contoso.com'", "startswith(mail,'ann')",
    "mailNickname eq 'ann'",
    "department eq 'Sales'",
    "startswith(department,'Sa')",  // sources disagree; chosen: supported by default
    "city eq 'Oslo'", "country eq 'Norway'", "state eq 'WA'", "usageLocation eq 'NO'",
    "employeeId eq '00123'", "startswith(employeeId,'00')",
    "userType eq 'Member'", "userType in ('Member', 'Guest')",
    "accountEnabled eq true", "accountEnabled in (true, false)",
    "onPremisesSyncEnabled eq true",
    "businessPhones/any(p:p eq '+1 425 555 0100')",
    "businessPhones/any(p:p in ('1', '2'))",
    "otherMails/any(m:m eq 'a@b.com')",
    "proxyAddresses/any(x:startswith(x,'smtp:'))",
    "imAddresses/any(i:i eq 'sip:a@b.com')",
    "assignedLicenses/any(x:x/skuId eq \(sku))",
    "assignedLicenses/any(x:x/SKUID in (\(sku)))",
    "identities/any(c:c/issuerAssignedId eq 'j@x.com' and c/issuer eq 'contoso.onmicrosoft.com')",
    "signInActivity/lastSignInDateTime le 2024-01-31T00:00:00Z",
    "signInActivity/lastNonInteractiveSignInDateTime ge 2024-01-31T00:00:00Z",
    "signInActivity/lastSignInDateTime eq 2024-01-31T00:00:00Z"
        + " or signInActivity/lastSuccessfulSignInDateTime ge 2024-01-01T00:00:00Z",
    "DisplayName eq 'Ann'",
    "ACCOUNTENABLED eq true",
    "department eq 'Sales' and accountEnabled eq true and startswith(displayName,'A')",
    "(department eq 'Sales' or department eq 'HR') and userType eq 'Member'",
    "displayName eq 'O''Brien'",
].map { ModeCase($0, .standard) }

private let advancedCases: [ModeCase] = [
    // ne, not and endswith always need an advanced query.
    "displayName ne 'Ann'", "id ne 'a'", "accountEnabled ne true", "userType ne 'Guest'",
    "not (displayName eq 'Ann')", "not startswith(displayName,'A')", "not (accountEnabled eq true)",
    "not businessPhones/any(p:p eq '1')",
    "not (assignedLicenses/any(x:x/skuId eq \(sku)))",
    "endswith(mail,'@contoso.com')", "endswith(userPrincipalName,'@contoso.com')",
    "otherMails/any(m:endswith(m,'@contoso.com'))", "proxyAddresses/any(x:endswith(x,'@contoso.com'))",
    // eq null is advanced wherever it is supported.
    "displayName eq null", "givenName eq null", "surname eq null", "jobTitle eq null", "mail eq null",
    "department eq null", "city eq null", "userType eq null", "employeeId eq null", "mobilePhone eq null",
    "onPremisesSyncEnabled eq null", "jobTitle in (null, 'Dev')", "userType in (null)", "displayName ne null",
    // Properties whose eq/startsWith are advanced-only in the matrix.
    "mobilePhone eq '+1 555'", "startswith(mobilePhone,'+1')",
    "officeLocation eq 'B1'", "startswith(officeLocation,'B')",
    "companyName eq 'Contoso'", "startswith(companyName,'Con')", "companyName in ('Contoso')",
    "preferredLanguage eq 'en-US'", "startswith(preferredLanguage,'en')",
    "postalCode eq '0150'", "streetAddress eq 'Main St 1'", "faxNumber eq '1'",
    "employeeType eq 'Contractor'",
    "createdDateTime eq 2024-01-31T00:00:00Z", "createdDateTime ge 2024-01-31T00:00:00Z",
    "createdDateTime le 2024-01-31T00:00:00Z", "createdDateTime in (2024-01-31T00:00:00Z)",
    "employeeHireDate ge 2020-01-01T00:00:00Z",
    // ge/le on strings: default in one source, unmarked in the other; advanced works under both.
    "displayName ge 'A'", "userPrincipalName le 'm'", "mail ge 'a'",
    "businessPhones/any(p:startswith(p,'+1'))", "businessPhones/any(p:p ge '+1')",
    // Extension attributes.
    "onPremisesExtensionAttributes/extensionAttribute1 eq 'x'",
    "onPremisesExtensionAttributes/extensionAttribute15 eq null",
    "onPremisesExtensionAttributes/extensionAttribute3 ne 'x'",
    "extension_0123456789abcdef0123456789abcdef_team eq 'Blue'",
    "extension_0123456789abcdef0123456789abcdef_level eq 3",
    // One advanced part makes the whole query advanced.
    "displayName eq 'Ann' and endswith(mail,'@contoso.com')",
    "startswith(displayName,'A') or mobilePhone eq '1'",
    "accountEnabled eq true and not (userType eq 'Guest')",
].map { ModeCase($0, .advanced) }

private let unsupportedCases: [ModeCase] = [
    .init("foo eq 'x'", .unsupported(["could not find a property named 'foo'", "microsoft.graph.user"])),
    .init("not (foo eq 'x')", .unsupported(["'foo'"])),
    .init("manager/id eq 'x'", .unsupported(["could not find a property named 'manager/id'"])),
    .init("displayName/first eq 'x'", .unsupported(["could not find a property named 'displayName/first'"])),
    .init("id ge 'a'", .unsupported([notIndexed, "'id' does not support 'ge'"])),
    .init("startswith(id,'a')", .unsupported([notIndexed, "'id' does not support 'startswith'"])),
    .init("id eq null", .unsupported(["'id' does not support 'eq null'"])),
    .init("endswith(displayName,'x')", .unsupported(["'displayName' does not support 'endswith'", "mail"])),
    .init("endswith(department,'x')", .unsupported(["'department' does not support 'endswith'"])),
    .init("userPrincipalName eq null", .unsupported(["'userPrincipalName' does not support 'eq null'"])),
    .init("accountEnabled eq null", .unsupported(["'accountEnabled' does not support 'eq null'"])),
    .init("accountEnabled ne null", .unsupported(["'accountEnabled' does not support 'ne null'"])),
    .init("createdDateTime eq null", .unsupported(["'createdDateTime' does not support 'eq null'"])),
    .init("employeeType eq null", .unsupported(["'employeeType' does not support 'eq null'"])),
    .init("accountEnabled in (null)", .unsupported(["'accountEnabled' does not support 'in (null)'"])),
    .init("startswith(userType,'M')", .unsupported(["'userType' does not support 'startswith'"])),
    .init("startswith(accountEnabled,'t')", .unsupported(["'accountEnabled' does not support 'startswith'"])),
    .init("startswith(createdDateTime,'2024')", .unsupported(["'createdDateTime' does not support 'startswith'"])),
    .init("accountEnabled ge true", .unsupported(["'accountEnabled' does not support 'ge'"])),
    .init("userType le 'M'", .unsupported(["'userType' does not support 'le'"])),
    .init("faxNumber ge 'a'", .unsupported(["'faxNumber' does not support 'ge'"])),
    .init("displayName gt 'a'", .unsupported(["'displayName' does not support 'gt'", "use ge or le"])),
    .init("createdDateTime lt 2024-01-01T00:00:00Z", .unsupported(["'createdDateTime' does not support 'lt'"])),
    .init("id gt 'a'", .unsupported(["'id' does not support 'gt'"])),
    .init("contains(displayName,'a')", .unsupported(["'contains' is not supported", "'displayName'"])),
    .init("businessPhones eq '1'", .unsupported(["'businessPhones' is a collection", "businessPhones/any("])),
    .init("startswith(businessPhones,'+1')", .unsupported(["'businessPhones' is a collection"])),
    .init("businessPhones/all(p:p eq '1')", .unsupported(["'all' is not supported", "not(businessPhones/any"])),
    .init("businessPhones/any(p:p ne '1')", .unsupported(["'businessPhones' does not support 'ne'", "negate"])),
    .init("businessPhones/any(p:p eq null)", .unsupported(["'businessPhones' does not support 'eq null'"])),
    .init("businessPhones/any(p:endswith(p,'1'))", .unsupported(["'businessPhones' does not support 'endswith'"])),
    .init("businessPhones/any(p:p/number eq '1')", .unsupported(["strings with no properties"])),
    .init("businessPhones/any(p:displayName eq 'x')", .unsupported(["only the range variable 'p'", "'displayName'"])),
    .init("displayName/any(p:p eq '1')", .unsupported(["'displayName' is not a collection"])),
    .init("signInActivity/any(p:p eq '1')", .unsupported(["'signInActivity' is not a collection"])),
    .init("nothing/any(p:p eq '1')", .unsupported(["could not find a property named 'nothing'"])),
    .init(
        "assignedLicenses/any(x:businessPhones/any(p:p eq '1'))",
        .unsupported(["nested lambda"])),
    .init(
        "assignedLicenses/any(x:x eq '\(sku)')",
        .unsupported(["elements of 'assignedLicenses' are objects", "x/skuId"])),
    .init("assignedLicenses/any(x:x/servicePlanId eq \(sku))", .unsupported(["'assignedLicenses/servicePlanId'"])),
    .init(
        "assignedLicenses/any(x:x/skuId eq '\(sku)')",
        .unsupported([
            "A binary operator with incompatible types was detected", "'Edm.Guid' and 'Edm.String'",
            "operator kind 'Equal'", "assignedLicenses/skuId eq",
        ])),
    .init(
        "accountEnabled eq 'true'",
        .unsupported(["incompatible types", "'Edm.Boolean' and 'Edm.String'", "'accountEnabled eq 'true''"])),
    .init("displayName eq 1", .unsupported(["'Edm.String' and 'Edm.Int32'"])),
    .init("displayName eq 1.5", .unsupported(["'Edm.String' and 'Edm.Double'"])),
    .init("id eq \(sku)", .unsupported(["'Edm.String' and 'Edm.Guid'"])),
    .init("displayName in ('a', true)", .unsupported(["'Edm.String' and 'Edm.Boolean'"])),
    .init(
        "createdDateTime ge '2024-01-01'",
        .unsupported(["'Edm.DateTimeOffset' and 'Edm.String'", "operator kind 'GreaterThanOrEqual'"])),
    .init("createdDateTime ge 2024-01-01T00:00:00Z and displayName eq 1", .unsupported(["Edm.Int32"])),
    .init(
        "signInActivity/lastSignInDateTime le 2024-01-31T00:00:00Z and accountEnabled eq true",
        .unsupported(["'signInActivity' cannot be combined with any other filter property", "'accountEnabled'"])),
    .init(
        "startswith(displayName,'A') or signInActivity/lastSignInDateTime le 2024-01-31T00:00:00Z",
        .unsupported(["'signInActivity' cannot be combined", "'displayName'"])),
    .init("signInActivity eq null", .unsupported(["'signInActivity' is a complex property"])),
    .init(
        "signInActivity/lastSignInDateTime eq null",
        .unsupported(["'signInActivity/lastSignInDateTime' does not support 'eq null'"])),
    .init(
        "signInActivity/foo le 2024-01-31T00:00:00Z",
        .unsupported(["could not find a property named 'signInActivity/foo'"])),
    .init(
        "onPremisesExtensionAttributes/extensionAttribute16 eq 'x'",
        .unsupported(["'onPremisesExtensionAttributes/extensionAttribute16'"])),
    .init(
        "startswith(onPremisesExtensionAttributes/extensionAttribute1,'x')",
        .unsupported(["'onPremisesExtensionAttributes/extensionAttribute1' does not support 'startswith'"])),
    .init("extension_ eq 'x'", .unsupported(["could not find a property named 'extension_'"])),
]

@Suite("Graph /users query modes")
struct UserQueryModeTests {
    @Test("default queries need no ConsistencyLevel", arguments: standardCases)
    func standard(_ testCase: ModeCase) throws {
        try check(testCase)
    }

    @Test("advanced-only filters are flagged for ConsistencyLevel and $count", arguments: advancedCases)
    func advanced(_ testCase: ModeCase) throws {
        try check(testCase)
    }

    @Test("filters Graph rejects throw a message naming the property and operator", arguments: unsupportedCases)
    func unsupported(_ testCase: ModeCase) throws {
        try check(testCase)
    }

    @Test("rejections read like Graph's Request_UnsupportedQuery messages")
    func messagesStartLikeGraph() throws {
        for testCase in unsupportedCases {
            #expect(throws: UnsupportedFilterError.self) { try ODataFilter.parse(testCase.filter).userQueryMode() }
            do {
                _ = try ODataFilter.parse(testCase.filter).userQueryMode()
            } catch let error as UnsupportedFilterError {
                let graphLike =
                    error.message.hasPrefix("Unsupported Query: ")
                    || error.message.hasPrefix("A binary operator with incompatible types was detected.")
                #expect(graphLike, "\(error.message)")
                #expect(error.description == error.message)
            }
        }
    }

    private func check(_ testCase: ModeCase) throws {
        let expression = try ODataFilter.parse(testCase.filter)
        switch testCase.expected {
        case .standard:
            #expect(try expression.userQueryMode() == .standard)
        case .advanced:
            #expect(try expression.userQueryMode() == .advanced)
        case .unsupported(let fragments):
            do {
                let mode = try expression.userQueryMode()
                Issue.record("expected a rejection, got \(mode)")
            } catch {
                for fragment in fragments {
                    #expect(error.message.contains(fragment), "\(error.message)")
                }
            }
        }
    }
}
