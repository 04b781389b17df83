/// Entry points of the module: parsing filter text and building safe literals.
public enum ODataFilter {
    /// Parses `$filter` text; errors carry the 1-based column and what was expected there.
    public static func parse(_ text: String) throws(FilterSyntaxError) -> FilterExpression {
        var parser = try FilterParser(text)
        return try parser.parseFilter()
    }

    /// An OData string literal for `value`: single-quoted with `'` doubled, so user text cannot break out.
    public static func quote(_ value: String) -> String {
        var result = "'"
        for character in value {
            if character == "'" { result.append("''") } else { result.append(character) }
        }
        result.append("'")
        return result
    }
}
