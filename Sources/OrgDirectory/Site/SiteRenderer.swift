import Foundation

/// Renders the whole site for a list of people: person pages (Markdown, HTML, vCard), the searchable index,
/// browse and department pages, search shards, exports and assets.
///
/// Templates are parsed and checked once in `init`; `render` spreads the work over all cores with a task
/// group and writes deterministic bytes through the `SiteOutput`.
public struct SiteRenderer: Sendable {
    /// The folders of the list pages (`SiteRenderJob.renderBrowse`, `.renderDepartments`): each page lists hundreds of
    /// people, so a night that changes one percent of them writes nearly every one of these pages again.
    public static let listPageFolders = ["browse", "departments"]

    public let options: SiteOptions
    let templates: TemplateSet

    /// People per browse or department page; longer lists get numbered pages.
    static let pageSize = 500
    /// People rendered by one task.
    static let personChunk = 256
    /// Up to this many people, the search index and the exports are built at the same time (see `render`).
    static let concurrentIndexLimit = 300_000

    /// Parses the built-in templates with `options.templatesDirectory` overriding any of them.
    public init(options: SiteOptions) throws(SiteError) {
        for field in options.hideFields where !SiteOptions.hideableFields.contains(field) {
            // `select`ed extra properties may be hidden too; only plain typos of model fields are rejected.
            if SiteOptions.hideableFields.contains(where: { $0.lowercased() == field.lowercased() }) {
                throw .unknownHiddenField(name: field)
            }
        }
        if let missing = Markdown.missingExtensions.first {
            throw .markdownFailed(path: "cmark-gfm extension \(missing) is not available")
        }
        self.options = options
        self.templates = try TemplateSet(overriding: options.templatesDirectory)
    }

