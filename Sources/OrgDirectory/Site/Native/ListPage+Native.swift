/// The built-in list templates (`index`, `letter`, `department`) and their partials (`person-row`, `letters`,
/// `pager`), compiled. `BuiltinTemplateDriftTests` keeps them byte for byte equal to Mustache's rendering.
extension ListPage {
    /// `person-row`, for a page `root` away from the site root.
    static func append(_ row: Row, root: String, to page: inout PageBytes) {
        // The row's values are read in place (`Row`'s getters return copies, for the Mustache context).
        let person = row.person
        page.text("<li class=\"person\"><a class=\"name\" href=\"")
        page.html(root)
        page.text("people/")
        page.html(person.slug)
        page.text(".html\">")
        page.displayHTML(person.user.displayName)
        page.text("</a>")
        page.displayHTML(person.user.jobTitle, between: " <span class=\"job\">", and: "</span>")
        page.displayHTML(person.user.department, between: " <span class=\"dept\">", and: "</span>")
        if let phone = person.primaryPhone {
            if let phoneHref = phone.uri {
                page.text(" <a class=\"phone\" href=\"")
                page.displayHTML(phoneHref)
                page.text("\">")
                page.displayHTML(phone.written)
                page.text("</a>")
            } else {
                page.displayHTML(phone.written, between: " <span class=\"phone\">", and: "</span>")
            }
        }
        if let mail = person.user.mail {
            page.text(" <a class=\"mail\" href=\"mailto:")
            page.displayHTML(SiteEscaping.mailtoAddress(mail))
            page.text("\">")
            page.displayHTML(mail)
            page.text("</a>")
        }
        page.text("</li>\n")
    }

    /// `{{#people}}{{>person-row}}{{/people}}` inside `<ul class="people">`; the rows are copied from `made` when
    /// given (made for `root`).
    private static func append(_ rows: [Row], root: String, made: ListRows? = nil, to page: inout PageBytes) {
        page.text("<ul class=\"people\">\n")
        // Rows made beforehand link from `ListRows.root`; a page at another depth makes its own.
        if let made, root == ListRows.root {
            for row in rows { made.append(row.person.index, to: &page) }
        } else {
            for row in rows { append(row, root: root, to: &page) }
        }
        page.text("</ul>\n")
    }

    /// The `letters` partial.
    static func append(_ letters: [LetterLink], root: String, to page: inout PageBytes) {
        page.text("<nav class=\"letters\" aria-label=\"Surnames A–Z\">\n<ul>\n")
        for letter in letters {
            let href = [root, "browse/", letter.file]
            appendLink(href: href, label: letter.label, isCurrent: letter.isCurrent, to: &page)
        }
        page.text("</ul>\n</nav>\n")
    }

    /// The `pager` partial: nothing for a list that fits on one page.
    static func append(_ pages: [PagerLink], to page: inout PageBytes) {
        guard pages.count > 1 else { return }
        page.text("<nav class=\"pager\" aria-label=\"Pages\">\n<ul>\n")
        for link in pages {
            appendLink(href: [link.file], label: String(link.number), isCurrent: link.isCurrent, to: &page)
        }
        page.text("</ul>\n</nav>\n")
    }

    /// `<li><a href="{{…}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>` of `letters` and
    /// `pager`; the link's parts are escaped one by one, as the templates write them.
    private static func appendLink(href: [String], label: String, isCurrent: Bool, to page: inout PageBytes) {
        page.text("<li><a href=\"")
        for part in href { page.html(part) }
        page.text("\"")
        if isCurrent { page.text(" aria-current=\"page\"") }
        page.text(">")
        page.html(label)
        page.text("</a></li>\n")
    }

    /// `index`.
    static func append(_ index: Index, to page: inout PageBytes) {
        page.text("<h1>")
        page.html(index.title)
        page.text(
            """
            </h1>
            <section class="search" aria-labelledby="search-label">
            <form id="search-form" role="search" action="index.html" method="get">
            <label id="search-label" for="search-input">Search by name, title, department, office, mail or phone \
            number</label>
            <input id="search-input" name="q" type="search" autocomplete="off" spellcheck="false" \
            aria-describedby="search-hint" aria-controls="search-results">
            </form>
            <p id="search-hint" class="hint">Press <kbd>/</kbd> to search, arrow keys to move through the results, \
            <kbd>Enter</kbd> to open.</p>
            <p id="search-status" class="status" role="status" aria-live="polite" aria-atomic="true"></p>
            <ul id="search-results" class="people results" aria-label="Search results" hidden></ul>
            <p id="search-more" hidden><button type="button" id="search-more-button">Show more</button></p>
            </section>
            <noscript><p>Search needs JavaScript. Browse the <a href="browse/index.html">people A–Z</a> or the \
            <a href="departments.html">departments</a>.</p></noscript>
            <section id="everyone" aria-labelledby="everyone-heading">
            <h2 id="everyone-heading">
            """)
        page.text(index.isListed ? "Everyone" : "Browse")
        page.text(" (")
        page.number(index.count)
        page.text(" people)</h2>\n")
        append(index.letters, root: "", to: &page)
        if index.isListed {
            append(index.rows, root: "", to: &page)
        } else {
            page.text(
                """
                <p>Too many people to list on one page: search above, or browse by <a href="browse/index.html">\
                surname</a> or <a href="departments.html">department</a>.</p>

                """)
        }
        page.text("</section>\n")
    }

    /// `letter`.
    static func append(_ letter: Letter, to page: inout PageBytes) {
        page.text("<h1>People: ")
        page.html(letter.label)
        page.text("</h1>\n")
        append(letter.letters, root: "../", to: &page)
        append(letter.pages, to: &page)
        append(letter.rows, root: ListRows.root, made: letter.made, to: &page)
        append(letter.pages, to: &page)
    }

    /// `department`.
    static func append(_ department: Department, to page: inout PageBytes) {
        page.text("<h1>")
        page.html(department.name)
        page.text("</h1>\n<p class=\"count\">")
        page.number(department.count)
        page.text(" people</p>\n")
        append(department.pages, to: &page)
        append(department.rows, root: ListRows.root, made: department.made, to: &page)
        append(department.pages, to: &page)
    }
}
