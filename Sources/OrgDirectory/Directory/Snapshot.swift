import Foundation

/// One run's directory as recorded in the state folder: what was fetched, from where, and when.
///
/// Snapshots are the organization's long-term record (Microsoft keeps audit logs for weeks only), so their
/// bytes are canonical: people sorted by id, keys in a stable order, whole-second UTC dates. The same
/// directory always gives the same file, which is what lets a delta run be checked against a full run.
public struct Snapshot: Sendable, Codable, Equatable {
    public var metadata: SnapshotMetadata
    /// Everyone in the directory after local rules, sorted by `id` (see `User.canonicallyPrecedes`).
    public var people: [User]

    /// Creates a snapshot, putting `people` into canonical order and filling in `metadata.counts.people`.
    public init(metadata: SnapshotMetadata, people: [User]) {
        self.init(metadata: metadata, canonicallyOrdered: Self.canonicallySorted(people))
    }

    /// A snapshot of `people` already in canonical order, taken as they are: a run that has just put them in that
    /// order (`canonicallySorted`) does not check it again. Debug builds (the tests) do: a snapshot out of order
    /// would be written as it is, and read back by binary search and merges that assume the order.
    init(metadata: SnapshotMetadata, canonicallyOrdered people: [User]) {
        assert(Self.isInIDOrder(people), "Snapshot(canonicallyOrdered:) needs people in id order")
        var metadata = metadata
        metadata.counts.people = people.count
        self.metadata = metadata
        self.people = people
    }

    /// `people` in canonical order; already sorted input (the usual case) costs one O(n) check.
    ///
    /// The run's one sort by id (`sortByID`: the ids copied into blocks and sorted on two cores, every record moved
    /// once): moving a `User` (twenty fields) around is what made sorting 100,000 people take seconds.
    public static func canonicallySorted(_ people: [User]) -> [User] {
        var sorted = people
        sorted.sortByID()
        return sorted
    }

    /// Whether `people` is strictly ascending by id, checked in O(n) so sorted input is not sorted again.
    static func isCanonicallyOrdered(_ people: [User]) -> Bool {
        isInIDOrder(people, repeatsAllowed: false)
    }

    /// Whether no one in `people` comes after the next one by id: with `repeatsAllowed`, the canonical order where a
    /// broken input's repeated id stays next to itself (for checks of a caller's promise in debug builds), else
    /// strictly ascending (`isCanonicallyOrdered`).
    static func isInIDOrder(_ people: [User], repeatsAllowed: Bool = true) -> Bool {
        // Ids read in place from the buffer: through the array each step copied two whole records.
        people.withUnsafeBufferPointer { people in
            var index = people.startIndex
            while index + 1 < people.endIndex {
                let (this, next) = (people[index].id, people[index + 1].id)
                guard repeatsAllowed ? !User.idPrecedes(next, this) : User.idPrecedes(this, next) else { return false }
                index += 1
            }
            return true
        }
    }
}

extension User {
    /// The order of people in a snapshot: by id, compared as UTF-8 bytes so it never depends on locale or
    /// Unicode normalization (Graph ids are ASCII GUIDs; anything else still sorts deterministically).
    public static func canonicallyPrecedes(_ lhs: User, _ rhs: User) -> Bool {
        idPrecedes(lhs.id, rhs.id)
    }

    /// Byte-wise comparison of two ids' UTF-8 (`ByteOrder`), read in place when stored contiguously (native strings).
    static func idPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.withUTF8Bytes { left in
            rhs.withUTF8Bytes { right in
                ByteOrder.compare(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right)) < 0
            }
        }
    }
}