    /// Renders every file for `people` (any order) into `output`; `generatedAt` is the "data as of" stamp and
    /// `history` the retained changes (including this run's) for the change page, the feed and person pages.
    ///
    /// With `fingerprintsFor` (the published folder's path) every person's render fingerprint is returned in the
    /// report, and people whose fingerprint equals the one in `previous` (kept by the run that published that
    /// folder) are carried over from it by `output` instead of being rendered. `inPlace` are the fingerprints of
    /// the earlier site `output` starts as (a recycled staging folder): people whose fingerprint matches it too
    /// are left as they are, and whatever the new site does not have is removed from `output` at the end.
    /// `listingPaths: false` leaves the report's `paths` empty (the count stays), which a million-person build
    /// cannot afford to hold. People whose record is the one `searchTokens` (the run before's) has are not
    /// tokenized again; tokens handed over as `.loading` are read beside the directory's making (the first part of a
    /// render that needs them comes after it, see `SearchTokenSource`); with `keepingSearchTokens` the report carries
    /// everyone's tokens for the next run, and when
    /// the tokens name the published search base and at most `SearchOverlayPlan.largestShare` of the people changed
    /// since, only an overlay is written (`SearchOverlayPlan`; the report's `searchBaseRows` say where everyone is in
    /// the base, and the tokens stay the base's, in its order: the next run passes those rows as `searchBaseRows`);
    /// a run that makes a new base copies the records of everyone located in the published one from there
    /// (`SearchBaseRecords`). With
    /// `keepingExportRows` it carries the table of everyone's export rows, and rows of people whose row is
    /// unchanged since `exportRows` (the run before's, describing the exports in `published`) are copied from there;
    /// with `keptRows` too, the list rows are kept there for the next run, and those of people
    /// whose row is unchanged are copied from the run before's (`KeptRowFiles`). People `preparations` has (the run
    /// before's `PreparationCache`, with whom it no longer describes) are not prepared again; with
    /// `keepingPreparations` the report carries everyone's preparation for the next run, unless `savingPreparations`
    /// is given: then a render task hands them to it as soon as the directory is made (nil when the directory keeps
    /// none, see `SiteDirectory.digestLimit`), and they are freed once saved (its warning, if any, goes to the
    /// report's). Held to the end of the render instead, they raised a 100,000-person full build's peak by some 8 MiB
    /// (see `BuildPipeline.renderAndPublish`). With `reach` (the night's `PageReach`), the fingerprints the report
    /// carries keep what the pages shared (`PageContext`), and when `previous` kept the same, tonight's changes aside,
    /// the fingerprints of the people no change reached are carried from it rather than taken again.
    public func render(
        _ people: [User], generatedAt: Date, history: ChangeHistory = ChangeHistory(),
        fingerprintsFor published: String? = nil, reusing previous: RenderFingerprints? = nil,
        inPlace: RenderFingerprints? = nil, listingPaths: Bool = true, prerendered: PrerenderedPeople? = nil,
        searchTokens: SearchTokenSource? = nil, keepingSearchTokens: Bool = false,
        searchBaseRows: SearchBaseRows? = nil,
        exportRows: ExportRows? = nil,
        keepingExportRows: Bool = false, keptRows: KeptRowFiles? = nil, preparations: KeptPreparations? = nil,
        keepingPreparations: Bool = false,
        savingPreparations: PreparationSaving? = nil, reach: PageReach? = nil, to output: some SiteOutput
    ) async throws(SiteError) -> SiteReport {
        // Read beside the directory's making: the keys, and the whole cache too when the night will likely need it.
        async let loadedSearchTokens = { () -> StoredSearchTokens? in
            guard let stored = searchTokens?.tokens() else { return nil }
            let likelyWhole =
                reach.map {
                    SearchOverlayPlan.likelyNewBase(
                        previousRows: searchBaseRows, changed: $0.managers.count, people: people.count)
                } ?? true
            if likelyWhole { _ = stored.whole() }
            return stored
        }()
        var built = await SiteDirectory.build(
            users: people, hiding: options.hideFields, early: prerendered, kept: preparations,
            keepingPreparations: keepingPreparations)
        // Taken out before the job copies the directory, so that the saving task's is the only reference left.
        let madePreparations = savingPreparations == nil ? nil : HandOff(built.takePreparations())
        let directory = consume built
        // Everyone's row key, made once on every core for the exports and the list rows.
        let match =
            keepingExportRows && directory.people.count <= SiteDirectory.digestLimit
            ? RowMatch.make(directory, previous: exportRows, hiding: options.hideFields) : nil
        let site =
            published == nil && prerendered == nil
            ? nil : SiteRenderJob.siteFingerprint(options: options, templates: templates)
        let previous = previous.flatMap { $0.output == published ? $0.indexed() : nil }
        let inPlace = inPlace.flatMap { $0.output == published ? $0.indexed() : nil }
        // An output that started as an earlier site keeps nothing this render does not write: the earlier site's
        // fingerprints say which people's files are stale, and without them (a first build over the spare of an
        // output that is gone) the folders are listed.
        let sweeping = inPlace != nil || output.holdsEarlierFiles
        // Fingerprints are looked up by merging files in id order with the people in id order (see
        // `IDOrderedLines`), once here, and written in that order for the next run.
        let idOrder = published == nil ? nil : directory.displayPositionsInIDOrder()
        // The two merges side by side: one after the other, the other core waited for each (some 30 ms apiece at
        // 100,000 people) before any render task started. The history's people are placed beside the shorter one
        // (no lines kept), where they were placed before both on one core.
        // The spare's lines, read with their slugs, are where the new file copies the lines that stay (`LineSource`).
        let hidden = options.hideFields
        let searchTokens = await loadedSearchTokens
        defer { BackgroundRelease.keepIfExiting(searchTokens) }
        // Where everyone is in the search base the kept tokens describe, and the overlay plan when one will do: a
        // night whose changes since the published base are few writes only their overlay; one that makes a new base
        // finds everyone's tokens where they were located.
        let searchBase =
            keepingSearchTokens && directory.people.count <= Self.concurrentIndexLimit && prerendered == nil
            ? searchTokens : nil
        @Sendable func locateInSearchBase() -> (
            rows: SearchBaseRows, plan: SearchOverlayPlan?, records: SearchBaseRecords?
        )? {
            guard let cache = searchBase,
                let rows = SearchOverlayPlan.locate(
                    directory: directory, cache: cache, match: match, previousRows: searchBaseRows)
            else { return nil }
            let publishedBase = published.flatMap(PublishedSearchBase.init(publishedIn:))
            let plan = SearchOverlayPlan.make(located: rows, cache: cache, published: publishedBase)
            // A new base copies the records of the people located in the published one from its files, and numbers
            // everyone's tokens from the whole cache: decoded here, beside the other merge, rather than in the token
            // part of the render, where the other parts would wait for it.
            let records = plan == nil ? publishedBase.flatMap { SearchBaseRecords(published: $0, rows: rows) } : nil
            if plan == nil { _ = cache.whole() }
            return (rows, plan, records)
        }
        let ((previousByPosition, placedHistory), (inPlaceMerged, located)) = BothAtOnce.run(
            {
                (
                    previous?.byPosition(in: directory, idOrder: idOrder),
                    SiteHistory(history, hiding: hidden).placed(in: directory)
                )
            },
            {
                (
                    inPlace?.byPosition(in: directory, idOrder: idOrder, keepingLines: true),
                    locateInSearchBase()
                )
            })
        let overlayPlan = located?.plan
        // What the pages share, kept with the fingerprints; and whose fingerprints are carried from `previous`.
        let context = site.flatMap { site in
            reach.map { reach in
                PageContext(
                    snapshot: reach.snapshot, site: site,
                    history: PageContext.historyDigest(
                        history, startsAt: placedHistory.startsAt, generatedAt: generatedAt),
                    departments: PageContext.departmentsDigest(directory.departments),
                    lengthened: directory.lengthenedSlugs.map { directory.people[$0].user.id }.sorted(
                        by: User.idPrecedes))
            }
        }
        let slugsChanged = context.flatMap { context in
            reach.flatMap { reach in
                Self.slugsChanged(
                    from: previous?.context, to: context, reach: reach, history: history,
                    startsAt: placedHistory.startsAt, generatedAt: generatedAt, directory: directory)
            }
        }
        let reached = reach.flatMap { reach in slugsChanged.map { reach.reached(in: directory, slugsChanged: $0) } }
        var made = SiteRenderJob(
            options: options, templates: templates, directory: directory, stamp: SiteStamp(generatedAt),
            history: placedHistory, tokenCache: searchTokens, keepsTokenCache: keepingSearchTokens,
            tokenCacheRows: located?.rows.numbers, baseRecords: located?.records,
            exportRows: keepingExportRows ? (exportRows, published) : nil, rowMatch: match, keptRowFiles: keptRows
        )
        .withPersonFrame()
        if let reach, let slugsChanged {
            // A night's page links its people's pages: only those who joined, left or were renamed, or whose slug
            // was lengthened or shortened, can change it.
            made.carriedNights = placedHistory.nightsUnreached(
                by: reach.relinked.union(slugsChanged), tonight: reach.snapshot)
        }
        let job = made
        let inPlaceByPosition = inPlaceMerged?.fingerprints
        let omittingCopiedIDs = inPlaceMerged?.lines?.copies(count: directory.people.count) == true
        if let prerendered { try job.removePrerendered(prerendered, missingFrom: directory, in: output) }
        // Every path is kept only when asked: at a million people the list is three million strings.
        var paths: [String] = []
        var fileCount = 0
        var shards = 0
        var people = SiteRenderJob.PeopleChunk()
        var changePagesCarried = 0
        // Files other than person pages, for sweeping a recycled output.
        var otherPaths: Set<String> = []
        var searchPieces: [SiteRenderJob.SearchPiece] = []
        var exportTable: ExportRows.Made?
        var keptFiles: [SiteRenderJob.KeptRows] = []
        var warnings: [String] = []
        // Each person chunk's fingerprints by its first position: chunks finish in any order.
        var fingerprintChunks: [(start: Int, fingerprints: [RenderFingerprints.Entry])] = []
        do {
            try await withThrowingTaskGroup(of: RenderPart.self) { group in
                let workers = max(2, ProcessInfo.processInfo.activeProcessorCount)
                // The whole-directory files go first, so person chunks fill the other cores around them instead of
                // one long task finishing alone at the end. The search index and the exports each hold a copy of
                // everyone in memory: in a large directory they run one after the other, never together (a
                // million people stay under 2 GB); below `concurrentIndexLimit` they are separate tasks, because
                // on a nightly run, with few people to render, that chain is what the run waits for.
                var pending: [@Sendable () throws -> RenderPart]
                let lists = { @Sendable () throws -> RenderPart in
                    let lists = try job.renderLists(to: output)
                    return RenderPart(lists.paths, kept: lists.kept)
                }
                let exports = { @Sendable () throws -> RenderPart in
                    let exports = try job.renderExports(to: output)
                    return RenderPart(exports.paths, exports: exports.rows)
                }
                if let overlayPlan {
                    pending = [
                        exports, lists,
                        {
                            let piece = try job.renderSearchOverlay(overlayPlan, to: output)
                            return RenderPart(piece.paths, shards: piece.paths.count, search: piece)
                        },
                    ]
                } else if directory.people.count <= Self.concurrentIndexLimit {
                    // Longest first, so the last ones to finish are short: the exports (the longest of a first
                    // build, and of a nightly run now that it copies rows), the token shards, the list pages.
                    let search = { (part: SiteRenderJob.SearchPart) in
                        { @Sendable () throws -> RenderPart in
                            let piece = try job.renderSearch(part, to: output)
                            return RenderPart(piece.paths, shards: piece.paths.count, search: piece)
                        }
                    }
                    pending = [exports, search(.tokens), lists, search(.phones), search(.records)]
                } else {
                    pending = [
                        {
                            let search = try job.renderSearch(to: output)
                            let exports = try job.renderExports(to: output)
                            return RenderPart(
                                search.paths + exports.paths, shards: search.shards, exports: exports.rows)
                        },
                        lists,
                    ]
                }
                if sweeping {
                    pending.append {
                        // A carried fingerprint that is the spare's too names the spare's slug.
                        try job.removeStalePeople(
                            from: output, inPlace: inPlace, idOrder: idOrder, merged: inPlaceMerged?.lines
                        ) { position in
                            guard let reached, !reached[position], let carried = previousByPosition?[position] else {
                                return false
                            }
                            return inPlaceByPosition?[position] == carried
                        }
                        return RenderPart([])
                    }
                }
                if let madePreparations, let savingPreparations {
                    // First of all: saved and freed before the render's largest values are made.
                    pending.insert(
                        {
                            var part = RenderPart([])
                            if let made = madePreparations.take() { part.warning = savingPreparations.save(made) }
                            return part
                        }, at: 0)
                }
                pending += [
                    {
                        let changes = try job.renderChanges(to: output)
                        var part = RenderPart(changes.paths)
                        part.changePagesCarried = changes.carried
                        return part
                    },
                    { RenderPart(try job.writeAssets(to: output)) },
                ]
                var start = 0
                while start < directory.people.count {
                    let range = start..<min(directory.people.count, start + Self.personChunk)
                    if let site {
                        pending.append {
                            let chunk = try job.renderPeople(
                                range, reusing: previousByPosition, inPlace: inPlaceByPosition, reached: reached,
                                prerendered: prerendered, site: site, listingPaths: listingPaths,
                                omittingCopiedIDs: omittingCopiedIDs, to: output)
                            return RenderPart(chunk.paths, fileCount: chunk.fileCount, people: chunk)
                        }
                    } else {
                        pending.append { RenderPart(try job.renderPeople(range, to: output)) }
                    }
                    start = range.upperBound
                }
                func collect(_ done: RenderPart) {
                    fileCount += done.fileCount
                    if listingPaths { paths += done.paths }
                    if sweeping && done.people == nil { otherPaths.formUnion(done.paths) }
                    shards += done.shards
                    if let piece = done.search { searchPieces.append(piece) }
                    if let rows = done.exports { exportTable = rows }
                    if let kept = done.kept { keptFiles.append(kept) }
                    if let warning = done.warning { warnings.append(warning) }
                    if let chunk = done.people {
                        fingerprintChunks.append((chunk.start, chunk.fingerprints))
                        people.rendered += chunk.rendered
                        people.reused += chunk.reused
                        people.prerendered += chunk.prerendered
                        people.carried += chunk.carried
                    }
                    changePagesCarried += done.changePagesCarried
                }
                var limiter = TaskLimiter(limit: workers)
                for work in pending { try await limiter.add(work, to: &group, collect: collect) }
                for try await done in group { collect(done) }
                // An overlay night leaves the base's manifest as it is.
                if !searchPieces.isEmpty && overlayPlan == nil {
                    collect(RenderPart(try job.renderSearchManifest(searchPieces, to: output)))
                }
            }
            if sweeping {
                try output.removeStale(in: "", skipping: ["people"]) { otherPaths.contains($0) }
            }
        } catch {
            throw SiteError.writing("site", error)
        }
        paths.sort()
        var report = SiteReport(
            filesWritten: fileCount, people: directory.people.count, searchShards: shards,
            departments: directory.departments.count, paths: paths)
        report.peopleRendered = site == nil ? directory.people.count : people.rendered
        report.peopleReused = people.reused
        report.peoplePrerendered = people.prerendered
        report.fingerprintsCarried = people.carried
        report.changePagesCarried = changePagesCarried
        // The token part ran only in the concurrent layout; otherwise everyone was tokenized.
        report.peopleTokenized =
            searchPieces.isEmpty ? directory.people.count : searchPieces.reduce(0) { $0 + $1.tokenized }
        report.searchTokens = searchPieces.lazy.compactMap(\.tokenCache).first
        report.searchBaseRows = overlayPlan?.rows
        report.searchRecordsFromBase = searchPieces.reduce(0) { $0 + $1.recordsFromBase }
        if var table = exportTable?.table {
            for kept in keptFiles { table.kept[kept.kind] = kept.file }
            report.exportRows = table
        }
        report.preparations = directory.preparations
        report.peoplePreparedBefore = directory.preparedBefore
        report.exportRowsCopied = exportTable?.copied ?? 0
        report.keptRowsCopied = keptFiles.reduce(0) { $0 + $1.copied }
        report.warnings = keptFiles.sorted { $0.kind.rawValue < $1.kind.rawValue }.compactMap(\.warning) + warnings
        report.fingerprints = published.map { output in
            var made = RenderFingerprints(
                output: output, inOrder: fingerprintChunks.sorted { $0.start < $1.start }.map(\.fingerprints),
                idOrder: idOrder, copying: inPlaceMerged?.lines)
            made.context = context
            return made
        }
        BackgroundRelease.drop((consume job, consume directory))
        return report
    }
}

