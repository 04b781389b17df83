extension FilterExpression {
    /// Canonical text of the expression: lower-case keywords, `''`-escaped strings and only the parentheses
    /// precedence requires. Parsing it gives back an equal expression.
    public var text: String {
        switch self {
        case .comparison(let path, let comparison, let literal):
            return "\(path) \(comparison.keyword) \(literal.text)"
        case .membership(let path, let literals):
            return "\(path) in (\(literals.map(\.text).joined(separator: ", ")))"
        case .stringFunction(let function, let path, let argument):
            return "\(function.name)(\(path),\(ODataFilter.quote(argument)))"
        case .lambda(let lambdaOperator, let collection, let variable, let predicate):
            return "\(collection)/\(lambdaOperator.name)(\(variable):\(predicate.text))"
        case .not(let operand):
            switch operand {
            case .stringFunction, .lambda, .not: return "not \(operand.text)"
            default: return "not (\(operand.text))"
            }
        case .and(let terms):
            return terms.map { term in
                switch term {
                case .and, .or: "(\(term.text))"
                default: term.text
                }
            }.joined(separator: " and ")
        case .or(let terms):
            return terms.map { term in
                if case .or = term { return "(\(term.text))" }
                return term.text
            }.joined(separator: " or ")
        }
    }
}
