/// The previous snapshot's people, changed in place by a delta round: read and written by id like a dictionary,
/// but kept as the snapshot's array plus an index, and handed back sorted by id.
///
/// Why not a `[String: User]`: copying a hundred thousand users into a dictionary, out again in hash order, and
/// sorting them back by id was about a tenth of a nightly run, to change a few hundred of them.
struct PeopleByID {
    /// The snapshot's people in its order (by id); nil where one was removed.
    private var kept: [User?]
    /// People the snapshot did not have, in arrival order; nil where one was removed again.
    private var added: [User?] = []
    /// Where each id is: a position in `kept`, or `kept.count +` a position in `added`.
    private var position: [String: Int]

    init(_ people: [User]) {
        kept = people
        position = Dictionary(minimumCapacity: people.count)
        for (index, user) in people.enumerated() {
            // An id twice (never in a snapshot orgdir wrote): the last one counts, as in a dictionary.
            if let earlier = position.updateValue(index, forKey: user.id) { kept[earlier] = nil }
        }
    }

    subscript(id: String) -> User? {
        get {
            guard let index = position[id] else { return nil }
            return index < kept.count ? kept[index] : added[index - kept.count]
        }
        set {
            if let index = position[id] {
                if index < kept.count { kept[index] = newValue } else { added[index - kept.count] = newValue }
            } else if let newValue {
                position[id] = kept.count + added.count
                added.append(newValue)
            }
        }
    }

    /// Everyone left, sorted by id (the snapshot's order, with the new people merged in).
    func sortedByID() -> [User] {
        let joiners = added.compactMap { $0 }.sorted { $0.id < $1.id }
        var merged: [User] = []
        merged.reserveCapacity(kept.count + joiners.count)
        var next = joiners.startIndex
        for case let user? in kept {
            while next < joiners.endIndex, joiners[next].id < user.id {
                merged.append(joiners[next])
                next += 1
            }
            merged.append(user)
        }
        merged += joiners[next...]
        // A snapshot from an older orgdir may not be in id order: sorted then, as the dictionary was.
        if !merged.isSortedByID { merged.sort { $0.id < $1.id } }
        return merged
    }
}

extension Array where Element == User {
    /// True when the ids ascend (a snapshot's canonical order).
    var isSortedByID: Bool {
        indices.dropFirst().allSatisfy { self[$0 - 1].id < self[$0].id }
    }
}
