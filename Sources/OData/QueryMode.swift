/// Whether a /users query can run as a default query or needs an advanced query
/// (`ConsistencyLevel: eventual` plus `$count=true`).
public enum QueryMode: Sendable, Equatable {
    case standard
    case advanced

    /// The mode a query needs when it contains parts needing `self` and `other`.
    func combined(with other: QueryMode) -> QueryMode {
        self == .advanced || other == .advanced ? .advanced : .standard
    }
}
