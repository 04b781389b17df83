import Foundation
import Logging
import OData
import Synchronization

/// Brings the directory up to date: a full listing of `/users`, or only the changes since the last run through
/// the saved deltaLink, applied to the previous snapshot.
///
/// A full run lists `/users` (server-side filter, `$top`, `$expand`, count check) and, with delta sync on, asks
/// `/users/delta?$deltatoken=latest` first for a link to the changes from then on (falling back to a complete
/// delta round when the server cannot do "latest"). A delta run applies upserts and `@removed` to the previous
/// snapshot, then runs the filter and local rules locally, so both paths give the same people.
struct DirectorySync: Sendable {
    let settings: Settings
    let client: GraphClient
    let logger: Logger
    let progress: ProgressReporter

    /// What a sync produced.
    struct Outcome {
        /// Normalized people, before local rules.
        var users: [User]
        var kind: SyncKind
        var pages: Int
        var deltaLink: String?
        var warnings: [String]
        /// Whether `users` are known to be in id order, ascending (`isSortedByID`): a delta run's come out of the
        /// merge in it, so nobody checks them again (each check read a hundred thousand ids on the one core a nightly
        /// has between the delta round and the render).
        var inIDOrder = false
    }

    /// Settings that decide who is in the directory; a change forces a full sync.
    var fingerprint: String {
        let rules = settings.rules
        let parts: [String] = [
            settings.tenant.lowercased(), settings.graphRoot.absoluteString.lowercased(), settings.apiVersion,
            settings.select.joined(separator: ","), settings.filter ?? "", settings.expandManager ? "manager" : "",
            "\(rules.excludeDisabled)\(rules.excludeGuests)\(rules.excludeWithoutContact)\(rules.excludeResources)",
            rules.excludeUsers.sorted().joined(separator: ","),
            rules.includeOnlyUsers.map { $0.sorted().joined(separator: ",") } ?? "-",
        ]
        return parts.joined(separator: "|")
    }

    /// A delta round's pages, gathered.
    typealias FetchedRound = (round: DeltaRound, changes: DeltaChanges)

    /// A delta round's pages, fetched before the previous snapshot is loaded (see `prefetchRound`), or how
    /// fetching them failed.
    struct PrefetchedRound: Sendable {
        /// The link the round started from.
        let link: String
        let result: Result<FetchedRound, GraphError>
    }

    /// Fetches the pages of tonight's delta round when a run building on a snapshot with `metadata` will be a
    /// delta run; nil when it will be a full one. Nothing in the round needs the previous people, so a build
    /// fetches it while it loads them: at 100,000 people each took about a tenth of a nightly run. A failure is
    /// kept, not thrown: `run` meets it where it would have met it fetching the round itself.
    func prefetchRound(metadata: SnapshotMetadata, deltaState: DeltaState?, now: Date) async -> PrefetchedRound? {
        guard fullSyncReason(previousFingerprint: metadata.fingerprint, deltaState: deltaState, now: now) == nil,
            let deltaState
        else { return nil }
        let link = deltaState.deltaLink
        do {
            return PrefetchedRound(link: link, result: .success(try await fetchRound(link: link)))
        } catch {
            return PrefetchedRound(link: link, result: .failure(error))
        }
    }

    /// Chooses delta or full and runs it. A full listing hands `onPeople` each page's people as they arrive (each
    /// person once, normalized, before the local rules), so later stages can start on them. `prefetched` is the
    /// delta round `prefetchRound` fetched for this run, if any.
    func run(
        previous: Snapshot?, deltaState: DeltaState?, now: Date, prefetched: PrefetchedRound? = nil,
        onPeople: (@Sendable ([User]) -> Void)? = nil
    ) async throws(GraphError) -> Outcome {
        if let reason = fullSyncReason(
            previousFingerprint: previous?.metadata.fingerprint, deltaState: deltaState, now: now)
        {
            if settings.deltaSync { progress.say("full sync: \(reason)") }
            return try await fullSync(onPeople: onPeople)
        }
        guard let previous, let deltaState else { return try await fullSync(onPeople: onPeople) }
        do {
            let round = prefetched.flatMap { $0.link == deltaState.deltaLink ? $0.result : nil }
            return try await deltaSync(previous: previous, link: deltaState.deltaLink, prefetched: round)
        } catch let error where error.isExpiredDeltaToken {
            progress.say("the delta token was refused (\(error.errorDescription ?? "expired")); running a full sync")
            var outcome = try await fullSync()
            outcome.warnings.append("the saved delta token was refused; a full sync replaced it")
            return outcome
        } catch let error where Self.fullSyncMayRepair(error) {
            // A delta round the server garbled or refused for a reason of its own: a full listing still gives
            // tonight's directory, and its fresh link may work tomorrow.
            let reason = error.errorDescription ?? "\(error)"
            progress.say("the delta run failed (\(reason)); running a full sync")
            var outcome = try await fullSync()
            outcome.warnings.append("the delta run failed (\(reason)); a full sync replaced it")
            return outcome
        }
    }

