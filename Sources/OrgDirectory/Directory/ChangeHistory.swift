import Foundation

/// The changes between consecutive retained snapshots: the data behind the site's "What changed" page, its
/// Atom feed and the history section of each person's page ("Sales → Operations, 2026-03-04").
///
/// Each entry is a `DiffReport` between two consecutive snapshots; nights without a change have no entry. It
/// covers exactly the retained snapshots: an entry goes when its older snapshot is pruned. Building it from
/// the snapshots means loading every one, so runs keep it up to date in `history.jsonl` instead
/// (`ChangeHistoryStore`), and `build(from:)` is the fallback that gives the same result.
public struct ChangeHistory: Sendable, Equatable, Codable {
    /// Oldest first.
    public var entries: [DiffReport]
    /// The newest snapshot this history has looked at, with or without changes; a run appends only when its
    /// previous snapshot is this one, and rebuilds otherwise.
    public var latestSnapshot: String?
    /// When the history began, what the directory is known unchanged since for people with no entry (the date their
    /// pages show): the oldest retained snapshot when a run first finds none (`RunHistory.forSite`, so an upgraded
    /// site keeps its pages' date), then kept as retention (`keepSnapshots`) prunes snapshots. Every change after it
    /// is in `entries` or `earlier`.
    ///
    /// Why kept: the pages of people with no entry show it. Taken from the oldest retained snapshot, it moved every
    /// night once the limit was reached, and every such page, nearly everyone's, was rewritten every night (at
    /// 100,000 people with `keepSnapshots` 3, nightlies of 1.7–2.6 s rendering 99,300 people, against 0.40–0.45 s).
    public var since: Date?
    /// Each person's newest change in the nights retention has dropped (`folding(_:)`), by id; someone whose last
    /// such change was leaving is not here. A page shows it for someone with no retained change: a date their record
    /// is known unchanged since that does not move when the night that changed it is dropped.
    public var earlier: [String: Date]
    /// The nights `retaining` dropped from this value, oldest first. Never stored: a run's render compares the
    /// pages' context with the run before's, which still had them (`PageContext.historyDigest`), and the people in
    /// them are the only ones whose pages the drop changes (`PageReach.adding(_:)`).
    public var dropped: [DiffReport] = []

    private enum CodingKeys: String, CodingKey {
        case entries, latestSnapshot, since, earlier
    }

