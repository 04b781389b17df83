import Foundation

/// The change history one run shows on its site and records in the state folder after its snapshot.
///
/// Why a type of its own: the site built by run N must already show run N's changes, but the history file is
/// updated only once the snapshot is saved (after publishing). So the site gets the saved history plus this
/// run's report, trimmed the way retention will trim it, and `record` makes the state match afterwards.
/// Reading uses `history.jsonl` (only the changed people), never every retained snapshot, except once when
/// the file is missing or out of step.
struct RunHistory: Sendable {
    let store: ChangeHistoryStore
    let snapshots: SnapshotStore
    /// The previous snapshot as a diff side; nil on a first run.
    let previous: DiffReport.Side?
    /// The retained snapshots as the run listed them before its own (`SnapshotStore.list`): nothing adds or removes
    /// one under the run's lock until it commits its own, and each listing reads every snapshot's header.
    let retained: [SnapshotEntry]

    init(stateDirectory: URL, snapshots: SnapshotStore, previous: Snapshot?, retained: [SnapshotEntry]) {
        self.store = ChangeHistoryStore(stateDirectory: stateDirectory)
        self.snapshots = snapshots
        self.retained = retained
        if let previous, let entry = retained.last {
            self.previous = DiffReport.Side(name: entry.name, metadata: previous.metadata)
        } else {
            self.previous = nil
        }
    }

    /// The history to render and the "data as of" stamp for a run that found `diff` and will save its
    /// snapshot as `new`.
    ///
    /// The stamp is the time the published data last changed, not the run's clock: a run that finds no change
    /// then renders byte-identical pages, so nothing is rewritten and modification times stay.
    /// `saved`: the history file as the run read it beforehand (`ChangeHistoryStore.load`, nil when there is none or
    /// it does not read back).
    func forSite(diff: DirectoryDiff, new: DiffReport.Side, saved: ChangeHistory?) throws(SnapshotError) -> (
        history: ChangeHistory, dataAsOf: Date
    ) {
        var history = try store.current(snapshots: snapshots, saved: saved, retained: retained)
        // The date the pages of people with no change showed, kept from here on: taken again from the oldest retained
        // snapshot, it would move on every night retention prunes one, and with it nearly every page.
        history.since = history.since ?? retained.first?.takenAt ?? new.takenAt
        if let previous {
            history = history.recording(DiffReport(old: previous, new: new, diff: diff))
        }
        var names = retained.map(\.name) + [new.name]
        if let keep = snapshots.keep, names.count > keep { names.removeFirst(names.count - keep) }
        let kept = Set(names)
        history = history.retaining(names: kept)
        guard previous != nil, diff.isEmpty else { return (history, new.takenAt) }
        let unchangedSince =
            history.entries.last?.new.takenAt ?? retained.first { kept.contains($0.name) }?.takenAt ?? new.takenAt
        return (history, unchangedSince)
    }

    /// Brings `history.jsonl` in step after the run's snapshot was saved as `savedName`; `since` is the one the site
    /// showed (`forSite`'s `ChangeHistory.since`).
    func record(
        diff: DirectoryDiff, savedName: String, metadata: SnapshotMetadata, since: Date?
    ) throws(SnapshotError) {
        let report = previous.map {
            DiffReport(old: $0, new: DiffReport.Side(name: savedName, metadata: metadata), diff: diff)
        }
        try store.append(report, newSnapshot: savedName, snapshots: snapshots, since: since)
    }
}
