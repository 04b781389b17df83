/// Who joined, who left and what changed for everyone else between two versions of the directory.
///
/// People are matched by `id` (stable for the life of an account), so a rename is a change, not a leaver plus a
/// joiner. Only differences a reader would call a change count: the order of business phones and a manager's
/// own rename are ignored (see `PersonChange.between`).
public struct DirectoryDiff: Sendable, Equatable, Codable {
    /// People only in the new directory, in id order.
    public var joiners: [User]
    /// People only in the old directory, in id order (as they were last seen).
    public var leavers: [User]
    /// People in both whose details changed, in id order.
    public var changed: [PersonChange]

    public init(joiners: [User] = [], leavers: [User] = [], changed: [PersonChange] = []) {
        self.joiners = joiners
        self.leavers = leavers
        self.changed = changed
    }

    /// True when the two directories hold the same people with the same details.
    public var isEmpty: Bool { joiners.isEmpty && leavers.isEmpty && changed.isEmpty }

    /// The changed people who moved (department, manager or office).
    public var movers: [PersonChange] { changed.filter { !$0.moves.isEmpty } }

    /// Compares two directories in one pass over both, by id.
    ///
    /// Snapshots are already sorted by id, so this is a merge walk: O(n), no dictionary. Unsorted input is
    /// sorted first (O(n log n)).
    public static func between(_ old: [User], _ new: [User]) -> DirectoryDiff {
        let old = Snapshot.canonicallySorted(old)
        let new = Snapshot.canonicallySorted(new)
        var diff = DirectoryDiff()
        var oldIndex = old.startIndex
        var newIndex = new.startIndex
        while oldIndex < old.endIndex, newIndex < new.endIndex {
            let before = old[oldIndex]
            let after = new[newIndex]
            if before.id == after.id {
                if before != after, let change = PersonChange.between(before, after) {
                    diff.changed.append(change)
                }
                oldIndex += 1
                newIndex += 1
            } else if User.canonicallyPrecedes(before, after) {
                diff.leavers.append(before)
                oldIndex += 1
            } else {
                diff.joiners.append(after)
                newIndex += 1
            }
        }
        diff.leavers.append(contentsOf: old[oldIndex...])
        diff.joiners.append(contentsOf: new[newIndex...])
        return diff
    }
}
