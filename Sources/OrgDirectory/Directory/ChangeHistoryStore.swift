import Foundation

/// Keeps the change history in the state folder (`history.jsonl`, see `ChangeHistoryFile`) in step with the snapshots, so a run adds
/// one night's report instead of loading every retained snapshot again.
public struct ChangeHistoryStore: Sendable {
    /// The history file.
    public let url: URL
    var writer = SnapshotFileWriter()

    /// The file name inside the state folder.
    public static let fileName = "history.jsonl"

    public init(url: URL) {
        self.url = url
    }

    /// `<state>/history.jsonl`.
    public init(stateDirectory: URL) {
        self.init(url: stateDirectory.appendingPathComponent(Self.fileName))
    }

    /// The saved history, or nil when there is none yet.
    public func load() throws(SnapshotError) -> ChangeHistory? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .readFailed(path: url.path, reason: error.localizedDescription)
        }
        return try ChangeHistoryFile.decode(data, path: url.path)
    }

    /// Writes the history atomically, in a stable form (identical histories, identical bytes).
    public func save(_ history: ChangeHistory) throws(SnapshotError) {
        let data = try ChangeHistoryFile.encode(history)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .folderUnavailable(path: url.deletingLastPathComponent().path, reason: error.localizedDescription)
        }
        try writer.write(data, to: url)
    }

    /// Records a run after its snapshot was saved: appends `report` (nil on a first run) when the saved history
    /// ends where the report starts, rebuilds from the snapshots otherwise (a missing or damaged file, a run
    /// that crashed before updating it), drops what retention pruned (into `earlier`), keeps `since` (the run's, see
    /// `RunHistory.forSite`; the saved one's when nil), and saves. Returns the new history.
    @discardableResult
    public func record(
        _ report: DiffReport?, newSnapshot: String, snapshots: SnapshotStore, since: Date? = nil
    ) throws(SnapshotError) -> ChangeHistory {
        let retained = try snapshots.list()
        let saved = try? load()
        var history: ChangeHistory
        if let report, let saved, saved.latestSnapshot == report.old.name, report.new.name == newSnapshot {
            history = saved.recording(report)
        } else if report == nil, retained.count <= 1 {
            history = ChangeHistory(latestSnapshot: newSnapshot)
        } else {
            history = try ChangeHistory.build(from: snapshots)
        }
        history = history.retaining(retained)
        history.since = since ?? history.since
        try save(history)
        return history
    }

    /// `record`, for a run that needs nothing back: `report` is appended to the saved file's bytes, the nights kept
    /// copied as they are (`ChangeHistoryFile.appending`), when the file ends where the report starts; otherwise
    /// (a missing or out-of-step file, a first run) as `record` does it. The people lines copied are not read: a run
    /// reads the file whole first (`current`, which saves it rebuilt when it does not read back), as a build does.
    public func append(
        _ report: DiffReport?, newSnapshot: String, snapshots: SnapshotStore, since: Date? = nil
    ) throws(SnapshotError) {
        if let report, report.new.name == newSnapshot, let saved = try? Data(contentsOf: url) {
            let retained = Set(try snapshots.list().map(\.name))
            if let bytes = ChangeHistoryFile.appending(report, to: saved, retained: retained, since: since) {
                try writer.write(Data(bytes), to: url)
                return
            }
        }
        try record(report, newSnapshot: newSnapshot, snapshots: snapshots, since: since)
    }

    /// The history to render: the saved one when it is in step with the store, else rebuilt from the snapshots. A
    /// saved file that does not read back or is out of step is replaced by the rebuilt history (best effort), so
    /// that the file a run's `append` adds its night to always reads back whole; with no file, nothing is written.
    public func current(snapshots: SnapshotStore) throws(SnapshotError) -> ChangeHistory {
        try current(snapshots: snapshots, saved: (try? load()) ?? nil, retained: snapshots.list())
    }

    /// `current(snapshots:)` with the saved history read already (`load()`; nil when there is none or it does not
    /// read back) and the snapshots `retained` listed already (`SnapshotStore.list`): a run reads the file while it
    /// waits for its delta round, not on the one core it has after the round, and lists the snapshots once.
    func current(
        snapshots: SnapshotStore, saved: ChangeHistory?, retained: [SnapshotEntry]
    ) throws(SnapshotError) -> ChangeHistory {
        if let saved, saved.latestSnapshot == retained.last?.name {
            return saved.retaining(retained)
        }
        let rebuilt = try ChangeHistory.build(from: snapshots)
        if FileManager.default.fileExists(atPath: url.path) { try? save(rebuilt) }
        return rebuilt
    }
}
