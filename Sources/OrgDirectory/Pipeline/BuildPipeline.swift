import Foundation
import Logging

/// Runs the whole job: lock → sign in → sync (full or delta) → local rules → removal guard → render →
/// publish → snapshot → delta state.
///
/// Each stage is its own type; this one wires them in order and turns their errors into `BuildError`. Nothing
/// reaches the output folder unless every stage before publishing succeeded, and the snapshot and delta link
/// are recorded only after the site is published, so a crash at any point leaves a state the next run can
/// build on (at worst it replays changes, which are idempotent).
public struct BuildPipeline: Sendable {
    public let settings: Settings
    private let environment: [String: String]
    let logger: Logger
    let progress: ProgressReporter
    let transport: HTTPTransport
    /// Let a run through the mass-removal guard (`--accept-removals`).
    public var acceptRemovals = false

    public init(
        settings: Settings, environment: [String: String], logger: Logger, progress: ProgressReporter
    ) {
        self.settings = settings
        self.environment = environment
        self.logger = logger
        self.progress = progress
        self.transport = HTTPTransport(timeout: settings.requestTimeout)
    }

    /// For a process that exits as soon as its run is over (the `orgdir` command): the run's large values (the
    /// snapshots, the site directory, the state caches) are then kept to the end instead of freed one object at a
    /// time, which the kernel's taking back the address space at exit makes needless (see `BackgroundRelease`).
    /// A process that goes on after a run (tests, a server) must not call it: every run's memory would stay.
    public static func keepLargeValuesUntilExit() {
        BackgroundRelease.keepUntilExit()
    }

