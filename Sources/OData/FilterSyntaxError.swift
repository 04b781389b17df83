/// A parse error with the 1-based column (in characters) where it was found.
public struct FilterSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and what was expected instead.
    public var message: String
    /// 1-based column of the offending character or token; one past the end for "unexpected end".
    public var column: Int

    /// Creates an error at a column.
    public init(message: String, column: Int) {
        self.message = message
        self.column = column
    }

    public var description: String { "column \(column): \(message)" }
}
