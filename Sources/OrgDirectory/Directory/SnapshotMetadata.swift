import Foundation

/// Where a snapshot came from and what shaped it: enough to tell two snapshots apart, to decide whether a delta
/// run may build on this one, and to explain the counts in a run summary.
public struct SnapshotMetadata: Sendable, Codable, Equatable {
    /// The snapshot file format; a file with a larger number than `Snapshot.currentSchemaVersion` is refused.
    public var schemaVersion: Int
    public var tenant: String
    /// The Graph host the people came from (e.g. `graph.microsoft.com`), so clouds and sandboxes never mix.
    public var graphHost: String
    /// When the fetch started, in whole seconds (the canonical form has no fractional seconds).
    public var takenAt: Date
    /// The configured OData `$filter`, if any.
    public var filter: String?
    /// The extra properties the run asked for with `select`.
    public var select: [String]
    /// Whether managers were fetched with `$expand=manager`.
    public var expandManager: Bool
    public var counts: SnapshotCounts
    public var orgdirVersion: String
    public var syncKind: SyncKind
    /// When the full listing this snapshot descends from was taken: `takenAt` for a full sync, carried over by
    /// delta runs, so `fullSyncEvery` still works after retention pruned the full snapshot itself.
    public var lastFullSync: Date?
    /// A digest of the settings that decide who is in the snapshot (filter, select, rules); a delta run compares
    /// it with its own to decide whether it may build on this snapshot. Nil when the writer did not record one.
    public var fingerprint: String?

    public init(
        schemaVersion: Int = Snapshot.currentSchemaVersion,
        tenant: String,
        graphHost: String,
        takenAt: Date,
        filter: String? = nil,
        select: [String] = [],
        expandManager: Bool = false,
        counts: SnapshotCounts = SnapshotCounts(),
        orgdirVersion: String = OrgDirVersion.current,
        syncKind: SyncKind = .full,
        lastFullSync: Date? = nil,
        fingerprint: String? = nil
    ) {
        self.schemaVersion = schemaVersion
        self.tenant = tenant
        self.graphHost = graphHost
        // Whole seconds, so a snapshot read back from disk equals the one that was written.
        self.takenAt = Self.wholeSeconds(takenAt)
        self.filter = filter
        self.select = select
        self.expandManager = expandManager
        self.counts = counts
        self.orgdirVersion = orgdirVersion
        self.syncKind = syncKind
        self.lastFullSync = (lastFullSync ?? (syncKind == .full ? takenAt : nil)).map(Self.wholeSeconds)
        self.fingerprint = fingerprint
    }

    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}

/// How many people a run saw and kept.
public struct SnapshotCounts: Sendable, Codable, Equatable {
    /// People in the snapshot (after local rules).
    public var people: Int
    /// People Graph returned before local rules, when known.
    public var fetched: Int?
    /// People each local rule removed, keyed by the rule's plist name (`LocalRule.rawValue`).
    public var removedByRule: [String: Int]

    public init(people: Int = 0, fetched: Int? = nil, removedByRule: [String: Int] = [:]) {
        self.people = people
        self.fetched = fetched
        self.removedByRule = removedByRule
    }

    /// Counts keyed by `LocalRule`, as `LocalRules.apply(to:)` returns them.
    public init(people: Int = 0, fetched: Int?, removed: [LocalRule: Int]) {
        self.init(
            people: people, fetched: fetched,
            removedByRule: Dictionary(uniqueKeysWithValues: removed.map { ($0.key.rawValue, $0.value) }))
    }
}

/// How the people in a snapshot were obtained.
public enum SyncKind: String, Sendable, Codable, Equatable {
    /// A complete listing of `/users` (or a first `/users/delta` round).
    case full
    /// Changes from a saved deltaLink applied to the previous snapshot.
    case delta
}