    /// Runs every stage and returns what happened.
    public func run() async throws(BuildError) -> RunSummary {
        let started = ContinuousClock.now
        let now = Date()
        // Again here: `--output` may have moved the output since the settings were read.
        do {
            try settings.checkFolders()
        } catch {
            throw .config(error)
        }
        let lock = try acquireLock()
        defer { lock.release() }
        var clock = StageClock(logger: logger)
        // Templates and site options are parsed and checked before any request: a typo in a template override
        // must not cost a sign-in and a whole Graph fetch before it is reported.
        let renderer = try makeRenderer()
        let snapshots = SnapshotStore(stateDirectory: settings.stateDirectory, keep: settings.keepSnapshots)
        let deltaStore = DeltaStateStore(stateDirectory: settings.stateDirectory)
        // Listed once for the run's first half: each listing reads every retained snapshot's header, and the history
        // asked for it three more times before the render, more files each night kept.
        let retained: [SnapshotEntry]
        do {
            retained = try snapshots.list()
        } catch {
            throw .state(error.errorDescription ?? "\(error)")
        }
        let latest = retained.last

        let (tokens, sync) = try makeSync(settings)
        let deltaState = deltaStore.load()
        // Tonight's delta round is fetched while the snapshot it builds on is decoded: the round needs nothing from
        // the snapshot, and each took about a tenth of a 100,000-person nightly run.
        async let prefetchedRound = prefetchRound(after: latest, with: sync, deltaState, now: now)
        let peopleTable = StateCacheFile(SnapshotPeopleTable.fileName, in: settings.stateDirectory)
        let (previous, previousFile) = try loadPrevious(latest, peopleTable: peopleTable)
        if previous != nil { logger.debug("snapshot read at \((ContinuousClock.now - started).formattedMilliseconds)") }
        // The run before's search tokens are read by the render, while it makes the directory (`SearchTokenSource`,
        // which says why): only a run with a snapshot to build on has any worth reading.
        let tokenContext = SearchTokenCache.context(hiding: settings.siteOptions.hideFields)
        let tokenStore = SearchTokenCacheStore(stateDirectory: settings.stateDirectory)
        let loadingSearchTokens: (@Sendable () -> StoredSearchTokens?)? =
            latest == nil ? nil : { @Sendable in tokenStore.load(context: tokenContext) }
        let rowStore = ExportRowStore(stateDirectory: settings.stateDirectory)
        async let exportRows = latest == nil ? nil : rowStore.load()
        // And the change history, which grows every night: read after the round, it was on the one core a nightly has
        // between the round and the render.
        let historyStore = ChangeHistoryStore(stateDirectory: settings.stateDirectory)
        async let savedHistory = latest == nil ? nil : (try? historyStore.load()) ?? nil
        // So are the render fingerprints of the published site and of the spare a nightly run updates.
        let fingerprintStore = RenderFingerprintStore(
            stateDirectory: settings.stateDirectory, output: settings.outputDirectory)
        // A run publishing its changes only updates the published site in place, and reads its fingerprints with the
        // slugs for that; only a whole-site publish keeps and updates a spare.
        async let storedFingerprints = fingerprintStore.read(
            spare: settings.keepsSpareSite, publishedSlugs: settings.publishMode == .changedFiles)
        // And everyone's preparation, when it was kept beside the snapshot this run compares with.
        let preparationContext = PreparationCache.context(hiding: settings.siteOptions.hideFields)
        let preparationStore = PreparationCacheStore(stateDirectory: settings.stateDirectory)
        async let storedPreparations = latest.flatMap {
            preparationStore.load(context: preparationContext, snapshot: $0.name)
        }
        let prefetched = await prefetchedRound
        if prefetched != nil {
            logger.debug("delta round fetched at \((ContinuousClock.now - started).formattedMilliseconds)")
        }
        let publisher = SitePublisher(output: settings.outputDirectory)
        var outcome: DirectorySync.Outcome
        var early: (staging: StagingDirectory, people: PrerenderedPeople)?
        if previous == nil {
            // A first build renders everything, and its fetch is mostly waiting: people are rendered as they arrive.
            let staging = try makeStaging(publisher)
            do {
                (outcome, early) = try await syncPrerendering(sync, with: renderer, into: staging, now: now)
            } catch {
                publisher.discard(staging)
                throw error
            }
        } else {
            do {
                outcome = try await sync.run(
                    previous: previous, deltaState: deltaState, now: now, prefetched: prefetched)
            } catch {
                throw .graph(error)
            }
        }
        clock.lap("sign-in and sync")

        // Only the count of the raw list is needed from here on, and the kept people are sorted in place: at a
        // million people every extra array of `User` values costs about 300 MB.
        var people = outcome.users
        let fetchedCount = people.count
        outcome.users = []
        let removed = settings.rules.apply(removingFrom: &people)
        for (rule, count) in removed.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            progress.say("rule \(rule.rawValue) removed \(count) \(count == 1 ? "person" : "people")")
        }
        // In the snapshot's order (by id, byte-wise) from here on: the diff and the snapshot take it as it is. A delta
        // run's people are in it already (the merge makes them so, and the rules only remove people); a full run's
        // are checked and, if need be, put in it by the parallel sort.
        if !outcome.inIDOrder { people.sortByID() }
        // On a first run everyone is a joiner and nothing downstream reads the list (no history entry, no
        // guard), so the diff stays empty rather than holding a second copy of everyone.
        var unequal: Set<String> = []
        let diff =
            previous.map { DirectoryDiff.between(canonical: $0.people, people, unequal: &unequal) } ?? DirectoryDiff()
        let changes = (
            joiners: previous == nil ? people.count : diff.joiners.count, leavers: diff.leavers.count,
            changed: diff.changed.count
        )
        if !acceptRemovals {
            do {
                try RemovalGuard(maxRemovals: settings.maxRemovals, maxRemovalPercent: settings.maxRemovalPercent)
                    .check(previousCount: previous?.people.count, diff: diff, newCount: people.count)
            } catch {
                if let early { publisher.discard(early.staging) }
                throw .removalGuard(error)
            }
        }