extension SiteRenderer {
    /// Whether a render whose pages share `context` can carry, from fingerprints kept with `before`, those of the
    /// people `reach` says no change reached, and if so the ids of the people whose slug was lengthened on one side
    /// only (their slug changed with nothing in their record: `PageReach.reached(in:slugsChanged:)`); nil when it
    /// cannot. It can when the fingerprints were made with the snapshot the night's changes were found against, and
    /// everything else a page takes from outside the people is as it was then, tonight's changes aside (`history`
    /// without tonight's night); not when two people share an id (whose links the reach, by id, cannot place).
    static func slugsChanged(
        from before: PageContext?, to context: PageContext, reach: PageReach, history: ChangeHistory,
        startsAt: Date?, generatedAt: Date, directory: SiteDirectory
    ) -> Set<String>? {
        guard let before, let baseline = reach.baseline, before.snapshot == baseline, before.site == context.site,
            before.departments == context.departments, let lengthenedBefore = before.lengthened,
            let lengthened = context.lengthened, directory.placesByPosition,
            before.history
                == PageContext.historyDigest(
                    history, startsAt: startsAt, generatedAt: generatedAt, leavingOut: context.snapshot,
                    restoringDropped: true)
        else { return nil }
        return Set(lengthenedBefore).symmetricDifference(lengthened)
    }
}

