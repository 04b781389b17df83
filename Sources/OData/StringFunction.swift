/// A string function usable as a boolean filter term: `startswith(prop,'x')` and friends.
public enum StringFunction: String, Sendable, Hashable, CaseIterable {
    case startsWith = "startswith"
    case endsWith = "endswith"
    /// Parsed so that Graph's own rejection can be reported precisely; /users does not support it.
    case contains = "contains"

    /// The canonical (lower-case) function name; parsing accepts any case (`startsWith` too).
    public var name: String { rawValue }
}
