/// The typed contexts of the change pages (`changes`, `change` and their partial `change-night`), with values made
/// safe to display.
///
/// Why compiled: every run renders every retained night's page again (a person's link on it follows their page),
/// and through Mustache the change pages of two nights of about a thousand changes each took 69–73 ms of a nightly
/// run's CPU (`Benchmarks/profile-nightly.sh`), growing with every night kept. The compiled pages write the same bytes (`BuiltinTemplateDriftTests`).
enum ChangePage {
    /// A joiner or leaver: name (linked when the person has a page today), job title and department.
    struct Person {
        let name: String
        let href: String?
        let jobTitle: String?
        let department: String?
    }

    /// One changed field: "Department: Sales → Operations", a move marked.
    struct Field {
        let label: String
        let isMove: Bool
        let from: String
        let to: String
    }

    /// A changed person with each changed field.
    struct Change {
        let name: String
        let href: String?
        let fields: [Field]
    }

    /// One night as `change-night` shows it; lists cut on the overview, `more` counting what was left out.
    struct Night {
        let day: String
        let dateDisplay: String
        let dateISO: String
        /// `changes/<night>.html`.
        let file: String
        let summary: String
        let joiners: [Person]
        let leavers: [Person]
        let moved: [Change]
        let changed: [Change]
        let more: Int?
    }

    /// `changes.html`: every night, newest first, `root` "".
    struct Overview {
        let nights: [Night]
    }

    /// `changes/<night>.html`: one night whole, `root` "../".
    struct NightPage {
        let night: Night
    }
}

extension ChangePage {
    /// `changes`, for the site root.
    static func append(_ overview: Overview, to page: inout PageBytes) {
        page.text(
            """
            <h1>What changed</h1>
            <p>Who joined, who left and who moved, as each run found it, newest first, for as long as the snapshots \
            are kept. <a href="changes.atom" type="application/atom+xml">Subscribe to the Atom feed</a>.</p>

            """)
        if overview.nights.isEmpty {
            page.text("<p>No changes recorded yet: they appear here from the second run on.</p>\n")
        }
        for night in overview.nights {
            page.text("<section class=\"night\">\n<h2><a href=\"")
            page.html(night.file)
            page.text("\">")
            appendTime(of: night, to: &page)
            page.text("</a></h2>\n")
            append(night, to: &page)
            if let more = night.more {
                page.text("<p class=\"more\"><a href=\"")
                page.html(night.file)
                page.text("\">All changes of this run</a> (")
                page.number(more)
                page.text(" more than listed here)</p>\n")
            }
            page.text("</section>\n")
        }
    }

    /// `change`, one folder below the site root.
    static func append(_ nightPage: NightPage, to page: inout PageBytes) {
        let night = nightPage.night
        page.text("<h1>Changes on ")
        appendTime(of: night, to: &page)
        page.text(
            """
            </h1>
            <p><a href="../changes.html">All changes</a> · <a href="../changes.atom" \
            type="application/atom+xml">Atom feed</a></p>

            """)
        append(night, to: &page)
    }

    /// `<time datetime="{{dateISO}}">{{dateDisplay}}</time>`.
    private static func appendTime(of night: Night, to page: inout PageBytes) {
        page.text("<time datetime=\"")
        page.html(night.dateISO)
        page.text("\">")
        page.html(night.dateDisplay)
        page.text("</time>")
    }

    /// The `change-night` partial (its links are made for the page's depth already).
    private static func append(_ night: Night, to page: inout PageBytes) {
        page.text("<p class=\"summary\">")
        page.html(night.summary)
        page.text("</p>\n")
        append(night.joiners, heading: "<h3>Joined</h3>\n", to: &page)
        append(night.leavers, heading: "<h3>Left</h3>\n", to: &page)
        append(night.moved, heading: "<h3>Moved</h3>\n", marksMoves: true, to: &page)
        append(night.changed, heading: "<h3>Changed</h3>\n", marksMoves: false, to: &page)
    }

