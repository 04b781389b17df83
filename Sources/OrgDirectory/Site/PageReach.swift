/// Whose person pages a night's changes can reach, worked out from the night's diff: a nightly run takes the render
/// fingerprints of these people alone and carries everyone else's from the run before, when the run before kept
/// the same `PageContext` (tonight's own changes aside).
///
/// Why: taking everyone's fingerprint read, for each of a hundred thousand people, their manager's and reports'
/// names, slugs and titles (strings nothing else touches that night), about a tenth of a nightly run's work, to
/// find the few hundred pages that changed. A page shows its person's record, their manager and their direct
/// reports: a change reaches the changed person's page, the pages of their managers (before and after) and of
/// their reports. Everything else a page shows is the context's. Debug builds (the tests) take every carried
/// fingerprint again and stop at one that differs.
public struct PageReach: Sendable {
    /// The snapshot this run records: the fingerprints it makes are stamped with it.
    let snapshot: String
    /// The snapshot the night's changes were found against: the fingerprints carried must be the ones made with it.
    /// Nil on a first run, which carries nothing.
    let baseline: String?
    /// Whose own page a change reaches: everyone whose record changed or who joined, and the managers their
    /// records named before and after, and those of everyone who left (a page lists its person's reports).
    private(set) var people: Set<String>
    /// Whose direct reports' pages a change reaches: everyone whose record changed, who joined or who left (a page
    /// names and links its person's manager).
    let managers: Set<String>
    /// Whose page link a change can have moved: everyone who joined, left or was renamed (a slug is the display name's
    /// and the id's). A night's change page links its people's pages and shows nothing else that changes
    /// (`SiteHistory.nightsUnreached`).
    let relinked: Set<String>

    /// A first run's: nothing to carry, but the fingerprints it makes are stamped with `snapshot`.
    public init(recording snapshot: String) {
        self.snapshot = snapshot
        baseline = nil
        people = []
        managers = []
        relinked = []
    }

    /// The reach of the night from `previous` (the people of the snapshot named `baseline`) to `current`, both in id
    /// order: `diff` is between them, and `unequal` holds the id of everyone in both whose record differs at all
    /// (`DirectoryDiff.between(canonical:_:unequal:)`), a change the diff does not report included.
    init(
        recording snapshot: String, baseline: String, previous: [User], current: [User], diff: DirectoryDiff,
        unequal: Set<String>
    ) {
        var people = unequal
        var managers = unequal
        var relinked = Set(diff.joiners.map(\.id)).union(diff.leavers.map(\.id))
        for joiner in diff.joiners {
            people.insert(joiner.id)
            managers.insert(joiner.id)
            if let manager = joiner.manager { people.insert(manager.id) }
        }
        for leaver in diff.leavers {
            managers.insert(leaver.id)
            if let manager = leaver.manager { people.insert(manager.id) }
        }
        // The changed people's managers, before and after: a few hundred found by id among everyone.
        for id in unequal {
            var names: [String] = []
            for side in [previous, current] {
                guard let index = side.indexSortedByID(of: id) else { continue }
                if let manager = side[index].manager { people.insert(manager.id) }
                names.append(side[index].displayName)
            }
            if names.count != 2 || names[0] != names[1] { relinked.insert(id) }
        }
        self.snapshot = snapshot
        self.baseline = baseline
        self.people = people
        self.managers = managers
        self.relinked = relinked
    }

    /// This reach with the pages of everyone in `nights` added: the nights retention drops tonight
    /// (`ChangeHistory.dropped`), whose events leave those people's pages and whose dates their pages may show
    /// instead (`ChangeHistory.earlier`). Nobody else's page shows a night's events.
    func adding(_ nights: [DiffReport]) -> PageReach {
        guard !nights.isEmpty else { return self }
        var people = self.people
        for night in nights {
            for user in night.diff.joiners + night.diff.leavers { people.insert(user.id) }
            for change in night.diff.changed { people.insert(change.id) }
        }
        var reach = self
        reach.people = people
        return reach
    }

    /// By display position of `directory`, whether a change reaches the person's page. `slugsChanged` are the ids
    /// of people whose slug was lengthened or shortened since (a collision of ordinary slugs began or ended): their
    /// own pages, their manager's and their reports' show it.
    func reached(in directory: SiteDirectory, slugsChanged: Set<String> = []) -> [Bool] {
        var reached = [Bool](repeating: false, count: directory.people.count)
        for id in people {
            if let position = directory.positionByID[id] { reached[position] = true }
        }
        for id in managers {
            for position in directory.reportsByManagerID[id] ?? [] { reached[position] = true }
        }
        for id in slugsChanged {
            guard let position = directory.positionByID[id] else { continue }
            reached[position] = true
            if let manager = directory.people[position].user.manager, let at = directory.positionByID[manager.id] {
                reached[at] = true
            }
            for report in directory.reportsByManagerID[id] ?? [] { reached[report] = true }
        }
        return reached
    }
}
