import Foundation

/// One render of the site: the prepared directory plus templates, with a method per group of files.
/// Each method is independent so the renderer can run them as parallel tasks.
struct SiteRenderJob: Sendable {
    let options: SiteOptions
    let templates: TemplateSet
    let directory: SiteDirectory
    let stamp: SiteStamp
    /// The retained change history, for `changes.html`, the feed and the person pages' history sections.
    let history: SiteHistory

    // MARK: - Person pages

    /// `people/<slug>.md`, `.html` and `.vcf` for the people in `range`.
    func renderPeople(_ range: Range<Int>, to output: some SiteOutput) throws(SiteError) -> [String] {
        var paths: [String] = []
        paths.reserveCapacity(range.count * 3)
        for position in range {
            try renderPerson(directory.people[position], to: output, paths: &paths)
        }
        return paths
    }

    /// One person's `people/<slug>.md`, `.html` and `.vcf`; appends the paths written to `paths`.
    func renderPerson(_ person: SitePerson, to output: some SiteOutput, paths: inout [String]) throws(SiteError) {
        let base = "people/\(person.slug)"
        let personStamp = stamp(for: person)
        let context = personContext(person, stamp: personStamp)
        let markdown = try templates.render("person.md", context)
        guard let fragment = Markdown.html(from: markdown, rewritingMarkdownLinks: true) else {
            throw .markdownFailed(path: base + ".md")
        }
        var pageContext = context
        pageContext["markdownHTML"] = fragment
        pageContext["root"] = "../"
        let body = try templates.render("person", pageContext)
        let html = try page(
            kind: "person", title: person.user.displayName, root: "../", content: body, stamp: personStamp)
        try write(markdown, base + ".md", output, &paths)
        try write(html, base + ".html", output, &paths)
        try write(VCard.card(for: person), base + ".vcf", output, &paths)
    }

    /// A person page's "data as of": when this person's record last changed in the retained history (or
    /// since when the history has seen it unchanged), never the run's own time. A change elsewhere in the
    /// directory then leaves this person's pages byte for byte as they were, so a nightly run rewrites only the
    /// pages of the people who changed.
    func stamp(for person: SitePerson) -> SiteStamp {
        history.unchangedSince(person.user.id).map(SiteStamp.init) ?? stamp
    }

    /// The context of `person.md` and `person`: values raw (the templates escape them), links prepared.
    func personContext(_ person: SitePerson, stamp: SiteStamp) -> [String: Any] {
        let user = person.user
        var context: [String: Any] = [
            "name": TemplateValue.text(user.displayName),
            "slug": person.slug,
            "givenName": TemplateValue.optional(user.givenName),
            "surname": TemplateValue.optional(user.surname),
            "jobTitle": TemplateValue.optional(user.jobTitle),
            "department": TemplateValue.optional(user.department),
            "departmentHref": TemplateValue.optional(person.departmentFile.map { "../departments/\($0).html" }),
            "office": TemplateValue.optional(user.officeLocation),
            "company": TemplateValue.optional(user.companyName),
            "mail": TemplateValue.optional(user.mail),
            "mailHref": TemplateValue.optional(user.mail.map(SiteEscaping.mailtoURL)),
            "userPrincipalName": TemplateValue.optional(user.userPrincipalName.isEmpty ? nil : user.userPrincipalName),
            "employeeId": TemplateValue.optional(user.employeeId),
            "vcardHref": "\(person.slug).vcf",
            "markdownHref": "\(person.slug).md",
            "generatedAt": stamp.display,
            "generatedAtISO": stamp.iso,
        ]
        context["phones"] = person.phones.map { phone -> [String: Any] in
            [
                "label": phone.label, "number": TemplateValue.text(phone.link.written),
                "href": TemplateValue.optional(phone.link.uri),
            ]
        }
        if let manager = user.manager {
            let position = directory.positionByID[manager.id]
            let name = manager.displayName ?? position.map { directory.people[$0].user.displayName } ?? "Unknown"
            context["manager"] =
                [
                    "name": TemplateValue.text(name),
                    "href": TemplateValue.optional(position.map { "\(directory.people[$0].slug).md" }),
                ] as [String: Any]
        } else {
            context["manager"] = TemplateValue.absent
        }
        let reports = directory.reportsByManagerID[user.id] ?? []
        context["hasReports"] = !reports.isEmpty
        context["reports"] = reports.map { position -> [String: Any] in
            let report = directory.people[position]
            return [
                "name": TemplateValue.text(report.user.displayName), "href": "\(report.slug).md",
                "jobTitle": TemplateValue.optional(report.user.jobTitle),
            ]
        }
        context.merge(historyContext(person)) { $1 }
        context["extra"] = user.extra.sorted { $0.key < $1.key }.map {
            ["label": TemplateValue.text($0.key), "value": TemplateValue.text($0.value)]
        }
        return context
    }