    /// Delta failures a full sync can work around: not sign-in or permission problems, not outages (those
    /// fail the listing too), but a malformed or refused delta request.
    static func fullSyncMayRepair(_ error: GraphError) -> Bool {
        switch error {
        case .auth, .retriesExhausted, .incomplete, .redirectRefused: false
        case .service(let service): !error.isTransient && service.status != 401 && service.status != 403
        case .untrustedLink, .malformedResponse: true
        }
    }

    /// Why this run cannot build on the last one (whose snapshot's query fingerprint is `previousFingerprint`, nil
    /// when there is none), or nil when a delta run is possible.
    func fullSyncReason(previousFingerprint: String?, deltaState: DeltaState?, now: Date) -> String? {
        guard settings.deltaSync else { return "delta sync is off" }
        guard let previousFingerprint else { return "no previous snapshot" }
        guard let deltaState else { return "no saved delta link" }
        guard deltaState.queryFingerprint == fingerprint, previousFingerprint == fingerprint else {
            return "tenant, filter, select or rules changed since the last run"
        }
        let age = now.timeIntervalSince(deltaState.fullSyncAt)
        if settings.fullSyncEvery == 0 || age >= Double(settings.fullSyncEvery) * 86_400 || age < 0 {
            return "the last full sync is older than fullSyncEvery (\(settings.fullSyncEvery) days)"
        }
        return nil
    }

    // MARK: Full

    private func fullSync(onPeople: (@Sendable ([User]) -> Void)? = nil) async throws(GraphError) -> Outcome {
        var warnings: [String] = []
        var deltaLink: String?
        let delta = deltaFetcher
        if settings.deltaSync {
            // Asked before the listing, so a change made during the listing is replayed next run, never lost.
            do {
                let page = try await client.getJSON(GraphUsersPage.self, from: delta.latestURL)
                if let link = page.deltaLink, (try? delta.trusted(link, from: delta.latestURL)) != nil {
                    deltaLink = link
                }
            } catch let error where !error.isTransient {
                logger.info(
                    "delta 'latest' not available (\(error.errorDescription ?? "")); a full delta round will follow")
            }
        }
        let query = try UserQuery(settings: settings)
        let fetcher = UserFetcher(
            client: client, graphBase: settings.graphBase, query: query, verifyCount: settings.verifyCount)
        let collector = UserCollector()
        let normalizer = UserNormalizer()
        let progress = progress
        let result = try await fetcher.fetchAll { page, pageProgress in
            let added = collector.add(page.map { normalizer.normalize($0) }, returningAdded: onPeople != nil)
            onPeople?(added)
            progress.fetched(pageProgress)
        }
        warnings += result.warnings
        var users = collector.finish(warnings: &warnings)
        progress.say("fetched \(users.count) people in \(result.pages) page\(result.pages == 1 ? "" : "s")")
        if settings.deltaSync && deltaLink == nil {
            do {
                let round = try await delta.round(from: delta.initialURL) { _, _ in }
                deltaLink = round.deltaLink
            } catch let error where !error.isTransient {
                warnings.append(
                    "delta sync is unavailable (\(error.errorDescription ?? "")); every run will be a full sync")
            }
        }
        ManagerNames.fill(&users)
        return Outcome(users: users, kind: .full, pages: result.pages, deltaLink: deltaLink, warnings: warnings)
    }

