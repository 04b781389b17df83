/// A parsed `$filter` expression (the subset Graph supports on /users).
///
/// `and` and `or` are n-ary and flattened by the parser, so `a and (b and c)` and `a and b and c` parse to
/// the same value; this keeps long chains shallow and makes `text` round-trip to an equal expression.
public indirect enum FilterExpression: Sendable, Equatable {
    /// `property op literal`, e.g. `department eq 'Sales'`.
    case comparison(PropertyPath, ComparisonOperator, FilterLiteral)
    /// `property in (literal, ...)`; true when the property equals any of the literals.
    case membership(PropertyPath, [FilterLiteral])
    /// `startswith(property,'text')`, `endswith(...)`, `contains(...)`.
    case stringFunction(StringFunction, PropertyPath, String)
    /// `collection/any(variable:predicate)` or `collection/all(...)`.
    case lambda(LambdaOperator, collection: PropertyPath, variable: String, predicate: FilterExpression)
    /// `not expression`.
    case not(FilterExpression)
    /// Conjunction of two or more terms.
    case and([FilterExpression])
    /// Disjunction of two or more terms.
    case or([FilterExpression])
}
