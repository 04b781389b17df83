import OData
import Testing

/// One malformed filter, the exact column of the error and a fragment its message must contain.
struct MalformedCase: Sendable, CustomTestStringConvertible {
    let filter: String
    let column: Int
    let fragment: String
    var testDescription: String { "\(filter.debugDescription) → column \(column)" }
}

private let malformedCases: [MalformedCase] = [
    .init(filter: "", column: 1, fragment: "empty filter"),
    .init(filter: "   ", column: 4, fragment: "empty filter"),
    .init(filter: "displayName eq 'Ann", column: 16, fragment: "unterminated string literal"),
    .init(filter: "displayName eq 'O''Brien", column: 16, fragment: "unterminated string literal"),
    .init(filter: "displayName eqq 'Ann'", column: 13, fragment: "unknown operator 'eqq'"),
    .init(filter: "displayName equals 'Ann'", column: 13, fragment: "expected eq, ne, gt, ge, lt, le or in"),
    .init(
        filter: "displayName", column: 12,
        fragment: "expected an operator (eq, ne, gt, ge, lt, le, in) after 'displayName'"),
    .init(filter: "displayName and x eq 1", column: 13, fragment: "expected an operator"),
    .init(filter: "displayName 'Ann'", column: 13, fragment: "expected an operator"),
    .init(filter: "displayName eq", column: 15, fragment: "expected a literal after 'eq', found the end of the filter"),
    .init(filter: "displayName eq surname", column: 16, fragment: "comparing two properties is not supported"),
    .init(filter: "displayName eq 'a' 'b'", column: 20, fragment: "expected 'and', 'or' or the end of the filter"),
    .init(filter: "displayName eq 'a' surname eq 'b'", column: 20, fragment: "found 'surname'"),
    .init(filter: "displayName eq 'a')", column: 19, fragment: "unexpected ')' without a matching '('"),
    .init(filter: "(displayName eq 'a'", column: 20, fragment: "expected ')' to close the '(' at column 1"),
    .init(filter: "()", column: 2, fragment: "expected an expression inside '()'"),
    .init(filter: "displayName eq 'a' and", column: 23, fragment: "expected an expression after 'and'"),
    .init(
        filter: "displayName eq 'a' or or b eq 1", column: 23, fragment: "expected an expression after 'or', found 'or'"
    ),
    .init(filter: "eq eq 'a'", column: 1, fragment: "expected an expression, found 'eq'"),
    .init(filter: "'a' eq displayName", column: 1, fragment: "a comparison starts with the property"),
    .init(filter: "not displayName eq 'a'", column: 5, fragment: "expected '(' after 'not'"),
    .init(filter: "not displayName eq 'a'", column: 5, fragment: "not (displayName eq 'a')"),
    .init(filter: "not", column: 4, fragment: "expected '(' or a function after 'not'"),
    .init(filter: "displayName eq 'a' and not", column: 27, fragment: "expected '(' or a function after 'not'"),
    .init(filter: "startswith(displayName,'a'", column: 27, fragment: "expected ')' after argument list"),
    .init(filter: "startswith(displayName,'a' or", column: 28, fragment: "expected ')' after argument list"),
    .init(
        filter: "startswith(displayName 'a')", column: 24,
        fragment: "expected ',' after the first argument of startswith"),
    .init(
        filter: "startswith(displayName, surname)", column: 25,
        fragment: "expected a string literal as the second argument of startswith"),
    .init(filter: "endswith(mail, 5)", column: 16, fragment: "second argument of endswith"),
    .init(
        filter: "startswith('a', displayName)", column: 12,
        fragment: "expected a property name as the first argument of startswith"),
    .init(filter: "substringof('a',displayName)", column: 1, fragment: "unknown function 'substringof'"),
    .init(filter: "displayName eq \"a\"", column: 16, fragment: "string literals use single quotes"),
    .init(filter: "displayName eq 'a' # x", column: 20, fragment: "unexpected character '#'"),
    .init(filter: "-", column: 1, fragment: "unexpected character '-'"),
    .init(filter: "id in 'a'", column: 7, fragment: "expected '(' after 'in'"),
    .init(filter: "id in ('a' 'b')", column: 12, fragment: "expected ',' or ')' in the 'in' list"),
    .init(filter: "id in ()", column: 8, fragment: "expected a literal after 'in ('"),
    .init(filter: "id in ('a',)", column: 12, fragment: "expected a literal after ','"),
    .init(filter: "businessPhones/any(p p eq '1')", column: 22, fragment: "expected ':' after range variable 'p'"),
    .init(filter: "businessPhones/any()", column: 20, fragment: "expected a range variable in any()"),
    .init(filter: "businessPhones/any(p:p eq '1'", column: 30, fragment: "expected ')' to close any("),
    .init(filter: "businessPhones/some(p:p eq '1')", column: 16, fragment: "unknown collection operator 'some'"),
    .init(filter: "displayName/ eq 'a'", column: 13, fragment: "expected a property name after '/', found a space"),
    .init(filter: "displayName/", column: 13, fragment: "expected a property name after '/', found the end"),
    .init(filter: "displayName/'a' eq 'a'", column: 13, fragment: "expected a property name after '/', found ''a''"),
    .init(filter: "businessPhones /any(p:p eq '1')", column: 15, fragment: "unexpected space before '/'"),
    .init(filter: "startswith(a/ b,'x')", column: 14, fragment: "expected a property name after '/', found a space"),
    .init(filter: "employeeId eq 12abc", column: 15, fragment: "invalid number literal '12abc'"),
    .init(filter: "employeeId eq 1.2.3", column: 15, fragment: "invalid number literal '1.2.3'"),
    .init(filter: "age eq 1e999", column: 8, fragment: "out of range"),
    .init(filter: "createdDateTime ge 2024-13-01T00:00:00Z", column: 20, fragment: "invalid date-time literal"),
    .init(filter: "createdDateTime ge 2024-01-01", column: 20, fragment: "expected a date, time and zone"),
    .init(filter: "createdDateTime ge 2024-01-01T00:00:00", column: 20, fragment: "invalid date-time literal"),
    .init(filter: "createdDateTime ge 2023-02-29T00:00:00Z", column: 20, fragment: "invalid date-time literal"),
    // Columns count characters as an editor shows them, accents included (precomposed or not).
    .init(filter: "displayName eq 'Zoë' andd x eq 1", column: 22, fragment: "found 'andd'"),
    .init(filter: "displayName eq 'Zoe\u{301}' andd x eq 1", column: 22, fragment: "found 'andd'"),
    .init(
        filter: String(repeating: "(", count: 101) + "a eq 1" + String(repeating: ")", count: 101), column: 101,
        fragment: "nests deeper than 100 levels"),
]

@Suite("Malformed filters")
struct FilterSyntaxErrorTests {
    @Test(
        "malformed filters fail at the exact column with a message naming what was expected",
        arguments: malformedCases)
    func rejectsMalformedFilter(_ testCase: MalformedCase) {
        #expect {
            _ = try ODataFilter.parse(testCase.filter)
        } throws: { error in
            guard let error = error as? FilterSyntaxError else { return false }
            return error.column == testCase.column && error.message.contains(testCase.fragment)
        }
        // Show the real error when the expectation above fails.
        do {
            _ = try ODataFilter.parse(testCase.filter)
        } catch {
            #expect(error.column == testCase.column, "\(error)")
            #expect(error.message.contains(testCase.fragment), "\(error)")
        }
    }

    @Test("the description leads with the column so config errors point at it")
    func describesColumn() {
        let error = FilterSyntaxError(message: "unknown operator 'eqq'", column: 13)
        #expect(error.description == "column 13: unknown operator 'eqq'")
    }
}