    // MARK: - Lists

    /// `index.html`: the search box, and everyone listed when the directory is small enough.
    func renderIndex(to output: some SiteOutput) throws(SiteError) -> [String] {
        let listed = directory.people.count <= options.indexListLimit
        var context: [String: Any] = [
            "title": TemplateValue.text(options.title),
            "root": "",
            "count": directory.people.count,
            "listed": listed,
            "letters": letterLinks(current: nil),
        ]
        context["people"] = listed ? directory.people.map { row($0) } : []
        let body = try templates.render("index", context)
        let html = try page(
            kind: "index", title: "Search", root: "", content: body, scripts: ["assets/search.js"], isIndex: true)
        var paths: [String] = []
        try write(html, "index.html", output, &paths)
        return paths
    }

    /// `browse/index.html` and `browse/<letter>[-n].html`.
    func renderBrowse(to output: some SiteOutput) throws(SiteError) -> [String] {
        var paths: [String] = []
        let overview = try templates.render("browse", ["root": "../", "letters": letterLinks(current: nil)])
        try write(
            try page(kind: "browse", title: "People A–Z", root: "../", content: overview),
            "browse/index.html", output, &paths)
        for (key, people) in directory.letters {
            let label = SiteDirectory.label(forLetter: key)
            for (number, slice) in Self.pages(of: people).enumerated() {
                var context = pagerContext(base: key, count: people.count, current: number)
                context["root"] = "../"
                context["label"] = label
                context["letters"] = letterLinks(current: key)
                context["people"] = slice.map { row(directory.people[$0]) }
                let body = try templates.render("letter", context)
                let html = try page(kind: "letter", title: "People: \(label)", root: "../", content: body)
                try write(html, "browse/" + Self.pageFile(base: key, number: number), output, &paths)
            }
        }
        return paths
    }

    /// `departments.html` with counts and `departments/<name>[-n].html`.
    func renderDepartments(to output: some SiteOutput) throws(SiteError) -> [String] {
        var paths: [String] = []
        let unassigned = directory.people.count - directory.departments.reduce(0) { $0 + $1.people.count }
        let list: [[String: Any]] = directory.departments.map {
            ["name": TemplateValue.text($0.name), "file": "\($0.file).html", "count": $0.people.count]
        }
        let overview = try templates.render(
            "departments",
            ["root": "", "departments": list, "unassigned": unassigned > 0 ? unassigned as Any : TemplateValue.absent])
        try write(
            try page(kind: "departments", title: "Departments", root: "", content: overview),
            "departments.html", output, &paths)
        for department in directory.departments {
            for (number, slice) in Self.pages(of: department.people).enumerated() {
                var context = pagerContext(base: department.file, count: department.people.count, current: number)
                context["root"] = "../"
                context["name"] = TemplateValue.text(department.name)
                context["count"] = department.people.count
                context["people"] = slice.map { row(directory.people[$0]) }
                let body = try templates.render("department", context)
                let html = try page(kind: "department", title: department.name, root: "../", content: body)
                try write(html, "departments/" + Self.pageFile(base: department.file, number: number), output, &paths)
            }
        }
        return paths
    }

    /// One person in a list: the same fields the search results show.
    func row(_ person: SitePerson) -> [String: Any] {
        let user = person.user
        return [
            "slug": person.slug,
            "name": TemplateValue.text(user.displayName),
            "jobTitle": TemplateValue.optional(user.jobTitle),
            "department": TemplateValue.optional(user.department),
            "office": TemplateValue.optional(user.officeLocation),
            "phone": TemplateValue.optional(person.primaryPhone?.written),
            "phoneHref": TemplateValue.optional(person.primaryPhone?.uri),
            "mail": TemplateValue.optional(user.mail),
            "mailHref": TemplateValue.optional(user.mail.map(SiteEscaping.mailtoURL)),
        ]
    }

