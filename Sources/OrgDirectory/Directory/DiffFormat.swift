/// The output formats of `orgdir diff`.
public enum DiffFormat: String, Sendable, CaseIterable, Codable {
    /// Plain text for a terminal or a mail; coloured only when asked (see `DiffFormatter.colour`).
    case text
    case markdown
    /// A standalone HTML document, every value escaped.
    case html
    /// The `DiffReport` itself, stable (sorted keys) and readable back with `JSONDecoder`.
    case json
}