    // MARK: Delta

    private var deltaFetcher: DeltaFetcher {
        var select = GraphUserProperties.modelProperties
        for name in settings.select + settings.rules.requiredProperties where !select.contains(name) {
            select.append(name)
        }
        if let filter = settings.filter, let expression = try? ODataFilter.parse(filter) {
            for name in expression.referencedProperties.sorted() where !select.contains(name) { select.append(name) }
        }
        if settings.expandManager { select.append("manager") }
        return DeltaFetcher(client: client, graphBase: settings.graphBase, select: select)
    }

    /// The pages of the delta round from `link`, gathered.
    private func fetchRound(link: String) async throws(GraphError) -> FetchedRound {
        let delta = deltaFetcher
        let start = try delta.trusted(link, from: settings.graphBase)
        let changes = DeltaChanges()
        let normalizer = UserNormalizer()
        let progress = progress
        let round = try await delta.round(from: start) { items, pageProgress in
            changes.add(items, normalizer: normalizer)
            progress.fetched(pageProgress)
        }
        return (round, changes)
    }

    private func deltaSync(
        previous: Snapshot, link: String, prefetched: Result<FetchedRound, GraphError>? = nil
    ) async throws(GraphError) -> Outcome {
        let delta = deltaFetcher
        let fetched: FetchedRound
        if let prefetched {
            fetched = try prefetched.get()
        } else {
            fetched = try await fetchRound(link: link)
        }
        let (round, changes) = fetched
        let (upserts, removals) = changes.finish()
        var byId = PeopleByID(previous.people)
        for id in removals { byId[id] = nil }
        // Names the round itself carried, for everyone in it: a manager outside the published people (left
        // out by the filter below) who was renamed must not keep the name the previous snapshot recorded.
        var renamed: [String: String] = [:]
        for change in upserts.values where change.sent.contains("displayName") {
            renamed[change.user.id] = change.user.displayName
        }
        let completed = try await place(upserts.values.sorted { $0.user.id < $1.user.id }, into: &byId, delta: delta)
        // Only people in this round are judged again: everyone else passed the filter last time, and a change
        // to any property the filter reads (all of them are selected) would have put them in the round.
        if let filter = parsedFilter {
            for change in upserts.values where byId[change.user.id].map({ !filter.evaluate(on: $0) }) ?? false {
                byId[change.user.id] = nil
            }
        }
        var users = byId.sortedByID()
        // Properties asked for only to run the filter locally are not part of what a full listing records.
        let filterOnly = filterOnlyProperties
        if !filterOnly.isEmpty {
            for index in users.indices {
                for name in filterOnly { users[index].extra[name] = nil }
            }
        }
        try await namingManagers(&users, previous: previous, renamed: renamed, delta: delta)
        progress.say(
            "delta: \(upserts.count) changed or new, \(removals.count) removed, in \(round.pages) "
                + "page\(round.pages == 1 ? "" : "s")" + (completed > 0 ? ", \(completed) read whole" : ""))
        return Outcome(
            users: users, kind: .delta, pages: round.pages, deltaLink: round.deltaLink, warnings: [], inIDOrder: true)
    }

    /// The configured filter, parsed (settings validation already accepted it).
    private var parsedFilter: FilterExpression? {
        settings.filter.flatMap { try? ODataFilter.parse($0) }
    }

    /// Properties the filter reads that neither the model nor `select` keeps: a full listing never records
    /// them, so a delta run needs them in each record to judge the person, and drops them afterwards.
    private var filterOnlyProperties: Set<String> {
        guard let filter = parsedFilter else { return [] }
        let kept = Set(GraphUserProperties.modelProperties + settings.select + settings.rules.requiredProperties)
        return filter.referencedProperties.filter { !kept.contains($0) }
    }

