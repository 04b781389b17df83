/// The bytes of one page rendered by a compiled template: template text, unescaped values and values
/// escaped exactly as swift-mustache escapes them, appended into one growing array with no String in between.
struct PageBytes {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    /// Text of the built-in template itself.
    mutating func text(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `{{{value}}}`: the value as it is.
    mutating func raw(_ value: String) {
        bytes.append(contentsOf: value.utf8)
    }

    /// `{{{value}}}` of a value already rendered to bytes.
    mutating func raw(_ value: [UInt8]) {
        bytes.append(contentsOf: value)
    }

    /// Bytes already rendered, from a larger buffer (`ListRows`).
    mutating func raw(_ value: ArraySlice<UInt8>) {
        bytes.append(contentsOf: value)
    }

    /// Bytes already rendered, from a file (a row the run before kept, `KeptRowFiles`).
    mutating func raw(_ value: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: value)
    }

    /// Bytes `body` appends itself (a writer of its own, such as a search record's, `PlacedRows`).
    mutating func appendBytes(_ body: (inout [UInt8]) -> Void) {
        body(&bytes)
    }

    /// `{{value}}` in an HTML template.
    mutating func html(_ value: String) {
        MustacheEscaping.appendHTML(value, to: &bytes)
    }

    /// `{{value}}` of `SiteEscaping.displayText(value)` in an HTML template: a value read where its owner keeps it
    /// (a list row's fields), made safe to display as it is written.
    mutating func displayHTML(_ value: String) {
        MustacheEscaping.appendHTML(SiteEscaping.displayText(value), to: &bytes)
    }

    /// `prefix`, `displayHTML(value)` and `suffix`, or nothing when `value` is nil (`{{#value}}…{{/value}}`).
    mutating func displayHTML(_ value: String?, between prefix: StaticString, and suffix: StaticString) {
        guard let value else { return }
        text(prefix)
        displayHTML(value)
        text(suffix)
    }

    /// `{{value}}` in the Markdown template (`person.md`), escaped as `TemplateSet`'s Markdown content type does.
    mutating func markdown(_ value: String) {
        SiteEscaping.appendMarkdown(value, to: &bytes)
    }

    /// `{{count}}` of a number: Mustache writes its description, which has nothing to escape.
    mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }
}
