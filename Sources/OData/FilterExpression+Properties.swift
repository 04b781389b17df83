extension FilterExpression {
    /// The top-level property names the filter reads (`businessPhones` for `businessPhones/any(...)`), so a client
    /// that evaluates the filter locally knows what to `$select`.
    public var referencedProperties: Set<String> {
        switch self {
        case .comparison(let path, _, _), .membership(let path, _), .stringFunction(_, let path, _):
            return path.segments.first.map { [$0] } ?? []
        case .lambda(_, let collection, _, _):
            return collection.segments.first.map { [$0] } ?? []
        case .not(let inner):
            return inner.referencedProperties
        case .and(let terms), .or(let terms):
            return terms.reduce(into: Set<String>()) { $0.formUnion($1.referencedProperties) }
        }
    }
}
