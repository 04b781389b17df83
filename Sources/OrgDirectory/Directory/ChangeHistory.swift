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
    /// When the oldest retained snapshot was taken: what the directory is known unchanged since, for people
    /// with no entry. Set for rendering only, never stored.
    public var recordedSince: Date?

    private enum CodingKeys: String, CodingKey {
        case entries, latestSnapshot
    }

    public init(entries: [DiffReport] = [], latestSnapshot: String? = nil) {
        self.entries = entries
        self.latestSnapshot = latestSnapshot
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

    /// Keeps the entries whose older snapshot is still retained (by name), as `build(from:)` would.
    public func retaining(_ snapshots: [SnapshotEntry]) -> ChangeHistory {
        let names = Set(snapshots.map(\.name))
        var history = self
        history.entries.removeAll { !names.contains($0.old.name) }
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
