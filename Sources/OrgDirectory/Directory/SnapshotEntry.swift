import Foundation

/// One snapshot file in the store, as `orgdir snapshots` lists it.
public struct SnapshotEntry: Sendable, Equatable, Codable {
    /// The file name, e.g. `2026-03-04T02-00-00Z.json` (`…Z-2.json` for a second snapshot in the same second).
    public var name: String
    public var url: URL
    /// The UTC time in the name, which is the snapshot's `takenAt`.
    public var takenAt: Date
    /// 1 for the first snapshot taken in a given second, 2 for the next, and so on.
    public var sequence: Int
    public var byteCount: Int
    /// The file's metadata, or nil when it could not be read (see `problem`).
    public var metadata: SnapshotMetadata?
    /// Why the metadata could not be read (a damaged file, a newer schema); nil when all is well.
    public var problem: String?

    /// The number of people, when the metadata could be read.
    public var peopleCount: Int? { metadata?.counts.people }

    public init(
        name: String, url: URL, takenAt: Date, sequence: Int, byteCount: Int, metadata: SnapshotMetadata?,
        problem: String? = nil
    ) {
        self.name = name
        self.url = url
        self.takenAt = takenAt
        self.sequence = sequence
        self.byteCount = byteCount
        self.metadata = metadata
        self.problem = problem
    }

    /// Oldest first: by time, then by sequence within the same second.
    static func chronological(_ lhs: SnapshotEntry, _ rhs: SnapshotEntry) -> Bool {
        (lhs.takenAt, lhs.sequence) < (rhs.takenAt, rhs.sequence)
    }
}