        clock.lap("rules, diff and removal guard")
        // Named before it is written: the site links this run's changes to it, and the preparations kept for the next
        // run name it.
        let snapshotName = snapshots.nextName(takenAt: now, after: latest)
        if let latest, latest.takenAt > now {
            logger.warning(
                "the clock is behind the newest snapshot (\(latest.name)); this run's is named after it so that it stays the newest"
            )
        }
        // Whose pages tonight's changes reach (and, below, the nights retention drops tonight): the render takes those
        // people's fingerprints and carries the rest.
        let nightReach =
            previous.flatMap { previous in
                latest.map {
                    PageReach(
                        recording: snapshotName, baseline: $0.name, previous: previous.people, current: people,
                        diff: diff, unequal: unequal)
                }
            } ?? PageReach(recording: snapshotName)
        let (runHistory, site) = siteHistory(
            snapshots: snapshots, previous: previous, diff: diff, takenAt: now, named: snapshotName,
            people: people.count, retained: retained, saved: await savedHistory)
        let reach = nightReach.adding(site.history.dropped)
        let metadata = SnapshotMetadata(
            tenant: settings.tenant, graphHost: settings.graphRoot.host ?? "", takenAt: now, filter: settings.filter,
            select: settings.select, expandManager: settings.expandManager,
            counts: SnapshotCounts(people: people.count, fetched: fetchedCount, removed: removed),
            syncKind: outcome.kind, fingerprint: sync.fingerprint)
        // The snapshot is written while the site renders (the render's first step runs on one core) and becomes
        // the latest snapshot only once the site is published.
        let snapshot = Snapshot(metadata: metadata, canonicallyOrdered: people)
        async let pendingSnapshot = Self.prepareSnapshot(
            snapshot, in: snapshots, reusing: previousFile, unequal: unequal, as: snapshotName,
            peopleTable: peopleTable)
        // The kept preparations describe the previous snapshot's people: only theirs whose record is unchanged count.
        let keptPreparations = await storedPreparations.flatMap { cache in
            cache.count == previous?.people.count ? KeptPreparations(cache: cache, unequal: unequal) : nil
        }
        let counts: PublishCounts
        do {
            counts = try await renderAndPublish(
                people, with: renderer, generatedAt: site.dataAsOf, history: site.history, early: early,
                searchTokens: (loadingSearchTokens, tokenStore, tokenContext), exportRows: (await exportRows, rowStore),
                fingerprints: (await storedFingerprints, fingerprintStore),
                preparations: (keptPreparations, preparationStore, preparationContext, snapshotName),
                reach: reach, publisher: publisher, clock: &clock)
        } catch {
            if case .success(let file) = await pendingSnapshot { file.discard() }
            throw error
        }
        if early != nil { BackgroundRelease.drop(early.take()) }

        let snapshotURL: URL
        do {
            snapshotURL = try await pendingSnapshot.get().commit()
        } catch {
            throw .state(
                "the site was published, but the snapshot could not be saved: \(error.errorDescription ?? "\(error)")")
        }
        clock.lap("snapshot save")
        var warnings = outcome.warnings + site.warnings + counts.warnings
        do {
            try runHistory?.record(
                diff: diff, savedName: snapshotURL.lastPathComponent, metadata: metadata, since: site.history.since)
        } catch {
            warnings.append("the change history could not be updated (\(error.errorDescription ?? "\(error)"))")
        }
        if let link = outcome.deltaLink {
            let fullSyncAt = outcome.kind == .full ? now : (deltaStore.load()?.fullSyncAt ?? now)
            do {
                try deltaStore.save(
                    DeltaState(deltaLink: link, queryFingerprint: sync.fingerprint, fullSyncAt: fullSyncAt))
            } catch {
                warnings.append(
                    "the delta link could not be saved (\(error.localizedDescription)); the next run is a full sync")
                deltaStore.clear()
            }
        } else {
            deltaStore.clear()
        }
        clock.lap("history and delta state")
        if counts.swappedWholeSite && settings.publishMode == .changedFiles {
            // The state files a night replaces whole and a first build leaves no spare of. The export row table needs
            // none (a night turns the file itself into its spare before the publish, `StateCacheFile.clear`), and a
            // first build writes no search overlay.
            keepCopiesForFirstNightly(
                publisher,
                stateFiles: [peopleTable.url, preparationStore.file] + KeptRowKind.allCases.map(rowStore.keptRows.url))
            clock.lap("copies kept for the first nightly")
        }
        for warning in warnings { logger.warning("\(warning)") }

