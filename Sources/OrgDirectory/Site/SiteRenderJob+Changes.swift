import Foundation

/// The change history on the site: `changes.html` (every retained night, newest first), one page per night
/// under `changes/`, the Atom feed `changes.atom`, and the history section of each person's page.
extension SiteRenderJob {
    /// People listed per group of one night on `changes.html`; the night's own page lists everyone.
    static let changesOverviewLimit = 50
    /// Nights in the feed: enough for anyone who polls weekly, small enough to fetch often.
    static let feedEntryLimit = 50
    /// Lines of one feed entry's text before "… and N more".
    static let feedLineLimit = 100

    /// `changes.html`, `changes/<night>.html` and `changes.atom`, and how many night pages were carried over.
    func renderChanges(to output: some SiteOutput) throws(SiteError) -> (paths: [String], carried: Int) {
        var paths: [String] = []
        var carried = 0
        let overview = ChangePage.Overview(
            nights: history.nights.map { changeNight($0, root: "", limit: Self.changesOverviewLimit) })
        let html = try page(frame(kind: "changes", title: "What changed", root: "")) {
            (page: inout PageBytes) throws(SiteError) in
            if templates.isBuiltin(CompiledPage.changes) {
                ChangePage.append(overview, to: &page)
            } else {
                page.raw(try templates.render("changes", ChangePage.context(overview)))
            }
        }
        try write(html, "changes.html", output, &paths)
        let compiled = templates.isBuiltin(CompiledPage.change)
        for night in history.nights {
            let path = "changes/\(night.file).html"
            if carriedNights.contains(night.file), output.carryOver([path]) {
                paths.append(path)
                carried += 1
                continue
            }
            let nightPage = ChangePage.NightPage(night: changeNight(night, root: "../", limit: nil))
            // Dated by its night, not by the run: a night's page then changes only when one of its people's page
            // links does, and a nightly carries the others over (`carriedNights`) instead of rendering every night
            // it keeps, which grew every run by a night's worth of people.
            let title = "Changes on \(night.stamp.display)"
            let html = try page(frame(kind: "change", title: title, root: "../", stamp: night.stamp)) {
                (page: inout PageBytes) throws(SiteError) in
                if compiled {
                    ChangePage.append(nightPage, to: &page)
                } else {
                    page.raw(try templates.render("change", ChangePage.context(nightPage)))
                }
            }
            try write(html, path, output, &paths)
        }
        try write(try templates.render("changes.atom", feedContext()), "changes.atom", output, &paths)
        return (paths, carried)
    }

    /// One night as `change-night` shows it; `limit` cuts each list (the overview), nil lists everyone.
    private func changeNight(_ night: SiteHistory.Night, root: String, limit: Int?) -> ChangePage.Night {
        var hidden = 0
        func cut<Item>(_ items: [Item]) -> ArraySlice<Item> {
            guard let limit, items.count > limit else { return items[...] }
            hidden += items.count - limit
            return items.prefix(limit)
        }
        let joiners = cut(night.joiners).map { personReference($0, root: root) }
        let leavers = cut(night.leavers).map { personReference($0, root: root) }
        let moved = cut(night.moved).map { changeReference($0, root: root) }
        let changed = cut(night.changed).map { changeReference($0, root: root) }
        return ChangePage.Night(
            day: night.stamp.day, dateDisplay: night.stamp.display, dateISO: night.stamp.iso,
            file: "changes/\(night.file).html", summary: night.summary, joiners: joiners, leavers: leavers,
            moved: moved, changed: changed, more: hidden > 0 ? hidden : nil)
    }

    /// A joiner or leaver: name (linked when the person has a page today), job title and department.
    private func personReference(_ user: User, root: String) -> ChangePage.Person {
        ChangePage.Person(
            name: TemplateValue.text(user.displayName), href: personHref(user.id, root: root),
            jobTitle: user.jobTitle.map(TemplateValue.text), department: user.department.map(TemplateValue.text))
    }

    /// A changed person with each changed field, moves marked.
    private func changeReference(_ change: PersonChange, root: String) -> ChangePage.Change {
        ChangePage.Change(
            name: TemplateValue.text(change.displayName), href: personHref(change.id, root: root),
            fields: change.fieldChanges.map { field in
                ChangePage.Field(
                    label: TemplateValue.text(field.label), isMove: field.isMove,
                    from: TemplateValue.text(field.old ?? "none"), to: TemplateValue.text(field.new ?? "none"))
            })
    }

    private func personHref(_ id: String, root: String) -> String? {
        guard let position = directory.positionByID[id] else { return nil }
        return "\(root)people/\(directory.people[position].slug).html"
    }

    /// The Atom feed: one entry per night, its text listing who joined, left, moved and changed.
    private func feedContext() -> [String: Any] {
        let entries = history.nights.prefix(Self.feedEntryLimit).map { night -> [String: Any] in
            [
                "id": history.atomID(night.snapshot), "updated": night.stamp.iso, "href": "changes/\(night.file).html",
                "entryTitle": "Changes on \(night.stamp.display): \(night.summary)", "text": feedText(night),
            ]
        }
        return [
            "title": TemplateValue.text(options.title), "feedID": history.atomID(""),
            "updated": history.nights.first?.stamp.iso ?? stamp.iso, "entries": entries,
        ]
    }

    /// Plain text of one feed entry, at most `feedLineLimit` lines.
    private func feedText(_ night: SiteHistory.Night) -> String {
        var lines: [String] = []
        let clean = SiteEscaping.displayText
        for user in night.joiners { lines.append("Joined: \(clean(user.displayName))") }
        for user in night.leavers { lines.append("Left: \(clean(user.displayName))") }
        for change in night.moved + night.changed {
            let fields = change.fieldChanges.map { field in
                "\(clean(field.label)) \(clean(field.old ?? "none")) → \(clean(field.new ?? "none"))"
            }
            lines.append(
                "\(change.moves.isEmpty ? "Changed" : "Moved"): \(clean(change.displayName)): "
                    + fields.joined(separator: "; "))
        }
        if lines.count > Self.feedLineLimit {
            let more = lines.count - Self.feedLineLimit
            lines = Array(lines.prefix(Self.feedLineLimit)) + ["… and \(more) more"]
        }
        return lines.joined(separator: "\n")
    }
}
