/// A property path such as `displayName` or `signInActivity/lastSignInDateTime`, segments as written.
public struct PropertyPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The `/`-separated segments; never empty for a parsed path.
    public var segments: [String]

    /// Creates a path from its segments.
    public init(_ segments: [String]) {
        self.segments = segments
    }

    /// Creates a path from its `/`-joined text, e.g. `signInActivity/lastSignInDateTime`.
    public init(_ text: String) {
        self.segments = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    /// Creates a path from its `/`-joined text (for building expressions by hand and in tests).
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The path as it appears in a filter: segments joined by `/`.
    public var description: String { segments.joined(separator: "/") }
}