        let summary = RunSummary(
            sync: outcome.kind.rawValue, fetched: fetchedCount, published: people.count, pages: outcome.pages,
            joiners: changes.joiners, leavers: changes.leavers, changed: changes.changed,
            removedByRule: Dictionary(uniqueKeysWithValues: removed.map { ($0.key.rawValue, $0.value) }),
            filesWritten: counts.written, filesUnchanged: counts.unchanged, tokensIssued: await tokens.tokensIssued,
            output: settings.outputDirectory.path, snapshot: snapshotURL.path,
            durationSeconds: (ContinuousClock.now - started).seconds, warnings: warnings,
            peopleRendered: counts.peopleRendered, peopleReused: counts.peopleReused,
            peoplePrerendered: counts.peoplePrerendered, peopleTokenized: counts.peopleTokenized,
            exportRowsCopied: counts.exportRowsCopied, keptRowsCopied: counts.keptRowsCopied,
            peoplePreparedBefore: counts.peoplePreparedBefore, fingerprintsCarried: counts.fingerprintsCarried,
            changePagesCarried: counts.changePagesCarried)
        progress.say(
            "published \(summary.published) people to \(summary.output) (\(changes.joiners) joined, "
                + "\(changes.leavers) left, \(changes.changed) changed; \(summary.filesWritten) files written, "
                + "\(summary.filesUnchanged) unchanged)")
        BackgroundRelease.keepIfExiting((previous, people, diff, snapshot))
        return summary
    }

    /// After a whole site was published with `publish` `changedFiles` (a first build), copies of what the next run,
    /// which moves its changes in, writes over: the published files nearly every night writes again
    /// (`SitePublisher.keepCopiesForFirstUpdate`) on one core, and on the other the spares of the state files a night
    /// replaces whole (`FileReplacement.keepSpareCopy`), which every later night finds left by the night before.
    ///
    /// Why: without them the first nightly after a full build made some 240 MB of new files at 100,000 people, every
    /// page of them fresh memory; with them it writes over pages as later nightlies do: 0.84 -> 0.46 s, faster in 5 of
    /// 5 rounds (`Benchmarks/ab-first-nightly.sh OLD NEW 5`), for 70-110 ms more at the end of the full build
    /// (`Benchmarks/stages.sh`, stage "copies kept for the first nightly").
    private func keepCopiesForFirstNightly(_ publisher: SitePublisher, stateFiles: [URL]) {
        let (siteCopies, stateCopies) = BothAtOnce.run(
            { publisher.keepCopiesForFirstUpdate(folders: SiteRenderer.listPageFolders) },
            { stateFiles.filter { FileReplacement.keepSpareCopy(of: $0) }.count })
        logger.debug("kept \(siteCopies) site files and \(stateCopies) state files for the first nightly to write over")
    }

    func acquireLock() throws(BuildError) -> RunLock {
        do {
            try FileManager.default.createDirectory(at: settings.stateDirectory, withIntermediateDirectories: true)
        } catch {
            throw .state(
                "cannot create the state folder \(settings.stateDirectory.path): \(error.localizedDescription)")
        }
        do {
            let lock = try RunLock.acquire(in: settings.stateDirectory)
            if let previous = lock.tookOverFrom {
                logger.warning("took over a lock left by a run that is gone (\(previous.description))")
            }
            return lock
        } catch {
            throw .locked(error)
        }
    }

    /// The snapshot `latest` names, with its file kept as the source of the new snapshot's unchanged lines
    /// (`SnapshotSource`). The file is handed over, so its mapping goes as soon as the new snapshot is written: held
    /// to the end of the run, its pages counted about 44 MiB more at a 100,000-person nightly's peak.
    private func loadPrevious(
        _ latest: SnapshotEntry?, peopleTable: StateCacheFile
    ) throws(BuildError) -> (Snapshot?, HandOff<SnapshotSource>?) {
        guard let latest else { return (nil, nil) }
        do {
            let (snapshot, source) = try SnapshotStore.loadWithSource(at: latest.url, peopleTable: peopleTable.url)
            if source?.table != nil { logger.debug("snapshot's people read from \(peopleTable.url.lastPathComponent)") }
            return (snapshot, source.map { HandOff($0) })
        } catch {
            throw .state(error.errorDescription ?? "\(error)")
        }
    }

    /// Tonight's delta round (`DirectorySync.prefetchRound`) when the run builds on `latest` and will be a delta
    /// run; nil otherwise. A snapshot whose metadata could not be listed fetches nothing: it is loaded alone, so
    /// that what is wrong with it is reported before any request.
    private func prefetchRound(
        after latest: SnapshotEntry?, with sync: DirectorySync, _ deltaState: DeltaState?, now: Date
    ) async -> DirectorySync.PrefetchedRound? {
        guard let metadata = latest?.metadata else { return nil }
        return await sync.prefetchRound(metadata: metadata, deltaState: deltaState, now: now)
    }

    /// The sign-in and the Graph sync for `syncSettings` (the run's settings, or a variant such as fetch's
    /// full listing); the token provider is returned too, for the summary's count of tokens issued.
    func makeSync(_ syncSettings: Settings) throws(BuildError) -> (TokenProvider, DirectorySync) {
        let tokens: TokenProvider
        do {
            tokens = TokenProvider(
                grant: try CredentialFactory.grant(for: settings, environment: environment), transport: transport)
        } catch {
            throw .auth(error)
        }
        let client = GraphClient(
            graphRoot: settings.graphRoot, tokens: tokens, transport: transport, retry: settings.retry, logger: logger)
        return (tokens, DirectorySync(settings: syncSettings, client: client, logger: logger, progress: progress))
    }

    /// The history the site shows (this run's changes included) and its "data as of" stamp; a history that
    /// cannot be read costs the change pages, never the run.
    private func siteHistory(
        snapshots: SnapshotStore, previous: Snapshot?, diff: DirectoryDiff, takenAt: Date, named name: String,
        people: Int, retained: [SnapshotEntry], saved: ChangeHistory?
    ) -> (RunHistory?, (history: ChangeHistory, dataAsOf: Date, warnings: [String])) {
        do {
            let runHistory = RunHistory(
                stateDirectory: settings.stateDirectory, snapshots: snapshots, previous: previous, retained: retained)
            let new = DiffReport.Side(
                name: name, takenAt: takenAt, people: people,
                tenant: settings.tenant, graphHost: settings.graphRoot.host)
            let site = try runHistory.forSite(diff: diff, new: new, saved: saved)
            return (runHistory, (site.history, site.dataAsOf, []))
        } catch {
            let warning = "the change history could not be read (\(error.errorDescription ?? "\(error)"))"
            return (nil, (ChangeHistory(), takenAt, [warning]))
        }
    }

    /// The site renderer with the run's templates parsed and checked.
    private func makeRenderer() throws(BuildError) -> SiteRenderer {
        do {
            return try SiteRenderer(options: settings.siteOptions)
        } catch {
            throw .site(error.localizedDescription)
        }
    }

    /// The full sync of a first build, with each arriving page of people (after the local rules) rendered into
    /// `staging` meanwhile.
    private func syncPrerendering(
        _ sync: DirectorySync, with renderer: SiteRenderer, into staging: StagingDirectory, now: Date
    ) async throws(BuildError) -> (DirectorySync.Outcome, (StagingDirectory, PrerenderedPeople)) {
        let (batches, feed) = AsyncStream.makeStream(of: [User].self)
        let rules = settings.rules
        async let prerendered = renderer.prerender(batches, generatedAt: now, to: staging)
        let outcome: DirectorySync.Outcome
        do {
            outcome = try await sync.run(previous: nil, deltaState: nil, now: now) { people in
                feed.yield(people.filter { rules.rule(removing: $0) == nil })
            }
        } catch {
            feed.finish()
            _ = try? await prerendered
            throw .graph(error)
        }
        feed.finish()
        do {
            return (outcome, (staging, try await prerendered))
        } catch {
            throw .site(SiteError.writing("people", error).localizedDescription)
        }
    }

    /// `snapshot` written under a temporary name (see `SnapshotStore.prepareSave`), and its people table beside it
    /// (`SnapshotPeopleTable`, which the next run reads instead of the snapshot's JSON).
    private static func prepareSnapshot(
        _ snapshot: Snapshot, in snapshots: SnapshotStore, reusing file: HandOff<SnapshotSource>?,
        unequal: Set<String>, as name: String, peopleTable: StateCacheFile
    ) async -> Result<PendingSnapshotSave, SnapshotError> {
        // The diff compared the source's people with the snapshot's: the ids it found unequal spare comparing again.
        // Which people are copied is worked out once, for the snapshot's lines and the table's entries, and only when
        // either copies (a source of another orgdir's lines and with no table copies nothing).
        var previous = file?.take()
        previous?.unequal = unequal
        if let source = previous, source.isReusable || source.table != nil {
            previous?.plan = SnapshotLineReuse.plan(old: source.snapshot.people, new: snapshot.people, unequal: unequal)
        }
        let pending: SnapshotStore.PendingSnapshot
        do {
            pending = try snapshots.prepareSave(snapshot, reusing: previous, as: name)
        } catch {
            return .failure(error)
        }
        return .success(
            PendingSnapshotSave(
                snapshot: pending,
                table: PendingSnapshotSave.prepareTable(
                    of: snapshot, writtenTo: pending.file.temporary, as: name, in: peopleTable,
                    previous: previous.flatMap { source in
                        source.table.flatMap { table in source.plan.map { (table, $0) } }
                    })))
    }

    private func makeStaging(
        _ publisher: SitePublisher, recyclingSpare: Bool = false
    ) throws(BuildError) -> StagingDirectory {
        do {
            return try publisher.makeStaging(recyclingSpare: recyclingSpare)
        } catch {
            throw .publish(error)
        }
    }

    /// Renders into a staging folder and swaps it in; people unchanged since the published site (by their
    /// stored render fingerprint) are carried over from it instead of rendered. `early` is the staging folder a
    /// first build prerendered people into while it fetched.
    private func renderAndPublish(
        _ people: [User], with renderer: SiteRenderer, generatedAt: Date, history: ChangeHistory,
        early: (staging: StagingDirectory, people: PrerenderedPeople)?,
        searchTokens: (
            load: (@Sendable () -> StoredSearchTokens?)?, store: SearchTokenCacheStore, context: RenderFingerprint
        ),
        exportRows: (previous: ExportRows?, store: ExportRowStore),
        fingerprints: (stored: RenderFingerprintStore.Stored, store: RenderFingerprintStore),
        preparations: (
            kept: KeptPreparations?, store: PreparationCacheStore, context: RenderFingerprint, snapshot: String
        ),
        reach: PageReach, publisher: SitePublisher, clock: inout StageClock
    ) async throws(BuildError) -> PublishCounts {
        let fingerprintStore = fingerprints.store
        let staging: StagingDirectory
        let published: RenderFingerprints?
        var spare: RenderFingerprints?
        if let early {
            staging = early.staging
            published = staging.previous == nil ? nil : fingerprints.stored.published
        } else if let known = fingerprints.stored.published, settings.publishMode == .changedFiles {
            // Only what differs from the published site is staged: the published site is the earlier copy the render
            // leaves in place, so its fingerprints are the in-place ones too. A spare's fingerprints go with the spare.
            published = known
            fingerprintStore.clearSpare()
            do {
                staging = try publisher.makeChangesStaging()
            } catch {
                throw .publish(error)
            }
            if staging.holdsChangesOnly { spare = known }
        } else {
            published = fingerprints.stored.published
            // The spare is worth updating only when both its files and the published ones are known; its file goes
            // now, since the spare is about to change.
            if published != nil, settings.keepsSpareSite {
                spare = fingerprints.stored.spare
                fingerprintStore.clearSpare()
            }
            staging = try makeStaging(publisher, recyclingSpare: spare != nil)
            if !staging.isRecycled { spare = nil }
        }
        let report: SiteReport
        // Every run keeps everyone's preparation, a first build too: without it the first nightly after a full build
        // prepared all 100,000 people again (264 of its 2,691 samples against about 40 in a later nightly). Side by
        // side (2026-11-27): that nightly 1.22 -> 1.13 s and its peak 374 -> 344 MiB; the full build 3.055 -> 3.085 s
        // and its peak 297 -> 328 MiB, the preparations held to its end (the limit is 400 MB).
        //
        // So a run that renders everyone (no published site to compare with) saves them during the render, as soon as
        // the directory is made, and frees them then: its peak 325 -> 317 and 325 -> 318 MiB in two runs, lower in 11
        // of 12 rounds, its time the same (`Benchmarks/ab.sh OLD NEW 6`, saved early in nightlies too the first time).
        // A nightly saves them after the publish, beside the other state caches: saved in its render, the save held a
        // core the render needed (render 20 ms longer, the caches' stage 10 ms shorter, no fewer fresh pages;
        // `Benchmarks/ab-nightly.sh OLD NEW 8`). Either way they name the snapshot
        // about to be committed: a run that finds another latest snapshot (this one failed to render, publish or
        // commit, a later run's, one removed) ignores them and prepares everyone.
        let savingPreparationsEarly = published == nil
        let preparationSaving = PreparationSaving { [preparations] made in
            Self.save(made, in: preparations.store, context: preparations.context, snapshot: preparations.snapshot)
        }
        do {
            report = try await renderer.render(
                people, generatedAt: generatedAt, history: history, fingerprintsFor: publisher.output.path,
                reusing: staging.previous == nil ? nil : published, inPlace: spare, listingPaths: false,
                prerendered: early?.people, searchTokens: searchTokens.load.map { .loading($0) },
                keepingSearchTokens: true,
                searchBaseRows: searchTokens.store.baseRows(),
                exportRows: staging.previous == nil ? nil : exportRows.previous, keepingExportRows: true,
                keptRows: exportRows.store.keptRows, preparations: preparations.kept,
                keepingPreparations: true, savingPreparations: savingPreparationsEarly ? preparationSaving : nil,
                reach: reach, to: staging)
        } catch {
            publisher.discard(staging)
            throw .site(error.localizedDescription)
        }
        clock.lap("render into staging")
        // From here until the new fingerprints are saved, the stored ones may not match the published site; the
        // published site's become the spare's, as the site itself is about to (or are forgotten, when the changes
        // are moved into the published site: the render has them mapped still).
        if staging.holdsChangesOnly { fingerprintStore.clear() } else { fingerprintStore.retirePublished() }
        // The table describes the exports about to be replaced.
        exportRows.store.clear()
        // The four state caches are written while the site is published, on the core its moves leave idle, and put in
        // place only once it is (`PendingStateSave`). One after the other (2026-11-29), a 100,000-person nightly's
        // moves took some 45 ms on one core and the saves 20 ms after them on two.
        async let saving = Self.prepareSaves(
            report, fingerprints: fingerprintStore, searchTokens: (searchTokens.store, searchTokens.context),
            exportRows: exportRows.store,
            preparations: savingPreparationsEarly
                ? nil : (preparations.store, preparations.context, preparations.snapshot))
        var swappedWhole = true
        do {
            if staging.holdsChangesOnly {
                swappedWhole = try publisher.publishChanges(staging, generatedAt: generatedAt)
            } else {
                // Keeping the replaced site is only worth it when its fingerprints are known.
                let kept = try publisher.publish(
                    staging, generatedAt: generatedAt,
                    keepingSpare: settings.keepsSpareSite && published != nil)
                if !kept { fingerprintStore.clearSpare() }
            }
        } catch {
            for save in await saving { save.discard() }
            fingerprintStore.clearSpare()
            publisher.discard(staging)
            throw .publish(error)
        }
        clock.lap(staging.holdsChangesOnly && !swappedWhole ? "publish (changes moved in)" : "publish (swap)")
        let warnings = await saving.compactMap { $0.commit() } + report.warnings
        clock.lap("render fingerprints, search tokens, export rows and preparations save")
        BackgroundRelease.keepIfExiting((report, fingerprints.stored, exportRows.previous))
        var files = staging.counts
        if staging.holdsEarlierFiles && !staging.isRecycled && !staging.holdsChangesOnly {
            // A first build over an earlier site's files (`SitePublisher.makeStaging`) writes over them without
            // knowing which of them it wrote already (a page prerendered, then rendered again): every file of the
            // new site is new, and the render counted them.
            files = (report.filesWritten, 0)
        }
        return PublishCounts(
            written: files.written, unchanged: files.unchanged, peopleRendered: report.peopleRendered,
            peopleReused: report.peopleReused, peoplePrerendered: report.peoplePrerendered,
            peopleTokenized: report.peopleTokenized, exportRowsCopied: report.exportRowsCopied,
            keptRowsCopied: report.keptRowsCopied, peoplePreparedBefore: report.peoplePreparedBefore,
            fingerprintsCarried: report.fingerprintsCarried, changePagesCarried: report.changePagesCarried,
            warnings: warnings, swappedWholeSite: swappedWhole)
    }
}