/// Where a render saves everyone's preparation for the next run (`SiteRenderer.render`'s `savingPreparations`):
/// given nil when the directory keeps none, it returns a warning when they cannot be saved.
public struct PreparationSaving: Sendable {
    let save: @Sendable (PreparationCache.Made?) -> String?
}

/// What one render task produced: its files, the search shards among them, and for person chunks the
/// fingerprints and counts.
private struct RenderPart: Sendable {
    var paths: [String]
    /// How many files the part has: `paths.count`, unless it listed none (see `renderPeople`).
    var fileCount: Int
    var shards = 0
    var people: SiteRenderJob.PeopleChunk?
    /// A part of the search files, for the manifest written once all are done.
    var search: SiteRenderJob.SearchPiece?
    /// The exports' table of rows, and how many rows were copied.
    var exports: ExportRows.Made?
    /// The list rows kept for the next run.
    var kept: SiteRenderJob.KeptRows?
    /// What the part could not keep for the next run (the preparations' save).
    var warning: String?
    /// Night pages carried over instead of rendered (the change pages' part).
    var changePagesCarried = 0

    init(
        _ paths: [String], fileCount: Int? = nil, shards: Int = 0, people: SiteRenderJob.PeopleChunk? = nil,
        search: SiteRenderJob.SearchPiece? = nil, exports: ExportRows.Made? = nil, kept: SiteRenderJob.KeptRows? = nil
    ) {
        self.kept = kept
        self.paths = paths
        self.fileCount = fileCount ?? paths.count
        self.shards = shards
        self.people = people
        self.search = search
        self.exports = exports
    }
}
