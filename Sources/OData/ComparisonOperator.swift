/// A binary comparison operator of OData `$filter`.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "eq"
    case notEqual = "ne"
    case greaterThan = "gt"
    case greaterThanOrEqual = "ge"
    case lessThan = "lt"
    case lessThanOrEqual = "le"

    /// The operator's keyword as written in a filter (`eq`, `ne`, ...).
    public var keyword: String { rawValue }

    /// The OData library's name for the operator, as Graph quotes it in type errors.
    var operatorKind: String {
        switch self {
        case .equal: "Equal"
        case .notEqual: "NotEqual"
        case .greaterThan: "GreaterThan"
        case .greaterThanOrEqual: "GreaterThanOrEqual"
        case .lessThan: "LessThan"
        case .lessThanOrEqual: "LessThanOrEqual"
        }
    }
}