extension BuildPipeline {
    /// Writes the state caches a render made for the next run (`StateCacheSave`), four files with nothing in common
    /// encoded at the same time; `preparations` only where the render did not save them already.
    private static func prepareSaves(
        _ report: SiteReport, fingerprints: RenderFingerprintStore,
        searchTokens: (store: SearchTokenCacheStore, context: RenderFingerprint), exportRows: ExportRowStore,
        preparations: (store: PreparationCacheStore, context: RenderFingerprint, snapshot: String)?
    ) async -> [StateCacheSave] {
        async let fingerprintsSaved = prepareSave(report.fingerprints, in: fingerprints)
        // A night that wrote a search overlay keeps the tokens of the base it was made against.
        async let tokensSaved = prepareSave(
            report.searchTokens, keepingFor: report.searchBaseRows, in: searchTokens.store,
            context: searchTokens.context)
        async let rowsSaved = prepareSave(report.exportRows, in: exportRows)
        async let preparationsSaved = preparations.map { preparations in
            prepareSave(
                report.preparations, in: preparations.store, context: preparations.context,
                snapshot: preparations.snapshot)
        }
        return [await fingerprintsSaved, await tokensSaved, await rowsSaved, await preparationsSaved].compactMap { $0 }
    }

    /// Writes the render fingerprints for the next run.
    private static func prepareSave(
        _ fingerprints: RenderFingerprints?, in store: RenderFingerprintStore
    ) async -> StateCacheSave {
        StateCacheSave(failure: {
            "the render fingerprints could not be saved (\($0)); the next run renders every page"
        }) {
            try fingerprints.map { fingerprints throws(SnapshotError) in try store.prepareSave(fingerprints) }
        }
    }

