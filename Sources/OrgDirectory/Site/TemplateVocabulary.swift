/// The names each template's context provides, so a typo in an overridden template fails the build with its
/// position instead of silently rendering nothing.
enum TemplateVocabulary {
    /// Keys of the layout every HTML page is wrapped in.
    static let layout: Set<String> = [
        "title", "pageTitle", "root", "scripts", "src", "pageKind", "isIndex", "content", "generatedAt",
        "generatedAtISO", "hasExports", "exports", "file", "label",
    ]
    /// Keys of one person in a list (`person-row`).
    static let row: Set<String> = [
        "root", "slug", "name", "jobTitle", "department", "office", "phone", "phoneHref", "mail", "mailHref",
    ]
    /// Keys of the Markdown person page.
    static let personMarkdown: Set<String> = [
        "name", "givenName", "surname", "jobTitle", "department", "departmentHref", "office", "company", "mail",
        "mailHref", "phones", "label", "number", "href", "manager", "extra", "value", "hasReports", "reports",
        "vcardHref", "markdownHref", "generatedAt", "generatedAtISO", "slug", "userPrincipalName", "employeeId",
        "hasHistory", "history", "day", "nightHref", "hasChange", "from", "to", "move",
    ]
    /// Keys of the change pages (`changes`, `change` and their partial `change-night`).
    static let changes: Set<String> = [
        "root", "hasNights", "nights", "day", "dateDisplay", "dateISO", "file", "summary", "joiners", "hasJoiners",
        "leavers", "hasLeavers", "moved", "hasMoved", "changed", "hasChanged", "more", "name", "href", "jobTitle",
        "department", "fields", "label", "from", "to", "move", "hasChange",
    ]
    /// Keys of the Atom feed.
    static let feed: Set<String> = ["title", "feedID", "updated", "entries", "id", "entryTitle", "href", "text"]
    /// Keys of the alphabet navigation and pager partials.
    static let navigation: Set<String> = [
        "letters", "file", "label", "count", "current", "root", "hasPages", "pages", "number",
    ]

    /// The vocabulary of template `name`; partials and unknown (user-added) templates may use any known key,
    /// since they are rendered inside other pages.
    static func names(for name: String) -> Set<String> {
        switch name {
        case "layout": return layout
        case "person.md": return personMarkdown
        case "person": return personMarkdown.union(["markdownHTML", "root"])
        case "index": return row.union(navigation).union(["title", "count", "listed", "people"])
        case "browse": return navigation
        case "letter": return row.union(navigation).union(["people"])
        case "departments": return ["departments", "file", "name", "count", "unassigned", "root"]
        case "department": return row.union(navigation).union(["name", "count", "people"])
        case "changes", "change", "change-night": return changes
        case "changes.atom": return feed
        default: return all
        }
    }

    /// Every key any page provides.
    static let all: Set<String> = layout.union(row).union(personMarkdown).union(navigation).union(changes).union([
        "markdownHTML", "listed", "people", "departments", "unassigned", "count",
    ])

    /// Names swift-mustache itself understands inside sections and transforms.
    static let mustacheNames: Set<String> = ["first", "last", "index", "even", "odd"]
}