    private func letterLinks(current: String?) -> [[String: Any]] {
        directory.letters.map { key, people in
            [
                "file": "\(key).html", "label": SiteDirectory.label(forLetter: key), "count": people.count,
                "current": key == current,
            ]
        }
    }

    private func pagerContext(base: String, count: Int, current: Int) -> [String: Any] {
        let pageCount = (count + Self.pageSizeValue - 1) / Self.pageSizeValue
        return [
            "hasPages": pageCount > 1,
            "pages": (0..<pageCount).map { number -> [String: Any] in
                ["file": Self.pageFile(base: base, number: number), "number": number + 1, "current": number == current]
            },
        ]
    }

    private static var pageSizeValue: Int { SiteRenderer.pageSize }

    private static func pages(of people: [Int]) -> [ArraySlice<Int>] {
        stride(from: 0, to: max(people.count, 1), by: pageSizeValue).map {
            people[$0..<min(people.count, $0 + pageSizeValue)]
        }
    }

    private static func pageFile(base: String, number: Int) -> String {
        number == 0 ? "\(base).html" : "\(base)-\(number + 1).html"
    }

    // MARK: - Search, exports, assets

    /// The search manifest and shards; returns the paths and the number of shard files.
    func renderSearch(to output: some SiteOutput) throws(SiteError) -> (paths: [String], shards: Int) {
        var paths: [String] = []
        for file in SearchIndexBuilder().files(for: directory) {
            try write(file.text, file.path, output, &paths)
        }
        return (paths, paths.count - 1)
    }

    /// The exports switched on in the options.
    func renderExports(to output: some SiteOutput) throws(SiteError) -> [String] {
        var paths: [String] = []
        for export in SiteExport.allCases where options.exports.contains(export) {
            let bytes: [UInt8]
            switch export {
            case .csv: bytes = SiteExports.csv(directory, hidden: options.hideFields)
            case .json: bytes = SiteExports.json(directory, hidden: options.hideFields)
            case .vcf: bytes = SiteExports.vcf(directory)
            }
            try write(bytes, export.fileName, output, &paths)
        }
        return paths
    }

    /// The stylesheet, search script and any extra assets from the templates folder.
    func writeAssets(to output: some SiteOutput) throws(SiteError) -> [String] {
        var paths: [String] = []
        for (path, bytes) in templates.assets.sorted(by: { $0.key < $1.key }) {
            try write(bytes, path, output, &paths)
        }
        return paths
    }

    // MARK: - Helpers

    /// Wraps a page body in the layout.
    func page(
        kind: String, title: String, root: String, content: String, scripts: [String] = [], isIndex: Bool = false,
        stamp: SiteStamp? = nil
    ) throws(SiteError) -> String {
        let stamp = stamp ?? self.stamp
        let exports = SiteExport.allCases.filter { options.exports.contains($0) }.map { export -> [String: Any] in
            ["file": export.fileName, "label": export.rawValue.uppercased()]
        }
        let context: [String: Any] = [
            "title": TemplateValue.text(options.title), "pageTitle": SiteEscaping.displayText(title), "root": root,
            "scripts": scripts.map { ["src": $0] }, "pageKind": kind, "isIndex": isIndex, "content": content,
            "generatedAt": stamp.display, "generatedAtISO": stamp.iso, "hasExports": !exports.isEmpty,
            "exports": exports,
        ]
        return try templates.render("layout", context)
    }

    func write(_ text: String, _ path: String, _ output: some SiteOutput, _ paths: inout [String])
        throws(SiteError)
    {
        try write(Array(text.utf8), path, output, &paths)
    }

    func write(_ bytes: [UInt8], _ path: String, _ output: some SiteOutput, _ paths: inout [String])
        throws(SiteError)
    {
        do {
            try output.write(bytes, to: path)
        } catch let error as SiteError {
            throw error
        } catch {
            throw .writeFailed(path: path, reason: "\(error)")
        }
        paths.append(path)
    }
}