    /// Saves everyone's preparation for the next run beside the snapshot named `snapshot`, or forgets the stored
    /// one when there is none (a directory too large to keep it); returns a warning when it cannot be saved. The save
    /// a render makes as soon as its directory is made (`PreparationSaving`).
    private static func save(
        _ preparations: PreparationCache.Made?, in store: PreparationCacheStore, context: RenderFingerprint,
        snapshot: String
    ) -> String? {
        prepareSave(preparations, in: store, context: context, snapshot: snapshot).commit()
    }

    /// `save(_:in:context:snapshot:)` in two halves (`StateCacheSave`).
    private static func prepareSave(
        _ preparations: PreparationCache.Made?, in store: PreparationCacheStore, context: RenderFingerprint,
        snapshot: String
    ) -> StateCacheSave {
        StateCacheSave(failure: {
            "the people's preparations could not be saved (\($0)); the next run prepares everyone"
        }) {
            guard let preparations else { return PendingStateSave(commit: store.clear, discard: {}) }
            return try store.prepareSave(preparations, context: context, snapshot: snapshot)
        }
    }

    /// Writes the search tokens for the next run, or forgets the stored ones when there are none (a directory too
    /// large to keep them). A run that wrote a search overlay (`rows`) keeps the stored tokens, which describe its
    /// base, and saves where its people are in that base instead; never a warning then.
    private static func prepareSave(
        _ cache: SearchTokenCache?, keepingFor rows: SearchBaseRows?, in store: SearchTokenCacheStore,
        context: RenderFingerprint
    ) async -> StateCacheSave {
        StateCacheSave(failure: { "the search tokens could not be saved (\($0)); the next run tokenizes everyone" }) {
            if let rows { return store.prepareKeepingForOverlay(rows) }
            guard let cache else { return PendingStateSave(commit: store.clear, discard: {}) }
            return try store.prepareSave(cache, context: context)
        }
    }

    /// Writes the export rows for the next run (and with them which kept rows stay, `ExportRowStore.save`).
    private static func prepareSave(_ rows: ExportRows?, in store: ExportRowStore) async -> StateCacheSave {
        StateCacheSave(failure: { "the export rows could not be saved (\($0)); the next run makes every row" }) {
            try store.prepareSave(rows)
        }
    }
}

extension StagingDirectory: SiteOutput {}

/// What publishing did: files written and carried over, people rendered and reused, and any warnings.
struct PublishCounts {
    var written: Int
    var unchanged: Int
    var peopleRendered: Int
    var peopleReused: Int
    var peoplePrerendered: Int
    var peopleTokenized: Int
    var exportRowsCopied: Int
    var keptRowsCopied: Int
    var peoplePreparedBefore: Int
    var fingerprintsCarried: Int
    var changePagesCarried: Int
    var warnings: [String]
    /// Whether a whole site was swapped in (a first build, or an update that changed most of the site), rather than
    /// changes moved into the published one.
    var swappedWholeSite: Bool
}
