/// The previous snapshot's people, changed in place by a delta round: read and written by id like a dictionary,
/// but kept as the snapshot's array plus the changes, and handed back sorted by id.
///
/// Why not a `[String: User]`: copying a hundred thousand users into a dictionary, out again in hash order, and
/// sorting them back by id was about a tenth of a nightly run, to change a few hundred of them. A snapshot's
/// people are in id order, so an id is found by binary search, with no index of everyone at all.
struct PeopleByID {
    /// The snapshot's people in id order, each id once: as given (never copied) when they are, as a snapshot orgdir
    /// writes always is.
    private let base: [User]
    /// Changes to people of `base`, by position: the new record, or nil for someone removed.
    private var changed: [Int: User?] = [:]
    /// People the snapshot did not have, in arrival order; nil where one was removed again.
    private var added: [User?] = []
    private var addedPosition: [String: Int] = [:]

    /// `people` read by id. People not in id order (a snapshot from an older orgdir) are put in it first, an id
    /// listed twice (never in a snapshot orgdir wrote) kept once, its last record, as in a dictionary: one merge then
    /// serves every snapshot, where such a list used to be found through a map of everyone's id and the merged list
    /// sorted again.
    init(_ people: [User]) {
        guard !people.isSortedByID else {
            base = people
            return
        }
        var sorted = people
        sorted.sortByID()
        // Repeated ids stay next to each other in the order given (the sort is stable): the last of each is kept.
        var unique: [User] = []
        unique.reserveCapacity(sorted.count)
        for index in sorted.indices
        where index + 1 == sorted.endIndex || User.idPrecedes(sorted[index].id, sorted[index + 1].id) {
            unique.append(sorted[index])
        }
        base = unique
    }

    subscript(id: String) -> User? {
        get {
            if let index = base.indexSortedByID(of: id) { return changed[index] ?? base[index] }
            return addedPosition[id].flatMap { added[$0] }
        }
        set {
            if let index = base.indexSortedByID(of: id) {
                changed[index] = .some(newValue)
            } else if let index = addedPosition[id] {
                added[index] = newValue
            } else if let newValue {
                addedPosition[id] = added.count
                added.append(newValue)
            }
        }
    }

    /// Everyone left, sorted by id (the snapshot's order, with the new people merged in): only where the round
    /// changed something is anyone looked at one by one.
    func sortedByID() -> [User] {
        let joiners = added.compactMap { $0 }.sorted { User.idPrecedes($0.id, $1.id) }
        var merged: [User] = []
        merged.reserveCapacity(base.count + joiners.count)
        for edit in edits(joiners: joiners) {
            merged.append(contentsOf: base[edit.start..<edit.end])
            if let user = edit.user { merged.append(user) }
        }
        return merged
    }

    /// How the merged list is made from `base` in id order and `joiners` (sorted by id): each edit is the run of
    /// `base` people `start..<end`, left as they were, then `user` (a changed record or a joiner; nil for someone
    /// removed, or after the last run).
    ///
    /// Why runs: the merge looked every one of a hundred thousand people up among the changes and copied each on
    /// its own, on the one core a nightly run has between the delta round and the render; a round changes a few
    /// hundred.
    private func edits(joiners: [User]) -> [(start: Int, end: Int, user: User?)] {
        // Where each joiner goes: before the first person of `base` whose id does not come before theirs.
        let places = joiners.map { base.insertionIndexByID(of: $0.id) }
        var edits: [(start: Int, end: Int, user: User?)] = []
        edits.reserveCapacity(changed.count + joiners.count + 1)
        var start = base.startIndex
        var joiner = joiners.startIndex
        for position in changed.keys.sorted() {
            while joiner < joiners.endIndex, places[joiner] <= position {
                edits.append((start, places[joiner], joiners[joiner]))
                start = places[joiner]
                joiner += 1
            }
            // The run up to the changed person, then their new record (none when removed).
            edits.append((start, position, changed[position] ?? nil))
            start = position + 1
        }
        while joiner < joiners.endIndex {
            edits.append((start, places[joiner], joiners[joiner]))
            start = places[joiner]
            joiner += 1
        }
        edits.append((start, base.endIndex, nil))
        return edits
    }
}

extension Array where Element == User {
    /// The position of the person whose id is `id`, found by binary search: the people must be in id order
    /// (`isSortedByID`). Ids compare as bytes, as they are ordered: a spelling of the id that is only canonically
    /// equivalent (the same `String`, other bytes) is another id here.
    func indexSortedByID(of id: String) -> Int? {
        let low = insertionIndexByID(of: id)
        // The first id not before `id`: the one sought when `id` does not come before it either.
        return low < endIndex && !User.idPrecedes(id, self[low].id) ? low : nil
    }

    /// Where `id` goes among people in id order: the position of the first person whose id does not come before it
    /// (`endIndex` when every id does), found by binary search.
    func insertionIndexByID(of id: String) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if User.idPrecedes(self[middle].id, id) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// True when the ids ascend: the snapshot's canonical order (`Snapshot.isCanonicallyOrdered`), ids compared as
    /// bytes.
    var isSortedByID: Bool {
        Snapshot.isCanonicallyOrdered(self)
    }

    /// Puts the people in id order, the snapshot's canonical order (ids compared as bytes, `User.idPrecedes`), people
    /// with the same id in the order they came.
    ///
    /// Graph promises no order, and a service that lists people by name (or in any order but by id) left a first
    /// build sorting a hundred thousand records between the fetch and the render, on one core while the other
    /// waited: about 90 ms, a comparison of two ids being a cache miss on each side. The ids are copied into blocks
    /// and sorted as bytes on two cores (`ByteKeyOrder`), then every record moves once to its place.
    ///
    /// Why the snapshot's order and not `String`'s: the two agree on ASCII ids (Graph's are GUIDs), and for any other
    /// a sort by `String` had to be followed by the snapshot's own sort, each with its pass to check the order first.
    mutating func sortByID() {
        guard !isSortedByID else { return }
        permute(to: Self.idKeys(of: self).sortedPositions())
    }

    /// The ids of `people` as `ByteKeyOrder` keys. A function of its own so that the gathering tasks' hold on the
    /// array ends when it returns: the caller then moves the records in a buffer it owns alone (a second owner
    /// would make the first move copy every record).
    private static func idKeys(of people: [User]) -> ByteKeyOrder {
        ByteKeyOrder(count: people.count) { index, block in
            // Read in place from the buffer, not through a copy of the whole record.
            people.withUnsafeBufferPointer { people in
                people[index].id.withUTF8Bytes { block.append(contentsOf: $0) }
            }
        }
    }
}