    /// Applies changed users to the previous people. The previous snapshot holds only people who passed the
    /// filter and rules: a known person's record is merged onto what the snapshot knew; someone the snapshot
    /// never had must arrive whole, so a record too thin to place them (no name, or no word on a property the
    /// filter needs) is completed with a read of that one user. Returns how many reads that took.
    private func place(
        _ upserts: [DeltaChanges.Upsert], into byId: inout PeopleByID, delta: DeltaFetcher
    ) async throws(GraphError) -> Int {
        let filter = parsedFilter
        let needed = filterOnlyProperties
        let normalizer = UserNormalizer()
        var reads = 0
        for change in upserts {
            let id = change.user.id
            let complete = needed.isSubset(of: change.sent)
            if complete, let old = byId[id] {
                byId[id] = change.user.merged(sent: change.sent, managerSent: change.managerSent, onto: old)
            } else if complete, change.sent.contains("userPrincipalName"), change.sent.contains("displayName") {
                var user = change.user
                // Joining the published people without a word on the manager (their own manager did not
                // change): ask for it, unless the filter leaves them out anyway.
                if settings.expandManager, !change.managerSent, filter?.evaluate(on: user) ?? true {
                    reads += 1
                    user.manager = try await delta.manager(of: id)
                }
                byId[id] = user
            } else {
                reads += 1
                let whole = try await delta.user(id: id, expandManager: settings.expandManager)
                byId[id] = whole.flatMap { normalizer.normalize($0) }
            }
        }
        return reads
    }

    /// Fills in manager names. A full listing names each manager through $expand; manager@delta carries only
    /// an id. Managers outside the published people whose name no earlier snapshot had are read one by one
    /// (a handful a night). `renamed`: names this round's records carried, newer than any snapshot's.
    private func namingManagers(
        _ users: inout [User], previous: Snapshot, renamed: [String: String], delta: DeltaFetcher
    ) async throws(GraphError) {
        var known: [String: String] = [:]
        // By index, reading the one field: `for user in` copies each whole record (a retain of every field).
        for index in previous.people.indices {
            if let manager = previous.people[index].manager, let name = manager.displayName { known[manager.id] = name }
        }
        known.merge(renamed) { _, new in new }
        // Most records carry their manager's name, and the few that do not are looked up among the people by
        // binary search (`users` is in id order): a set of everyone's ids, made for those few, was a sizeable
        // part of a nightly run's one-core stretch between the delta and the render.
        var unnamed = Set<String>()
        for index in users.indices {
            guard let manager = users[index].manager, manager.displayName == nil, known[manager.id] == nil,
                users.indexSortedByID(of: manager.id) == nil
            else { continue }
            unnamed.insert(manager.id)
        }
        let normalizer = UserNormalizer()
        for id in unnamed.sorted() {
            if let name = try await delta.user(id: id, expandManager: false)?.displayName {
                known[id] = normalizer.clean(name)
            }
        }
        // `users` came out of `PeopleByID.sortedByID()`, in id order.
        ManagerNames.fill(&users, known: known, inIDOrder: true)
    }
}

/// Gathers normalized users from pages, dropping id-less objects and repeats.
final class UserCollector: Sendable {
    private struct State {
        var users: [User] = []
        var seen: Set<String> = []
        var dropped = 0
        var duplicates = 0
    }
    private let state = Mutex(State())

    /// Adds a page; returns the people it added (not seen before) when `returningAdded`, else nothing (a
    /// second copy of each page that nobody reads). Each person is moved out of `page`, not copied: a copy is a
    /// retain of every field, and pages are added one after another on the fetch's critical path.
    @discardableResult
    func add(_ page: consuming [User?], returningAdded: Bool = true) -> [User] {
        state.withLock { state in
            var added: [User] = []
            if returningAdded { added.reserveCapacity(page.count) }
            for index in page.indices {
                guard let user = page[index].take() else {
                    state.dropped += 1
                    continue
                }
                if state.seen.insert(user.id).inserted {
                    if returningAdded { added.append(user) }
                    state.users.append(user)
                } else {
                    state.duplicates += 1
                }
            }
            return added
        }
    }

