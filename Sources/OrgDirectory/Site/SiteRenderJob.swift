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
    /// The run before's search tokens (see `SearchTokenCache`), and whether to hand everyone's back.
    var tokenCache: StoredSearchTokens? = nil
    var keepsTokenCache = false
    /// Each person's entry in `tokenCache`, by display position, when known (see `SearchIndexBuilder`).
    var tokenCacheRows: [UInt32]? = nil
    /// The published base's records, when this run makes a new base where everyone was located in the published one.
    var baseRecords: SearchBaseRecords? = nil
    /// The run before's export rows and the published folder their exports are in; nil keeps no table.
    var exportRows: (previous: ExportRows?, folder: String?)? = nil
    /// Everyone's row key and row in the run before's table, when a table is kept (`RowMatch.make`).
    var rowMatch: RowMatch? = nil
    /// Where the list rows are kept for the next run, and the run before's are (with
    /// `rowMatch`); nil keeps none.
    var keptRowFiles: KeptRowFiles? = nil
    /// The person pages' frame, made once (`withPersonFrame()`); nil makes it for each page.
    var personFrame: FrameBytes? = nil
    /// The night pages (`SiteHistory.Night.file`) to carry over from the published site instead of rendering: the
    /// nights no change since the run that published it reaches (`SiteHistory.nightsUnreached`).
    var carriedNights: Set<String> = []

    // MARK: - Person pages

    /// `people/<slug>.md`, `.html` and `.vcf` for the people in `range`.
    func renderPeople(_ range: Range<Int>, to output: some SiteOutput) throws(SiteError) -> [String] {
        var paths: [String] = []
        paths.reserveCapacity(range.count * 3)
        for position in range {
            let person = directory.people[position]
            try renderPerson(person, links: PersonLinks(of: person, in: directory), to: output, paths: &paths)
        }
        return paths
    }

    /// One person's `people/<slug>.md`, `.html` and `.vcf`, showing the manager and reports in `links`; appends
    /// the paths written to `paths`.
    func renderPerson(
        _ person: SitePerson, links: PersonLinks, to output: some SiteOutput, paths: inout [String]
    ) throws(SiteError) {
        let base = "people/\(person.slug)"
        let personStamp = stamp(for: person)
        let model = PersonPage(person, stamp: personStamp, links: links, history: history)
        let markdown = try markdown(of: model)
        let fragment = try markdownHTML(of: model, markdown: markdown, path: base + ".md")
        let html = try personPage(
            of: model, markdownHTML: fragment, title: person.user.displayName, stamp: personStamp)
        try write(markdown, base + ".md", output, &paths)
        try write(html, base + ".html", output, &paths)
        try write(VCard.cardBytes(for: person), base + ".vcf", output, &paths)
    }

    /// A person page's "data as of": when this person's record last changed in the retained history (or
    /// since when the history has seen it unchanged), never the run's own time. A change elsewhere in the
    /// directory then leaves this person's pages byte for byte as they were, so a nightly run rewrites only the
    /// pages of the people who changed.
    func stamp(for person: SitePerson) -> SiteStamp {
        stamp(of: history.person(person))
    }

    /// `stamp(for:)` from what the history holds for the person: the stamp of `stampDate(of:)`.
    func stamp(of found: SiteHistory.PersonHistory) -> SiteStamp {
        found.unchangedSince.map(history.stamp(at:)) ?? stamp
    }

    /// The date of the stamp a person's page shows (`stamp(of:)`): the page and its fingerprint
    /// (`addFingerprintInput`, which takes its `SiteStamp.seconds`) take it the same way.
    func stampDate(of found: SiteHistory.PersonHistory) -> Date {
        found.unchangedSince ?? stamp.date
    }

    // MARK: - Lists

    /// `index.html`: the search box, and everyone listed when the directory is small enough.
    func renderIndex(to output: some SiteOutput) throws(SiteError) -> [String] {
        let listed = directory.people.count <= options.indexListLimit
        let index = ListPage.Index(
            title: SiteEscaping.displayText(options.title), count: directory.people.count, isListed: listed,
            letters: letterLinks(current: nil), rows: listed ? directory.people.map(ListPage.Row.init) : [])
        let html = try page(
            frame(kind: "index", title: "Search", root: "", scripts: ["assets/search.js"], isIndex: true)
        ) { (page: inout PageBytes) throws(SiteError) in
            try appendBody(of: index, to: &page)
        }
        var paths: [String] = []
        try write(html, "index.html", output, &paths)
        return paths
    }

    /// `browse/index.html` and `browse/<letter>[-n].html`, copying the rows from `rows` when given.
    func renderBrowse(to output: some SiteOutput, rows made: ListRows? = nil) throws(SiteError) -> [String] {
        var paths: [String] = []
        let overview = try templates.render(
            "browse", ["root": "../", "letters": ListPage.context(letterLinks(current: nil))])
        try write(
            try page(kind: "browse", title: "People A–Z", root: "../", content: overview),
            "browse/index.html", output, &paths)
        for (key, people) in directory.letters {
            let label = SiteDirectory.label(forLetter: key)
            let letters = letterLinks(current: key)
            for (number, slice) in Self.pages(of: people).enumerated() {
                let letter = ListPage.Letter(
                    label: label, letters: letters, pages: pagerLinks(base: key, count: people.count, current: number),
                    rows: slice.map { ListPage.Row(directory.people[$0]) }, made: made)
                let html = try page(frame(kind: "letter", title: "People: \(label)", root: "../")) {
                    (page: inout PageBytes) throws(SiteError) in
                    try appendBody(of: letter, to: &page)
                }
                try write(html, "browse/" + Self.pageFile(base: key, number: number), output, &paths)
            }
        }
        return paths
    }

    /// `departments.html` with counts and `departments/<name>[-n].html`, copying the rows from `rows` when given.
    func renderDepartments(to output: some SiteOutput, rows made: ListRows? = nil) throws(SiteError) -> [String] {
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
            let name = SiteEscaping.displayText(department.name)
            for (number, slice) in Self.pages(of: department.people).enumerated() {
                let list = ListPage.Department(
                    name: name, count: department.people.count,
                    pages: pagerLinks(base: department.file, count: department.people.count, current: number),
                    rows: slice.map { ListPage.Row(directory.people[$0]) }, made: made)
                let html = try page(frame(kind: "department", title: department.name, root: "../")) {
                    (page: inout PageBytes) throws(SiteError) in
                    try appendBody(of: list, to: &page)
                }
                try write(html, "departments/" + Self.pageFile(base: department.file, number: number), output, &paths)
            }
        }
        return paths
    }

    /// The browse pages, the department pages and the index, with every row made once (`ListRows`) when both
    /// kinds of list page are the compiled built-in ones and the directory is not too large for it.
    ///
    /// With `keptRowFiles` and `rowMatch`, the rows of people whose row key is unchanged are copied from the run
    /// before's, and everyone's are kept for the next run: `kept` is the table's entry for them, nil when none were
    /// kept.
    func renderLists(to output: some SiteOutput) throws(SiteError) -> (paths: [String], kept: KeptRows?) {
        let shared =
            templates.isBuiltin(CompiledPage.letter) && templates.isBuiltin(CompiledPage.department)
            && directory.people.count <= ListRows.limit
        var rows: ListRows?
        var kept: KeptRows?
        if shared {
            let keeping = keeping(.listRows) { copier, match in
                let made = ListRows(directory, copying: &copier, match: match)
                return (made, made.write)
            }
            (rows, kept) = (keeping?.made ?? ListRows(directory), keeping?.kept)
        }
        let paths =
            try renderBrowse(to: output, rows: rows) + renderDepartments(to: output, rows: rows)
            + renderIndex(to: output)
        return (paths, kept)
    }

    /// What one kind of kept rows gave the table: its file's entry (nil when it could not be written, with the
    /// warning saying why) and how many rows were copied from the run before's.
    struct KeptRows: Sendable {
        let kind: KeptRowKind
        let file: ExportRows.File?
        let warning: String?
        let copied: Int

        init(_ kind: KeptRowKind, _ kept: Result<ExportRows.File, FileReplacement.Failure>, copied: Int) {
            self.kind = kind
            self.copied = copied
            switch kept {
            case .success(let file):
                (self.file, warning) = (file, nil)
            case .failure(let failure):
                file = nil
                warning =
                    "the \(kind.label) could not be kept (\(failure.localizedDescription)); the next run makes them all"
            }
        }
    }

    /// Makes one kind of kept rows with `make`, which copies each person's row from `copier` (the run before's rows)
    /// where the match gives them one and hands back the writer of every row one after the other, then keeps them
    /// for the next run. Nil, without calling `make`, when this render keeps no rows (no `keptRowFiles` or no
    /// `rowMatch`).
    private func keeping<Made>(
        _ kind: KeptRowKind, _ make: (inout RowCopier, RowMatch) -> (made: Made, rows: FileReplacement.Contents)
    ) -> (made: Made, kept: KeptRows)? {
        guard let files = keptRowFiles, let match = rowMatch else { return nil }
        var copier = files.copier(
            kind, previous: match.copiesRows ? exportRows?.previous : nil, count: directory.people.count)
        let (made, rows) = make(&copier, match)
        let kept = files.keep(kind, spans: copier.spans, stamp: match.stamp, rows: rows)
        return (made, KeptRows(kind, kept, copied: copier.copied))
    }

    private func letterLinks(current: String?) -> [ListPage.LetterLink] {
        directory.letters.map { key, people in
            ListPage.LetterLink(
                file: "\(key).html", label: SiteDirectory.label(forLetter: key), count: people.count,
                isCurrent: key == current)
        }
    }

    private func pagerLinks(base: String, count: Int, current: Int) -> [ListPage.PagerLink] {
        let pageCount = (count + Self.pageSizeValue - 1) / Self.pageSizeValue
        return (0..<pageCount).map { number in
            ListPage.PagerLink(
                file: Self.pageFile(base: base, number: number), number: number + 1, isCurrent: number == current)
        }
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
        try SearchIndexBuilder().files(for: directory) { (file) throws(SiteError) in
            try write(file.bytes, file.path, output, &paths)
        }
        return (paths, paths.count - 1)
    }

    /// The search files apart from the manifest, in three parts that can be made at the same time.
    enum SearchPart: Sendable, CaseIterable {
        case tokens, phones, records
    }

    /// What one `SearchPart` wrote, and what it adds to the manifest.
    struct SearchPiece: Sendable {
        var paths: [String] = []
        var leaves: [String] = []
        var digits: [(key: String, value: Int)] = []
        /// The token part's tokens for the next run, and how many people it tokenized.
        var tokenCache: SearchTokenCache?
        var tokenized = 0
        /// How many records the record part copied from the published base (`SearchBaseRecords`).
        var recordsFromBase = 0
        /// The token part's new search base, which the manifest names.
        var base: SearchBase?
    }

    /// One part of the search files (see `renderSearch`, which makes them all in turn); the manifest follows
    /// from the pieces (`renderSearchManifest`). Why parts: on a nightly run the search index is the longest
    /// single task, and the token shards alone are most of it.
    func renderSearch(_ part: SearchPart, to output: some SiteOutput) throws(SiteError) -> SearchPiece {
        var piece = SearchPiece()
        var builder = SearchIndexBuilder()
        // The whole cache only for the part that numbers tokens: it is decoded here when no overlay took the night.
        builder.tokenCache = part == .tokens ? tokenCache?.whole() : nil
        builder.keepsTokenCache = keepsTokenCache
        builder.rowMatch = rowMatch
        builder.cacheRows = tokenCacheRows
        builder.baseRecords = baseRecords
        let emit = { (file: SearchIndexBuilder.File) throws(SiteError) in
            try write(file.bytes, file.path, output, &piece.paths)
        }
        switch part {
        case .tokens:
            let made = try builder.tokenShards(for: directory, emit: emit)
            (piece.leaves, piece.tokenized) = (made.leaves, made.tokenized)
            // Everyone's tokens kept are the base the next nights' overlays are made against.
            if let cache = made.cache, cache.ids.count == directory.people.count {
                let base = SearchBase(keys: cache.entries.lazy.map(\.key), lengthened: directory.lengthenedSlugs)
                (piece.tokenCache, piece.base) = (cache.with(base: base), base)
            } else {
                piece.tokenCache = made.cache
            }
        case .phones: piece.digits = try builder.phoneShards(directory, emit: emit)
        case .records: piece.recordsFromBase = try builder.recordChunks(for: directory, emit: emit)
        }
        return piece
    }

    /// `search/manifest.js` for the pieces of every `SearchPart`, and with a new base its empty overlay.
    func renderSearchManifest(_ pieces: [SearchPiece], to output: some SiteOutput) throws(SiteError) -> [String] {
        let base = pieces.lazy.compactMap(\.base).first
        let builder = SearchIndexBuilder()
        let manifest = builder.manifest(
            people: directory.people.count, leaves: pieces.flatMap(\.leaves), digits: pieces.flatMap(\.digits),
            base: base)
        var paths: [String] = []
        if let base {
            try builder.overlayFiles(nil, base: base, directory: directory) { (file) throws(SiteError) in
                try write(file.bytes, file.path, output, &paths)
            }
        }
        try write(manifest.bytes, manifest.path, output, &paths)
        return paths
    }

    /// The search files of a night that keeps the published base (`SearchOverlayPlan`): the base's files carried
    /// over from the published site unchanged (left alone where the output already holds them), and the overlay
    /// of who changed since written.
    func renderSearchOverlay(_ plan: SearchOverlayPlan, to output: some SiteOutput) throws(SiteError) -> SearchPiece {
        var piece = SearchPiece(tokenized: plan.people.count)
        guard output.carryOver(plan.baseFiles) else {
            // The published base is not whole (a file removed by hand): every search file made here, with no base,
            // so the next run, finding none published, makes a new one. The tokens kept stay the base's.
            piece.paths = try renderSearch(to: output).paths
            piece.tokenized = directory.people.count
            return piece
        }
        piece.paths = plan.baseFiles
        try SearchIndexBuilder().overlayFiles(plan, base: plan.base, directory: directory) {
            (file) throws(SiteError) in
            try write(file.bytes, file.path, output, &piece.paths)
        }
        return piece
    }

    /// The exports switched on in the options, with the table of their rows for the next run when `exportRows`
    /// asks for one; unchanged rows are copied from the published exports `exportRows` describes.
    func renderExports(to output: some SiteOutput) throws(SiteError) -> (paths: [String], rows: ExportRows.Made?) {
        let exports = SiteExport.allCases.filter { options.exports.contains($0) }
        let folder = exportRows?.folder
        do {
            let rows = try SiteExports.write(
                exports, of: directory, hidden: options.hideFields,
                keepingTable: rowMatch != nil, previous: exportRows?.previous, match: rowMatch,
                published: { export in folder.flatMap { Self.publishedBytes(export, in: $0) } }
            ) { export, produce in
                do {
                    try output.write(to: export.fileName, pieces: produce)
                } catch {
                    throw SiteError.writing(export.fileName, error)
                }
            }
            return (exports.map(\.fileName), rows)
        } catch {
            throw SiteError.writing(exports.map(\.fileName).joined(separator: ", "), error)
        }
    }

    /// The bytes of `export` in the published site at `folder` (mapped), nil when it cannot be read.
    private static func publishedBytes(_ export: SiteExport, in folder: String) -> MappedFile? {
        MappedFile(path: folder + "/" + export.fileName)
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

    /// Wraps a page body rendered elsewhere (the change pages) in the layout.
    func page(
        kind: String, title: String, root: String, content: String, stamp: SiteStamp? = nil
    ) throws(SiteError) -> [UInt8] {
        try page(frame(kind: kind, title: title, root: root, stamp: stamp)) { (page: inout PageBytes) in
            page.raw(content)
        }
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
        } catch {
            throw SiteError.writing(path, error)
        }
        paths.append(path)
    }
}
