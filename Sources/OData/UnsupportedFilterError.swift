/// Why Graph would reject a filter on /users (400 Request_UnsupportedQuery).
public struct UnsupportedFilterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Graph-style message that also names the property and operator at fault.
    public var message: String

    /// Creates an error with a message.
    public init(message: String) { self.message = message }

    public var description: String { message }
}
