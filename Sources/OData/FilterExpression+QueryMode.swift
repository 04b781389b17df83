extension FilterExpression {
    /// Graph's support rules for /users (graph-facts.md §2): throws `UnsupportedFilterError` when Graph would
    /// answer 400 Request_UnsupportedQuery, else says whether the filter needs an advanced query
    /// (`ConsistencyLevel: eventual` plus `$count=true`). `ne`, `not` and `endswith` always need one.
    public func userQueryMode() throws(UnsupportedFilterError) -> QueryMode {
        var checker = UserQueryChecker()
        return try checker.mode(of: self)
    }
}
