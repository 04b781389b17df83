/// A lambda operator over a collection: `businessPhones/any(p:p eq '...')`.
public enum LambdaOperator: String, Sendable, Hashable, CaseIterable {
    case any
    /// Parsed so that it can be rejected with a clear message: Graph supports `all` on no property.
    case all

    /// The operator's name as written after the collection path.
    public var name: String { rawValue }
}
