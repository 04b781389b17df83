import OData
import Testing

/// A filter and the canonical text it must print as.
struct CanonicalCase: Sendable, CustomTestStringConvertible {
    let filter: String
    let canonical: String
    var testDescription: String { filter }
}

private let canonicalCases: [CanonicalCase] = [
    .init(filter: "displayName EQ 'O''Brien'", canonical: "displayName eq 'O''Brien'"),
    .init(filter: "  givenName   ne   NULL ", canonical: "givenName ne null"),
    .init(filter: "accountEnabled eq TRUE", canonical: "accountEnabled eq true"),
    .init(filter: "age eq 1.0", canonical: "age eq 1"),
    .init(filter: "age eq -0.5", canonical: "age eq -0.5"),
    .init(filter: "age eq 1e-7", canonical: "age eq 1e-07"),
    .init(filter: "age eq 12345678901", canonical: "age eq 12345678901"),
    .init(filter: "id in ('a','b')", canonical: "id in ('a', 'b')"),
    .init(filter: "startsWith( displayName , 'A' )", canonical: "startswith(displayName,'A')"),
    .init(filter: "NOT startsWith(a, 'x')", canonical: "not startswith(a,'x')"),
    .init(filter: "not(a eq 1)", canonical: "not (a eq 1)"),
    .init(filter: "not (a eq 1 or b eq 2)", canonical: "not (a eq 1 or b eq 2)"),
    .init(filter: "a eq 1 or b eq 2 and c eq 3", canonical: "a eq 1 or b eq 2 and c eq 3"),
    .init(filter: "(a eq 1 or b eq 2) and c eq 3", canonical: "(a eq 1 or b eq 2) and c eq 3"),
    .init(filter: "a eq 1 and (b eq 2 or c eq 3)", canonical: "a eq 1 and (b eq 2 or c eq 3)"),
    .init(filter: "a eq 1 and (b eq 2 and c eq 3)", canonical: "a eq 1 and b eq 2 and c eq 3"),
    .init(filter: "((a eq 1))", canonical: "a eq 1"),
    .init(filter: "businessPhones/ANY(p: p eq '1')", canonical: "businessPhones/any(p:p eq '1')"),
    .init(
        filter: "assignedLicenses/any(x:x/skuId eq CBDC14AB-D96C-4C30-B9F4-6ADA7CDC1D46)",
        canonical: "assignedLicenses/any(x:x/skuId eq CBDC14AB-D96C-4C30-B9F4-6ADA7CDC1D46)"),
    .init(filter: "createdDateTime ge 2024-01-31T00:00:00Z", canonical: "createdDateTime ge 2024-01-31T00:00:00Z"),
    .init(filter: "NOT(businessPhones/any(p:p eq '1'))", canonical: "not businessPhones/any(p:p eq '1')"),
]

/// A deterministic pseudo-random source (SplitMix64), so generated cases are the same on every run.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// Builds random expressions in the parser's normal form (flattened and/or with two or more terms).
private struct ExpressionGenerator {
    var random: SplitMix
    let names = ["displayName", "mail", "accountEnabled", "signInActivity/lastSignInDateTime", "x_1", "Ünïcode"]
    let strings = ["", "a", "O'Brien", "''", "Zoë Ångström", "a and b", ") or (1 eq 1", "#%&/", "line\nbreak", "日本"]

    mutating func pick<T>(_ values: [T]) -> T {
        values[Int.random(in: 0..<values.count, using: &random)]
    }

    mutating func literal() -> FilterLiteral {
        switch Int.random(in: 0..<7, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &random)))
        case 3: return .number(Double.random(in: -1e6...1e6, using: &random))
        case 4: return .guid(pick(["cbdc14ab-d96c-4c30-b9f4-6ada7cdc1d46", "CBDC14AB-D96C-4C30-B9F4-6ADA7CDC1D46"]))
        case 5: return .dateTimeOffset(pick(["2024-01-31T00:00:00Z", "1999-12-31T23:59:59.999+05:30"]))
        default: return .string(pick(strings))
        }
    }

    mutating func expression(depth: Int) -> FilterExpression {
        let leafOnly = depth <= 0
        switch Int.random(in: 0..<(leafOnly ? 3 : 7), using: &random) {
        case 0:
            return .comparison(PropertyPath(pick(names)), pick(ComparisonOperator.allCases), literal())
        case 1:
            return .membership(
                PropertyPath(pick(names)), (0..<Int.random(in: 1...3, using: &random)).map { _ in literal() })
        case 2:
            return .stringFunction(pick(StringFunction.allCases), PropertyPath(pick(names)), pick(strings))
        case 3:
            let variable = pick(["p", "x"])
            return .lambda(
                pick(LambdaOperator.allCases), collection: PropertyPath(pick(names)), variable: variable,
                predicate: .comparison(PropertyPath(variable), .equal, literal()))
        case 4:
            return .not(expression(depth: depth - 1))
        case 5:
            return .and(terms(depth: depth) { if case .and = $0 { return false } else { return true } })
        default:
            return .or(terms(depth: depth) { if case .or = $0 { return false } else { return true } })
        }
    }

    /// Two to four terms that are not themselves of the enclosing connective (the parser would flatten them).
    private mutating func terms(depth: Int, allowed: (FilterExpression) -> Bool) -> [FilterExpression] {
        var result: [FilterExpression] = []
        let count = Int.random(in: 2...4, using: &random)
        while result.count < count {
            let term = expression(depth: depth - 1)
            if allowed(term) { result.append(term) }
        }
        return result
    }
}

@Suite("Canonical text")
struct FilterRoundTripTests {
    @Test("filters print in canonical form", arguments: canonicalCases)
    func printsCanonicalText(_ testCase: CanonicalCase) throws {
        #expect(try ODataFilter.parse(testCase.filter).text == testCase.canonical)
    }

    @Test("canonical text parses back to an equal expression", arguments: canonicalCases)
    func reparsesCanonicalText(_ testCase: CanonicalCase) throws {
        let expression = try ODataFilter.parse(testCase.filter)
        #expect(try ODataFilter.parse(expression.text) == expression)
        #expect(try ODataFilter.parse(expression.text).text == expression.text)
    }

    @Test("every grammar example round-trips through its text")
    func grammarExamplesRoundTrip() throws {
        let filters = [
            "businessPhones/any(p: startswith(p, '+1')) and not (jobTitle eq null or department in ('HR', 'IT'))",
            "identities/any(c:c/issuerAssignedId eq 'j@x.com' and c/issuer eq 'contoso') or mail ge 'm'",
            "not not startswith(a,'x') and (b lt 2 or c gt -3.25) and endswith(mail,'''@x.com''')",
        ]
        for filter in filters {
            let expression = try ODataFilter.parse(filter)
            #expect(try ODataFilter.parse(expression.text) == expression, "\(filter)")
        }
    }

    @Test("500 generated expressions survive text → parse unchanged")
    func generatedExpressionsRoundTrip() throws {
        var generator = ExpressionGenerator(random: SplitMix(state: 20_240_131))
        for _ in 0..<500 {
            let expression = generator.expression(depth: 4)
            let reparsed = try ODataFilter.parse(expression.text)
            #expect(reparsed == expression, "\(expression.text)")
        }
    }
}