    public init(
        entries: [DiffReport] = [], latestSnapshot: String? = nil, since: Date? = nil, earlier: [String: Date] = [:]
    ) {
        self.entries = entries
        self.latestSnapshot = latestSnapshot
        self.since = since
        self.earlier = earlier
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entries = try container.decode([DiffReport].self, forKey: .entries)
        latestSnapshot = try container.decodeIfPresent(String.self, forKey: .latestSnapshot)
        since = try container.decodeIfPresent(Date.self, forKey: .since)
        earlier = try container.decodeIfPresent([String: Date].self, forKey: .earlier) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entries, forKey: .entries)
        try container.encodeIfPresent(latestSnapshot, forKey: .latestSnapshot)
        try container.encodeIfPresent(since, forKey: .since)
        if !earlier.isEmpty { try container.encode(earlier, forKey: .earlier) }
    }

    /// Equal when what is kept is: `dropped` describes one run's render.
    public static func == (lhs: ChangeHistory, rhs: ChangeHistory) -> Bool {
        lhs.entries == rhs.entries && lhs.latestSnapshot == rhs.latestSnapshot && lhs.since == rhs.since
            && lhs.earlier == rhs.earlier
    }

    /// Newest first, as a change page or a feed lists them.
    public var newestFirst: [DiffReport] { entries.reversed() }

    /// One dated event in a person's history.
    public struct PersonEvent: Sendable, Equatable, Codable {
        public enum Kind: String, Sendable, Codable {
            case joined, left, changed
        }

        public var kind: Kind
        /// When the change was seen: the `takenAt` of the newer snapshot.
        public var date: Date
        /// The newer snapshot's name, so a page can link to the whole night's changes.
        public var snapshot: String
        /// What changed, for `changed` (empty for `joined` and `left`).
        public var fieldChanges: [FieldChange]

        public init(kind: Kind, date: Date, snapshot: String, fieldChanges: [FieldChange] = []) {
            self.kind = kind
            self.date = date
            self.snapshot = snapshot
            self.fieldChanges = fieldChanges
        }

        /// The changes that moved the person (department, manager, office).
        public var moves: [FieldChange] { fieldChanges.filter(\.isMove) }
    }

    /// Everyone's events in one pass, newest first per person: what a site build over all pages wants.
    public func eventsByPerson() -> [String: [PersonEvent]] {
        var events: [String: [PersonEvent]] = [:]
        for report in entries.reversed() {
            let date = report.new.takenAt
            let snapshot = report.new.name
            for user in report.diff.joiners {
                events[user.id, default: []].append(PersonEvent(kind: .joined, date: date, snapshot: snapshot))
            }
            for user in report.diff.leavers {
                events[user.id, default: []].append(PersonEvent(kind: .left, date: date, snapshot: snapshot))
            }
            for change in report.diff.changed {
                events[change.id, default: []].append(
                    PersonEvent(kind: .changed, date: date, snapshot: snapshot, fieldChanges: change.fieldChanges))
            }
        }
        return events
    }

    /// One person's events, newest first.
    public func events(for id: String) -> [PersonEvent] {
        var events: [PersonEvent] = []
        for report in entries.reversed() {
            let date = report.new.takenAt
            let snapshot = report.new.name
            if report.diff.joiners.contains(where: { $0.id == id }) {
                events.append(PersonEvent(kind: .joined, date: date, snapshot: snapshot))
            }
            if report.diff.leavers.contains(where: { $0.id == id }) {
                events.append(PersonEvent(kind: .left, date: date, snapshot: snapshot))
            }
            if let change = report.diff.changed.first(where: { $0.id == id }) {
                events.append(
                    PersonEvent(kind: .changed, date: date, snapshot: snapshot, fieldChanges: change.fieldChanges))
            }
        }
        return events
    }

    /// Adds a run's report (when it found changes) and moves `latestSnapshot` on to its newer snapshot.
    public func recording(_ report: DiffReport) -> ChangeHistory {
        var history = self
        if !report.diff.isEmpty { history.entries.append(report) }
        history.latestSnapshot = report.new.name
        return history
    }

    /// Keeps the entries whose older snapshot is still retained (by name), as `build(from:)` would; the others are
    /// folded into `earlier` and listed in `dropped`.
    public func retaining(_ snapshots: [SnapshotEntry]) -> ChangeHistory {
        retaining(names: Set(snapshots.map(\.name)))
    }

    /// `retaining(_:)` by the retained snapshots' names.
    public func retaining(names: Set<String>) -> ChangeHistory {
        var history = self
        let dropped = entries.filter { !names.contains($0.old.name) }
        guard !dropped.isEmpty else { return history }
        history.entries.removeAll { !names.contains($0.old.name) }
        history.earlier = earlier.folding(dropped)
        history.dropped = self.dropped + dropped
        return history
    }

    /// Builds the history by diffing each pair of consecutive snapshots in the store, file against file (only
    /// the people whose lines differ are decoded). Snapshots whose header cannot be read are skipped: one
    /// damaged file must not cost the whole history.
    public static func build(from store: SnapshotStore) throws(SnapshotError) -> ChangeHistory {
        let snapshots = try store.list().filter { $0.problem == nil }
        var history = ChangeHistory(latestSnapshot: snapshots.last?.name)
        for (older, newer) in zip(snapshots, snapshots.dropFirst()) {
            let report = try DiffReport.between(oldFile: older.url, newFile: newer.url)
            if !report.diff.isEmpty { history.entries.append(report) }
        }
        return history
    }
}

extension [String: Date] {
    /// These newest changes by id (`ChangeHistory.earlier`) with `nights` (oldest first) folded in: each joiner's and
    /// changed person's date becomes the night's, and each leaver goes.
    func folding(_ nights: [DiffReport]) -> [String: Date] {
        var dates = self
        for night in nights {
            let date = night.new.takenAt
            for user in night.diff.joiners { dates[user.id] = date }
            for change in night.diff.changed { dates[change.id] = date }
            for user in night.diff.leavers { dates[user.id] = nil }
        }
        return dates
    }
}
