import OData
import Testing

/// A filter and whether /users/delta accepts it.
struct DeltaCase: Sendable, CustomTestStringConvertible {
    let filter: String
    let supported: Bool
    var testDescription: String {
        filter.count > 60 ? "\(filter.prefix(60))… → \(supported)" : "\(filter) → \(supported)"
    }

    init(_ filter: String, _ supported: Bool) {
        self.filter = filter
        self.supported = supported
    }
}

private func ids(_ count: Int) -> String {
    (1...count).map { "id eq '\($0)'" }.joined(separator: " or ")
}

private let deltaCases: [DeltaCase] = [
    .init("id eq '8a8b5f3e-1c2d-4e5f-9a0b-1c2d3e4f5a6b'", true),
    .init("id eq 'a' or id eq 'b'", true),
    .init("ID eq 'a' or Id eq 'b'", true),
    .init("(id eq 'a' or id eq 'b') or id eq 'c'", true),
    .init(ids(50), true),
    .init(ids(51), false),
    .init("id in ('a', 'b')", false),
    .init("id eq 'a' and id eq 'b'", false),
    .init("id ne 'a'", false),
    .init("not (id eq 'a')", false),
    .init("id eq 8a8b5f3e-1c2d-4e5f-9a0b-1c2d3e4f5a6b", false),
    .init("displayName eq 'x'", false),
    .init("id eq 'a' or displayName eq 'b'", false),
    .init("startswith(id,'a')", false),
    .init("id/x eq 'a'", false),
]

/// Awkward user text that must stay one string literal once quoted.
private let quotedTexts: [String] = [
    "", "O'Brien", "''", "'", "Zoë Ångström", "') or (displayName ne '", "a'b''c", "#%&?=+", "line\nbreak",
    " leading and trailing ", "日本語", "\u{1F600}",
]

@Suite("Delta filters and string quoting")
struct DeltaAndQuoteTests {
    @Test("delta accepts only id eq terms joined by or, up to 50", arguments: deltaCases)
    func deltaSupport(_ testCase: DeltaCase) throws {
        #expect(try ODataFilter.parse(testCase.filter).deltaSupported() == testCase.supported)
    }

    @Test(
        "quote doubles single quotes",
        arguments: [("", "''"), ("O'Brien", "'O''Brien'"), ("''", "''''''"), ("Zoë", "'Zoë'"), ("a b", "'a b'")])
    func quoteEscapes(_ input: String, _ expected: String) {
        #expect(ODataFilter.quote(input) == expected)
    }

    @Test("quoted user text parses back as exactly one string literal", arguments: quotedTexts)
    func quotedTextIsOneLiteral(_ text: String) throws {
        let filter = "displayName eq \(ODataFilter.quote(text))"
        #expect(try ODataFilter.parse(filter) == .comparison("displayName", .equal, .string(text)))
    }

    @Test("a quoted value inside an in list stays a value", arguments: quotedTexts)
    func quotedTextInList(_ text: String) throws {
        let filter = "department in (\(ODataFilter.quote(text)), 'HR')"
        #expect(try ODataFilter.parse(filter) == .membership("department", [.string(text), .string("HR")]))
    }
}
