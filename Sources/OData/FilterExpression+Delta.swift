extension FilterExpression {
    /// Most ids Graph accepts in a `/users/delta` filter.
    public static let maximumDeltaIDs = 50

    /// True when `/users/delta` accepts this filter: only `id eq '...'` terms joined by `or`, at most 50.
    /// Delta rejects everything else, so the product then runs the filter locally on the delta results.
    public func deltaSupported() -> Bool {
        switch self {
        case .comparison:
            return isDeltaIDTerm
        case .or(let terms):
            return terms.count <= Self.maximumDeltaIDs && terms.allSatisfy(\.isDeltaIDTerm)
        default:
            return false
        }
    }

    /// `id eq '<string>'`, the only term delta understands.
    private var isDeltaIDTerm: Bool {
        guard case .comparison(let path, .equal, .string) = self else { return false }
        return path.segments.count == 1 && path.segments[0].lowercased() == "id"
    }
}
