import Foundation

extension BuildPipeline {
    /// The first half of a build (`orgdir fetch`): sign in, list every user, normalize, apply the local rules and
    /// write the people as a snapshot file, without rendering or publishing anything.
    ///
    /// Always a full listing, and it leaves the snapshot history and the delta link alone: a fetch is for
    /// looking at (or diffing, or re-rendering) the directory, and must not change what the next nightly
    /// `build` compares against or let removals slip past its mass-removal guard.
    public func fetch(to destination: URL) async throws(BuildError) -> FetchSummary {
        let started = ContinuousClock.now
        let now = Date()
        let lock = try acquireLock()
        defer { lock.release() }
        var listing = settings
        listing.deltaSync = false
        let (tokens, sync) = try makeSync(listing)
        var outcome: DirectorySync.Outcome
        do {
            outcome = try await sync.run(previous: nil, deltaState: nil, now: now)
        } catch {
            throw .graph(error)
        }
        // The rules and the sort work in place on the one list, as a build's do.
        var people = outcome.users
        let fetchedCount = people.count
        outcome.users = []
        let removed = settings.rules.apply(removingFrom: &people)
        people.sortByID()
        let metadata = SnapshotMetadata(
            tenant: settings.tenant, graphHost: settings.graphRoot.host ?? "", takenAt: now, filter: settings.filter,
            select: settings.select, expandManager: settings.expandManager,
            counts: SnapshotCounts(people: people.count, fetched: fetchedCount, removed: removed),
            syncKind: outcome.kind, fingerprint: sync.fingerprint)
        do {
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try SnapshotFileWriter().write(to: destination) {
                (emit: (Data) throws(SnapshotError) -> Void) throws(SnapshotError) in
                try Snapshot(metadata: metadata, people: people).writeCanonical(emit)
            }
        } catch let error as SnapshotError {
            throw .state(error.errorDescription ?? "\(error)")
        } catch {
            throw .state("cannot create the folder of \(destination.path): \(error.localizedDescription)")
        }
        for warning in outcome.warnings { logger.warning("\(warning)") }
        progress.say("wrote \(people.count) people to \(destination.path)")
        return FetchSummary(
            fetched: fetchedCount, people: people.count, pages: outcome.pages,
            removedByRule: Dictionary(uniqueKeysWithValues: removed.map { ($0.key.rawValue, $0.value) }),
            tokensIssued: await tokens.tokensIssued, snapshot: destination.path,
            durationSeconds: (ContinuousClock.now - started).seconds, warnings: outcome.warnings)
    }

    /// Where `orgdir fetch` writes when not told: `<state>/fetched.json`, beside (not among) the snapshots.
    public static func defaultFetchDestination(for settings: Settings) -> URL {
        settings.stateDirectory.appendingPathComponent("fetched.json")
    }
}
