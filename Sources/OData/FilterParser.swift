/// Recursive-descent parser for Graph's `$filter` subset.
///
/// Grammar (OData precedence: `not` binds tighter than comparisons, then `and`, then `or`):
///
///     filter     = or END
///     or         = and *( "or" and )
///     and        = unary *( "and" unary )
///     unary      = "not" notOperand / term
///     notOperand = "not" notOperand / "(" or ")" / function / path "/" lambda
///     term       = "(" or ")" / function / path ( "/" lambda / operator literal / "in" list )
///     list       = "(" literal *( "," literal ) ")"
///     function   = ( "startswith" / "endswith" / "contains" ) "(" path "," string ")"
///     lambda     = ( "any" / "all" ) "(" variable ":" or ")"
///
/// Because `not` binds tighter than `eq`, `not displayName eq 'x'` is rejected with a hint to write
/// `not (displayName eq 'x')`, instead of silently meaning something else.
struct FilterParser {
    /// Deepest nesting of parentheses, `not` and lambdas accepted; the sandbox parses untrusted text,
    /// and a bound keeps recursion far from the (small) stack of a concurrency thread.
    static let maximumDepth = 100

    private var lexer: FilterLexer
    private var current: FilterToken
    private var depth = 0

    /// Creates a parser positioned on the first token.
    init(_ text: String) throws(FilterSyntaxError) {
        lexer = FilterLexer(text)
        current = try lexer.next()
    }

    /// Parses the whole text as one expression.
    mutating func parseFilter() throws(FilterSyntaxError) -> FilterExpression {
        if current.kind == .end {
            throw FilterSyntaxError(message: "empty filter: expected an expression", column: current.column)
        }
        let expression = try parseOr()
        switch current.kind {
        case .end:
            return expression
        case .rightParenthesis:
            throw FilterSyntaxError(message: "unexpected ')' without a matching '('", column: current.column)
        default:
            throw FilterSyntaxError(
                message: "expected 'and', 'or' or the end of the filter, found \(current.quoted)",
                column: current.column)
        }
    }

    // MARK: - Boolean structure

