extension FilterExpression {
    /// Evaluates the filter on one record with Graph's semantics (see `FilterEvaluator`): case-insensitive
    /// strings, `eq null` for absent values, false on type mismatch.
    public func evaluate(on record: some ODataRecord) -> Bool {
        FilterEvaluator(record: record).evaluate(self)
    }
}
