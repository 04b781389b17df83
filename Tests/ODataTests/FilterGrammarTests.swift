import OData
import Testing

/// One valid filter and the tree it must parse to.
struct GrammarCase: Sendable, CustomTestStringConvertible {
    let filter: String
    let expected: FilterExpression
    var testDescription: String { filter }
}

private let guid = "cbdc14ab-d96c-4c30-b9f4-6ada7cdc1d46"
private let aEq1 = FilterExpression.comparison("a", .equal, .number(1))
private let bEq2 = FilterExpression.comparison("b", .equal, .number(2))
private let cEq3 = FilterExpression.comparison("c", .equal, .number(3))

private let grammarCases: [GrammarCase] = [
    .init(filter: "displayName eq 'Ann'", expected: .comparison("displayName", .equal, .string("Ann"))),
    .init(filter: "displayName EQ 'Ann'", expected: .comparison("displayName", .equal, .string("Ann"))),
    .init(filter: "  displayName\teq\n'Ann'  ", expected: .comparison("displayName", .equal, .string("Ann"))),
    .init(filter: "givenName ne null", expected: .comparison("givenName", .notEqual, .null)),
    .init(filter: "jobTitle eq NULL", expected: .comparison("jobTitle", .equal, .null)),
    .init(filter: "accountEnabled eq true", expected: .comparison("accountEnabled", .equal, .bool(true))),
    .init(filter: "accountEnabled eq FALSE", expected: .comparison("accountEnabled", .equal, .bool(false))),
    .init(filter: "age gt 41", expected: .comparison("age", .greaterThan, .number(41))),
    .init(filter: "age ge 42", expected: .comparison("age", .greaterThanOrEqual, .number(42))),
    .init(filter: "age lt -2.5", expected: .comparison("age", .lessThan, .number(-2.5))),
    .init(filter: "age le 1e3", expected: .comparison("age", .lessThanOrEqual, .number(1000))),
    .init(filter: "age eq 2.5E-1", expected: .comparison("age", .equal, .number(0.25))),
    .init(filter: "surname eq 'O''Brien'", expected: .comparison("surname", .equal, .string("O'Brien"))),
    .init(filter: "surname eq ''", expected: .comparison("surname", .equal, .string(""))),
    .init(filter: "surname eq ''''", expected: .comparison("surname", .equal, .string("'"))),
    .init(
        filter: "surname eq 'a and b or not c'", expected: .comparison("surname", .equal, .string("a and b or not c"))),
    .init(
        filter: "displayName eq 'Zoë Ångström'", expected: .comparison("displayName", .equal, .string("Zoë Ångström"))),
    .init(filter: "id eq '\(guid)'", expected: .comparison("id", .equal, .string(guid))),
    .init(filter: "id eq \(guid)", expected: .comparison("id", .equal, .guid(guid))),
    .init(
        filter: "createdDateTime ge 2024-01-31T00:00:00Z",
        expected: .comparison("createdDateTime", .greaterThanOrEqual, .dateTimeOffset("2024-01-31T00:00:00Z"))),
    .init(
        filter: "signInActivity/lastSignInDateTime le 2024-01-31T08:30:00.5+02:00",
        expected: .comparison(
            "signInActivity/lastSignInDateTime", .lessThanOrEqual, .dateTimeOffset("2024-01-31T08:30:00.5+02:00"))),
    .init(filter: "id in ('a', 'b','c')", expected: .membership("id", [.string("a"), .string("b"), .string("c")])),
    .init(filter: "jobTitle IN (null, 'Dev')", expected: .membership("jobTitle", [.null, .string("Dev")])),
    .init(filter: "startswith(displayName,'Al')", expected: .stringFunction(.startsWith, "displayName", "Al")),
    .init(filter: "startsWith(displayName, 'Al')", expected: .stringFunction(.startsWith, "displayName", "Al")),
    .init(filter: "ENDSWITH(mail,'@contoso.com')", expected: .stringFunction(.endsWith, "mail", "@contoso.com")),
    .init(filter: "endsWith ( mail , 'x' )", expected: .stringFunction(.endsWith, "mail", "x")),
    .init(filter: "contains(displayName,'x')", expected: .stringFunction(.contains, "displayName", "x")),
    .init(
        filter: "startswith(onPremisesExtensionAttributes/extensionAttribute1,'x')",
        expected: .stringFunction(.startsWith, "onPremisesExtensionAttributes/extensionAttribute1", "x")),
    .init(filter: "manager/displayName eq 'Bob'", expected: .comparison("manager/displayName", .equal, .string("Bob"))),
    .init(
        filter: "businessPhones/any(p:p eq '+1 555')",
        expected: .lambda(
            .any, collection: "businessPhones", variable: "p", predicate: .comparison("p", .equal, .string("+1 555")))),
    .init(
        filter: "businessPhones/any(p: startswith(p, '+1'))",
        expected: .lambda(
            .any, collection: "businessPhones", variable: "p", predicate: .stringFunction(.startsWith, "p", "+1"))),
    .init(
        filter: "businessPhones/ANY(p:p in ('1', '2'))",
        expected: .lambda(
            .any, collection: "businessPhones", variable: "p",
            predicate: .membership("p", [.string("1"), .string("2")]))),
    .init(
        filter: "businessPhones/all(p:startswith(p,'+1'))",
        expected: .lambda(
            .all, collection: "businessPhones", variable: "p", predicate: .stringFunction(.startsWith, "p", "+1"))),
    .init(
        filter: "assignedLicenses/any(x:x/skuId eq \(guid))",
        expected: .lambda(
            .any, collection: "assignedLicenses", variable: "x",
            predicate: .comparison("x/skuId", .equal, .guid(guid)))),
    .init(
        filter: "identities/any(c:c/issuerAssignedId eq 'j@x.com' and c/issuer eq 'contoso')",
        expected: .lambda(
            .any, collection: "identities", variable: "c",
            predicate: .and([
                .comparison("c/issuerAssignedId", .equal, .string("j@x.com")),
                .comparison("c/issuer", .equal, .string("contoso")),
            ]))),
    // Precedence: not > comparison > and > or.
    .init(filter: "a eq 1 or b eq 2 and c eq 3", expected: .or([aEq1, .and([bEq2, cEq3])])),
    .init(filter: "a eq 1 and b eq 2 or c eq 3", expected: .or([.and([aEq1, bEq2]), cEq3])),
    .init(filter: "(a eq 1 or b eq 2) and c eq 3", expected: .and([.or([aEq1, bEq2]), cEq3])),
    .init(filter: "a eq 1 AND b eq 2 OR c eq 3", expected: .or([.and([aEq1, bEq2]), cEq3])),
    .init(filter: "a eq 1 and (b eq 2 and c eq 3)", expected: .and([aEq1, bEq2, cEq3])),
    .init(filter: "(a eq 1 or b eq 2) or c eq 3", expected: .or([aEq1, bEq2, cEq3])),
    .init(filter: "((a eq 1))", expected: aEq1),
    .init(
        filter: "not startswith(a,'x') and b eq 2",
        expected: .and([.not(.stringFunction(.startsWith, "a", "x")), bEq2])),
    .init(filter: "not (a eq 1 or b eq 2)", expected: .not(.or([aEq1, bEq2]))),
    .init(filter: "not(a eq 1) or b eq 2", expected: .or([.not(aEq1), bEq2])),
    .init(filter: "not not startswith(a,'x')", expected: .not(.not(.stringFunction(.startsWith, "a", "x")))),
    .init(
        filter: "NOT(businessPhones/any(p:p eq '1'))",
        expected: .not(
            .lambda(
                .any, collection: "businessPhones", variable: "p", predicate: .comparison("p", .equal, .string("1"))))),
    .init(
        filter: "not businessPhones/any(p:p eq '1')",
        expected: .not(
            .lambda(
                .any, collection: "businessPhones", variable: "p", predicate: .comparison("p", .equal, .string("1"))))),
    .init(
        filter: "extension_0123456789abcdef0123456789abcdef_team eq 'x'",
        expected: .comparison("extension_0123456789abcdef0123456789abcdef_team", .equal, .string("x"))),
]

@Suite("Filter grammar")
struct FilterGrammarTests {
    @Test("valid filters parse to the expected tree", arguments: grammarCases)
    func parsesValidFilter(_ testCase: GrammarCase) throws {
        #expect(try ODataFilter.parse(testCase.filter) == testCase.expected)
    }

    @Test("a filter nested 100 levels deep is still accepted")
    func acceptsDeepNesting() throws {
        let filter = String(repeating: "(", count: 100) + "a eq 1" + String(repeating: ")", count: 100)
        #expect(try ODataFilter.parse(filter) == aEq1)
    }

    @Test("a long chain of or terms stays one flat node")
    func flattensLongChains() throws {
        let filter = (1...500).map { "id eq '\($0)'" }.joined(separator: " or ")
        guard case .or(let terms) = try ODataFilter.parse(filter) else {
            Issue.record("expected an or node")
            return
        }
        #expect(terms.count == 500)
    }
}
