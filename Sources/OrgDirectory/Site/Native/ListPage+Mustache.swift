/// The list pages' contexts for overridden templates, under the names `Templates/README.md` documents.
extension ListPage {
    private static func optional(_ value: String?) -> Any { value ?? TemplateValue.absent }

    static func context(_ row: Row) -> [String: Any] {
        [
            "slug": row.slug, "name": row.name, "jobTitle": optional(row.jobTitle),
            "department": optional(row.department), "office": optional(row.office), "phone": optional(row.phone),
            "phoneHref": optional(row.phoneHref), "mail": optional(row.mail), "mailHref": optional(row.mailHref),
        ]
    }

    static func context(_ letters: [LetterLink]) -> [[String: Any]] {
        letters.map { ["file": $0.file, "label": $0.label, "count": $0.count, "current": $0.isCurrent] }
    }

    /// `hasPages` and `pages` for the `pager` partial.
    static func context(_ pages: [PagerLink]) -> [String: Any] {
        [
            "hasPages": pages.count > 1,
            "pages": pages.map { ["file": $0.file, "number": $0.number, "current": $0.isCurrent] as [String: Any] },
        ]
    }

    static func context(_ page: Index) -> [String: Any] {
        [
            "title": page.title, "root": "", "count": page.count, "listed": page.isListed,
            "letters": context(page.letters), "people": page.rows.map(context),
        ]
    }

    static func context(_ page: Letter) -> [String: Any] {
        var context = context(page.pages)
        context["root"] = "../"
        context["label"] = page.label
        context["letters"] = Self.context(page.letters)
        context["people"] = page.rows.map(Self.context)
        return context
    }

    static func context(_ page: Department) -> [String: Any] {
        var context = context(page.pages)
        context["root"] = "../"
        context["name"] = page.name
        context["count"] = page.count
        context["people"] = page.rows.map(Self.context)
        return context
    }
}
