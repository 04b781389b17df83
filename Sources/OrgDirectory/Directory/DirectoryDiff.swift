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
        var unequal: Set<String> = []
        return between(old, new, unequal: &unequal)
    }

    /// `between(_:_:)`, also collecting in `unequal` the ids of people in both whose records differ at all, a
    /// change the diff ignores included (a run trusts what it kept for everyone else: `KeptPreparations`).
    static func between(_ old: [User], _ new: [User], unequal: inout Set<String>) -> DirectoryDiff {
        between(canonical: Snapshot.canonicallySorted(old), Snapshot.canonicallySorted(new), unequal: &unequal)
    }

    /// `between(_:_:unequal:)` of two lists already in the snapshot's order (`Snapshot.isCanonicallyOrdered`): a
    /// snapshot's people, and a run's once it has put them in that order. Why: the check is a pass over everyone's
    /// id, and a nightly run made it on both lists again, having just made sure of them (a few ms, on one core).
    /// Debug builds (the tests) still check it: out of order, the merge below would pair the wrong people and
    /// report joiners and leavers that are neither, with nothing to show for it.
    static func between(canonical old: [User], _ new: [User], unequal: inout Set<String>) -> DirectoryDiff {
        assert(
            Snapshot.isInIDOrder(old) && Snapshot.isInIDOrder(new),
            "between(canonical:) needs both lists in the snapshot's order")
        var diff = DirectoryDiff()
        var oldIndex = old.startIndex
        var newIndex = new.startIndex
        // Through buffers, whose elements are read in place: `let before = old[index]` copied each record (a
        // retain and a release of every field), twice a person, to compare two lists that are mostly equal.
        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                guard let oldBase = old.baseAddress, let newBase = new.baseAddress else { return }
                while oldIndex < old.endIndex, newIndex < new.endIndex {
                    if old[oldIndex].id == new[newIndex].id {
                        // Field by field where the records lie (`!=` copied both first).
                        if !User.sameRecord(oldBase + oldIndex, newBase + newIndex) {
                            unequal.insert(new[newIndex].id)
                            if let change = PersonChange.between(old[oldIndex], new[newIndex]) {
                                diff.changed.append(change)
                            }
                        }
                        oldIndex += 1
                        newIndex += 1
                    } else if User.idPrecedes(old[oldIndex].id, new[newIndex].id) {
                        diff.leavers.append(old[oldIndex])
                        oldIndex += 1
                    } else {
                        diff.joiners.append(new[newIndex])
                        newIndex += 1
                    }
                }
            }
        }
        diff.leavers.append(contentsOf: old[oldIndex...])
        diff.joiners.append(contentsOf: new[newIndex...])
        return diff
    }
}
