import Mustache

/// Values placed in Mustache contexts.
enum TemplateValue {
    /// Stands for a missing optional value: sections skip it, inverted sections show, and, unlike a missing
    /// key, it stops Mustache from finding a same-named value of an outer object (a report's missing job
    /// title must not show the page owner's).
    static let absent = Absent()

    /// The value made safe to display (no control characters or bidi overrides), or `absent` when nil.
    static func optional(_ value: String?) -> Any {
        value.map { SiteEscaping.displayText($0) as Any } ?? absent
    }

    /// A directory value made safe to display; Mustache escapes it for HTML or Markdown afterwards.
    static func text(_ value: String) -> String {
        SiteEscaping.displayText(value)
    }

    /// A null value that renders as nothing.
    struct Absent: MustacheCustomRenderable, Sendable {
        var renderText: String { "" }
        var isNull: Bool { true }
    }
}