    /// The users, with a warning for anything dropped.
    ///
    /// The users are moved out, leaving the collector empty: a copy left behind would make the caller's array
    /// shared, and the first change to it (a manager's name, `ManagerNames.fill`) would copy every user (a retain
    /// of each field, about 30 MB of fresh memory at 100,000 people).
    func finish(warnings: inout [String]) -> [User] {
        let (users, dropped, duplicates) = state.withLock { state in
            var users: [User] = []
            swap(&users, &state.users)
            return (users, state.dropped, state.duplicates)
        }
        if dropped > 0 {
            warnings.append(
                dropped == 1
                    ? "1 user object had no id and was skipped" : "\(dropped) user objects had no id and were skipped")
        }
        if duplicates > 0 {
            warnings.append(
                duplicates == 1
                    ? "1 user arrived twice and was kept once" : "\(duplicates) users arrived twice and were kept once")
        }
        return users
    }
}

/// Changes gathered from delta pages: the last word on each id wins, as Graph may replay items.
final class DeltaChanges: Sendable {
    /// One changed user as its record described them.
    struct Upsert: Sendable {
        /// Normalized from the record alone.
        var user: User
        /// The keys the record carried: only those replace what the previous snapshot knew.
        var sent: Set<String>
        /// The record said who the manager is now (`manager@delta` or an expanded `manager`).
        var managerSent: Bool
    }

    private struct State {
        var upserts: [String: Upsert] = [:]
        var removals: Set<String> = []
    }
    private let state = Mutex(State())

    func add(_ items: [GraphUser], normalizer: UserNormalizer) {
        state.withLock { state in
            for item in items {
                guard let id = normalizer.clean(item.id) else { continue }
                if item.removed {
                    state.upserts[id] = nil
                    state.removals.insert(id)
                } else if let user = normalizer.normalize(item) {
                    state.removals.remove(id)
                    var sent = item.sentKeys
                    var managerSent = item.managerDelta || item.knownSentKeys.contains(.manager)
                    // A replayed item adds to what an earlier one said about the same user.
                    if let earlier = state.upserts[id] {
                        var merged = user.merged(sent: sent, managerSent: managerSent, onto: earlier.user)
                        merged.id = id
                        sent.formUnion(earlier.sent)
                        managerSent = managerSent || earlier.managerSent
                        state.upserts[id] = Upsert(user: merged, sent: sent, managerSent: managerSent)
                    } else {
                        state.upserts[id] = Upsert(user: user, sent: sent, managerSent: managerSent)
                    }
                }
            }
        }
    }

    func finish() -> (upserts: [String: Upsert], removals: Set<String>) {
        state.withLock { ($0.upserts, $0.removals) }
    }
}

/// Names each manager after the directory's own entry, so full and delta runs record the same text.
enum ManagerNames {
    /// `known`: names seen before (a delta run's previous snapshot), for managers outside `users` whose
    /// delta record carried only an id.
    /// In place: only the people whose manager's name changes are touched (a nightly run's hundred thousand
    /// copies were a sizeable share of it).
    ///
    /// People in id order (a delta run's) find their manager among them by binary search; otherwise everyone's
    /// name goes into a dictionary first. At 100,000 people that dictionary was a fresh table of everyone's id,
    /// hashed, on the one core a nightly run has between the delta and the render.
    ///
    /// `inIDOrder`: whether the caller knows `users` are in id order; nil: they are checked.
    static func fill(_ users: inout [User], known: [String: String] = [:], inIDOrder: Bool? = nil) {
        if inIDOrder ?? users.isSortedByID {
            for index in users.indices {
                guard let manager = users[index].manager else { continue }
                let name = users.indexSortedByID(of: manager.id).map { users[$0].displayName }
                let named = name ?? known[manager.id] ?? manager.displayName
                rename(&users[index], manager: manager, to: named)
            }
            return
        }
        var names = known
        names.reserveCapacity(users.count + known.count)
        for index in users.indices { names[users[index].id] = users[index].displayName }
        for index in users.indices {
            guard let manager = users[index].manager else { continue }
            let named = names[manager.id] ?? manager.displayName
            rename(&users[index], manager: manager, to: named)
        }
    }

    /// Gives `user`'s manager reference the name `name`, touching the record only when it differs.
    private static func rename(_ user: inout User, manager: ManagerReference, to name: String?) {
        if name != manager.displayName {
            user.manager = ManagerReference(id: manager.id, displayName: name)
        }
    }
}
