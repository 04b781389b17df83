import Foundation

/// A diff with the two snapshots it compares: what every output format, the change page and the feed render.
public struct DiffReport: Sendable, Equatable, Codable {
    /// The older snapshot.
    public var old: Side
    /// The newer snapshot.
    public var new: Side
    public var summary: Summary
    public var diff: DirectoryDiff

    public init(old: Side, new: Side, diff: DirectoryDiff) {
        self.old = old
        self.new = new
        self.diff = diff
        self.summary = Summary(diff)
    }

    /// Compares two snapshots, naming them as given (usually their file names).
    public init(old: Snapshot, named oldName: String, new: Snapshot, named newName: String) {
        self.init(
            old: Side(name: oldName, metadata: old.metadata), new: Side(name: newName, metadata: new.metadata),
            diff: DirectoryDiff.between(old.people, new.people))
    }

    /// One of the compared snapshots.
    public struct Side: Sendable, Equatable, Codable {
        /// The snapshot's file name, e.g. `2026-03-04T02-00-00Z.json`.
        public var name: String
        public var takenAt: Date
        public var people: Int
        public var tenant: String?
        public var graphHost: String?

        public init(name: String, takenAt: Date, people: Int, tenant: String? = nil, graphHost: String? = nil) {
            self.name = name
            self.takenAt = takenAt
            self.people = people
            self.tenant = tenant
            self.graphHost = graphHost
        }

        public init(name: String, metadata: SnapshotMetadata) {
            self.init(
                name: name, takenAt: metadata.takenAt, people: metadata.counts.people, tenant: metadata.tenant,
                graphHost: metadata.graphHost)
        }
    }

    /// Counts for a headline or a monitoring check.
    public struct Summary: Sendable, Equatable, Codable, CustomStringConvertible {
        public var joined: Int
        public var left: Int
        public var changed: Int
        /// Changed people who moved (department, manager or office); a subset of `changed`.
        public var moved: Int

        public init(_ diff: DirectoryDiff) {
            joined = diff.joiners.count
            left = diff.leavers.count
            changed = diff.changed.count
            moved = diff.movers.count
        }

        /// "3 joined, 1 left, 2 changed (1 moved)" or "no changes".
        public var description: String {
            guard joined + left + changed > 0 else { return "no changes" }
            return "\(joined) joined, \(left) left, \(changed) changed" + (moved > 0 ? " (\(moved) moved)" : "")
        }
    }
}