    /// `a or b or ...`, the loosest-binding level.
    private mutating func parseOr() throws(FilterSyntaxError) -> FilterExpression {
        var terms: [FilterExpression] = []
        append(try parseAnd(), to: &terms, flattening: .or)
        while current.isKeyword("or") {
            try advance()
            append(try parseAnd(after: "or"), to: &terms, flattening: .or)
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    /// `a and b and ...`; `previous` names the keyword before it, for messages.
    private mutating func parseAnd(after previous: String? = nil) throws(FilterSyntaxError) -> FilterExpression {
        var terms: [FilterExpression] = []
        append(try parseUnary(after: previous), to: &terms, flattening: .and)
        while current.isKeyword("and") {
            try advance()
            append(try parseUnary(after: "and"), to: &terms, flattening: .and)
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    /// Which n-ary connective a term list is being built for.
    private enum Connective { case and, or }

    /// Appends `term`, splicing in the operands of a nested term of the same connective (from parentheses).
    private func append(_ term: FilterExpression, to terms: inout [FilterExpression], flattening: Connective) {
        switch (flattening, term) {
        case (.and, .and(let inner)), (.or, .or(let inner)): terms.append(contentsOf: inner)
        default: terms.append(term)
        }
    }

    /// A `not` expression or a term.
    private mutating func parseUnary(after previous: String?) throws(FilterSyntaxError) -> FilterExpression {
        if current.isKeyword("not") {
            return try parseNot()
        }
        return try parseTerm(after: previous)
    }

    /// `not` followed by what it may bind to: `(...)`, a function, a lambda or another `not`.
    private mutating func parseNot() throws(FilterSyntaxError) -> FilterExpression {
        let notToken = current
        try enterNesting(at: notToken)
        defer { depth -= 1 }
        try advance()
        if current.isKeyword("not") {
            return .not(try parseNot())
        }
        if current.kind == .leftParenthesis {
            return .not(try parseParenthesized())
        }
        guard current.identifier != nil, !isReservedWord(current) else {
            throw FilterSyntaxError(
                message: "expected '(' or a function after 'not', found \(current.quoted)", column: current.column)
        }
        let operandToken = current
        let operand = try parseTerm(after: "not")
        switch operand {
        case .stringFunction, .lambda:
            return .not(operand)
        default:
            throw FilterSyntaxError(
                message: "expected '(' after 'not': 'not' binds tighter than comparisons, "
                    + "so write not (\(operand.text))",
                column: operandToken.column)
        }
    }

    // MARK: - Terms

    /// A parenthesised expression, function call, lambda or comparison.
    private mutating func parseTerm(after previous: String?) throws(FilterSyntaxError) -> FilterExpression {
        let context = previous.map { " after '\($0)'" } ?? ""
        if current.kind == .leftParenthesis {
            return try parseParenthesized()
        }
        guard let name = current.identifier, !isReservedWord(current) else {
            let found = current.quoted
            let hint = isLiteral(current) ? " (a comparison starts with the property, e.g. displayName eq 'x')" : ""
            throw FilterSyntaxError(
                message: "expected an expression\(context), found \(found)\(hint)", column: current.column)
        }
        let nameToken = current
        try advance()
        if current.kind == .leftParenthesis {
            return try parseFunction(named: name, at: nameToken)
        }
        var segments = [name]
        while current.kind == .slash {
            try advancePastSlash()
            guard let segment = current.identifier else {
                throw FilterSyntaxError(
                    message: "expected a property name after '/', found \(current.quoted)", column: current.column)
            }
            let segmentToken = current
            try advance()
            if current.kind == .leftParenthesis {
                guard let lambdaOperator = LambdaOperator(rawValue: segment.lowercased()) else {
                    throw FilterSyntaxError(
                        message: "unknown collection operator '\(segment)': expected 'any' or 'all'",
                        column: segmentToken.column)
                }
                return try parseLambda(lambdaOperator, over: PropertyPath(segments), at: segmentToken)
            }
            segments.append(segment)
        }
        return try parseComparison(on: PropertyPath(segments))
    }

    /// `( expression )`, counted against the nesting limit.
    private mutating func parseParenthesized() throws(FilterSyntaxError) -> FilterExpression {
        let open = current
        try enterNesting(at: open)
        defer { depth -= 1 }
        try advance()
        if current.kind == .rightParenthesis {
            throw FilterSyntaxError(message: "expected an expression inside '()'", column: current.column)
        }
        let inner = try parseOr()
        guard current.kind == .rightParenthesis else {
            throw FilterSyntaxError(
                message: "expected ')' to close the '(' at column \(open.column), found \(current.quoted)",
                column: current.column)
        }
        try advance()
        return inner
    }

    /// `operator literal` or `in (...)` after a property path.
    private mutating func parseComparison(on path: PropertyPath) throws(FilterSyntaxError) -> FilterExpression {
        let operatorToken = current
        guard let word = current.identifier else {
            throw FilterSyntaxError(
                message: "expected an operator (eq, ne, gt, ge, lt, le, in) after '\(path)', found \(current.quoted)",
                column: current.column)
        }
        let keyword = word.lowercased()
        if keyword == "in" {
            try advance()
            return .membership(path, try parseLiteralList())
        }
        guard let comparison = ComparisonOperator(rawValue: keyword) else {
            let detail =
                ["and", "or", "not"].contains(keyword)
                ? "expected an operator (eq, ne, gt, ge, lt, le, in) after '\(path)', found '\(word)'"
                : "unknown operator '\(word)': expected eq, ne, gt, ge, lt, le or in"
            throw FilterSyntaxError(message: detail, column: operatorToken.column)
        }
        try advance()
        return .comparison(path, comparison, try parseLiteral(after: "'\(word)'"))
    }

    /// The `(literal, ...)` list of `in`.
    private mutating func parseLiteralList() throws(FilterSyntaxError) -> [FilterLiteral] {
        guard current.kind == .leftParenthesis else {
            throw FilterSyntaxError(message: "expected '(' after 'in', found \(current.quoted)", column: current.column)
        }
        try advance()
        var literals = [try parseLiteral(after: "'in ('")]
        while current.kind == .comma {
            try advance()
            literals.append(try parseLiteral(after: "','"))
        }
        guard current.kind == .rightParenthesis else {
            throw FilterSyntaxError(
                message: "expected ',' or ')' in the 'in' list, found \(current.quoted)", column: current.column)
        }
        try advance()
        return literals
    }

    /// One literal; `previous` says what it follows, for the error message.
    private mutating func parseLiteral(after previous: String) throws(FilterSyntaxError) -> FilterLiteral {
        let literal: FilterLiteral
        switch current.kind {
        case .string(let value): literal = .string(value)
        case .number(let value): literal = .number(value)
        case .guid(let value): literal = .guid(value)
        case .dateTimeOffset(let value): literal = .dateTimeOffset(value)
        case .identifier(let name) where name.lowercased() == "null": literal = .null
        case .identifier(let name) where name.lowercased() == "true": literal = .bool(true)
        case .identifier(let name) where name.lowercased() == "false": literal = .bool(false)
        default:
            let hint = current.identifier != nil ? " (comparing two properties is not supported)" : ""
            throw FilterSyntaxError(
                message: "expected a literal after \(previous), found \(current.quoted)\(hint)",
                column: current.column)
        }
        try advance()
        return literal
    }

    /// `startswith(path,'text')` and friends; the name token is already consumed.
    private mutating func parseFunction(
        named name: String, at nameToken: FilterToken
    ) throws(FilterSyntaxError) -> FilterExpression {
        guard let function = StringFunction(rawValue: name.lowercased()) else {
            throw FilterSyntaxError(
                message: "unknown function '\(name)': expected startswith, endswith or contains",
                column: nameToken.column)
        }
        try advance()  // past "("
        guard let first = current.identifier, !isReservedWord(current) else {
            throw FilterSyntaxError(
                message: "expected a property name as the first argument of \(function.name), found \(current.quoted)",
                column: current.column)
        }
        try advance()
        var segments = [first]
        while current.kind == .slash {
            try advancePastSlash()
            guard let segment = current.identifier else {
                throw FilterSyntaxError(
                    message: "expected a property name after '/', found \(current.quoted)", column: current.column)
            }
            segments.append(segment)
            try advance()
        }
        guard current.kind == .comma else {
            throw FilterSyntaxError(
                message: "expected ',' after the first argument of \(function.name), found \(current.quoted)",
                column: current.column)
        }
        try advance()
        guard case .string(let argument) = current.kind else {
            throw FilterSyntaxError(
                message: "expected a string literal as the second argument of \(function.name), "
                    + "found \(current.quoted)",
                column: current.column)
        }
        try advance()
        guard current.kind == .rightParenthesis else {
            throw FilterSyntaxError(
                message: "expected ')' after argument list of \(function.name), found \(current.quoted)",
                column: current.column)
        }
        try advance()
        return .stringFunction(function, PropertyPath(segments), argument)
    }

    /// `any(variable:predicate)` after `collection/`.
    private mutating func parseLambda(
        _ lambdaOperator: LambdaOperator, over collection: PropertyPath, at operatorToken: FilterToken
    ) throws(FilterSyntaxError) -> FilterExpression {
        try enterNesting(at: operatorToken)
        defer { depth -= 1 }
        try advance()  // past "("
        guard let variable = current.identifier, !isReservedWord(current) else {
            throw FilterSyntaxError(
                message: "expected a range variable in \(lambdaOperator.name)(), "
                    + "e.g. \(collection)/\(lambdaOperator.name)(x:x eq 'value'), found \(current.quoted)",
                column: current.column)
        }
        try advance()
        guard current.kind == .colon else {
            throw FilterSyntaxError(
                message: "expected ':' after range variable '\(variable)', found \(current.quoted)",
                column: current.column)
        }
        try advance()
        let predicate = try parseOr()
        guard current.kind == .rightParenthesis else {
            throw FilterSyntaxError(
                message: "expected ')' to close \(lambdaOperator.name)(, found \(current.quoted)",
                column: current.column)
        }
        try advance()
        return .lambda(lambdaOperator, collection: collection, variable: variable, predicate: predicate)
    }

    // MARK: - Helpers

    private mutating func advance() throws(FilterSyntaxError) {
        current = try lexer.next()
    }

    /// Steps over the `/` of a property path; a path is one word, so spaces around the `/` are an error.
    private mutating func advancePastSlash() throws(FilterSyntaxError) {
        let slash = current
        if slash.followsWhitespace {
            throw FilterSyntaxError(
                message: "unexpected space before '/': a property path has no spaces", column: slash.column - 1)
        }
        try advance()
        if current.followsWhitespace {
            throw FilterSyntaxError(
                message: "expected a property name after '/', found a space", column: slash.column + 1)
        }
    }

    /// Counts one level of nesting and refuses to go past `maximumDepth`.
    private mutating func enterNesting(at token: FilterToken) throws(FilterSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw FilterSyntaxError(
                message: "filter nests deeper than \(Self.maximumDepth) levels", column: token.column)
        }
    }

    /// Words that can never start a property path.
    private func isReservedWord(_ token: FilterToken) -> Bool {
        guard let word = token.identifier?.lowercased() else { return false }
        return ["and", "or", "not", "eq", "ne", "gt", "ge", "lt", "le", "in", "null", "true", "false"].contains(word)
    }

    private func isLiteral(_ token: FilterToken) -> Bool {
        switch token.kind {
        case .string, .number, .guid, .dateTimeOffset: true
        case .identifier(let name): ["null", "true", "false"].contains(name.lowercased())
        default: false
        }
    }
}