    /// `{{#hasJoiners}}` and the like: the heading and `<ul class="changes">` around `item` of each of `items`,
    /// nothing when there are none.
    private static func appendList<Item>(
        _ items: [Item], heading: StaticString, to page: inout PageBytes, item: (Item, inout PageBytes) -> Void
    ) {
        guard !items.isEmpty else { return }
        page.text(heading)
        page.text("<ul class=\"changes\">\n")
        for each in items { item(each, &page) }
        page.text("</ul>\n")
    }

    /// The joiners or leavers under `heading`.
    private static func append(_ people: [Person], heading: StaticString, to page: inout PageBytes) {
        appendList(people, heading: heading, to: &page) { person, page in
            page.text("<li>")
            appendName(person.name, href: person.href, to: &page)
            if let jobTitle = person.jobTitle {
                page.text(", ")
                page.html(jobTitle)
            }
            if let department = person.department {
                page.text(", ")
                page.html(department)
            }
            page.text("</li>\n")
        }
    }

    /// The moved or changed people under `heading`, each with their changed fields, moves marked when `marksMoves`.
    private static func append(
        _ changes: [Change], heading: StaticString, marksMoves: Bool, to page: inout PageBytes
    ) {
        appendList(changes, heading: heading, to: &page) { change, page in
            page.text("<li>")
            appendName(change.name, href: change.href, to: &page)
            page.text("\n<ul class=\"fields\">\n")
            for field in change.fields {
                if marksMoves && field.isMove {
                    page.text("<li class=\"move\"><strong>")
                    page.html(field.label)
                    page.text("</strong>")
                } else {
                    page.text("<li>")
                    page.html(field.label)
                }
                page.text(": ")
                page.html(field.from)
                page.text(" → ")
                page.html(field.to)
                page.text("</li>\n")
            }
            page.text("</ul></li>\n")
        }
    }

    /// `{{#href}}<a href="{{href}}">{{name}}</a>{{/href}}{{^href}}{{name}}{{/href}}`.
    private static func appendName(_ name: String, href: String?, to page: inout PageBytes) {
        guard let href else {
            page.html(name)
            return
        }
        page.text("<a href=\"")
        page.html(href)
        page.text("\">")
        page.html(name)
        page.text("</a>")
    }
}

/// The change pages' contexts for overridden templates, under the names `Templates/README.md` documents.
extension ChangePage {
    private static func optional(_ value: String?) -> Any { value ?? TemplateValue.absent }

    static func context(_ person: Person) -> [String: Any] {
        [
            "name": person.name, "href": optional(person.href), "jobTitle": optional(person.jobTitle),
            "department": optional(person.department),
        ]
    }

    static func context(_ change: Change) -> [String: Any] {
        [
            "name": change.name, "href": optional(change.href),
            "fields": change.fields.map { field -> [String: Any] in
                ["label": field.label, "hasChange": true, "move": field.isMove, "from": field.from, "to": field.to]
            },
        ]
    }

    static func context(_ night: Night, root: String? = nil) -> [String: Any] {
        var context: [String: Any] = [
            "day": night.day, "dateDisplay": night.dateDisplay, "dateISO": night.dateISO, "file": night.file,
            "summary": night.summary, "joiners": night.joiners.map(context), "hasJoiners": !night.joiners.isEmpty,
            "leavers": night.leavers.map(context), "hasLeavers": !night.leavers.isEmpty,
            "moved": night.moved.map(context), "hasMoved": !night.moved.isEmpty,
            "changed": night.changed.map(context), "hasChanged": !night.changed.isEmpty,
            "more": night.more.map { $0 as Any } ?? TemplateValue.absent,
        ]
        if let root { context["root"] = root }
        return context
    }

    static func context(_ overview: Overview) -> [String: Any] {
        ["root": "", "hasNights": !overview.nights.isEmpty, "nights": overview.nights.map { context($0) }]
    }

    static func context(_ page: NightPage) -> [String: Any] {
        context(page.night, root: "../")
    }
}
