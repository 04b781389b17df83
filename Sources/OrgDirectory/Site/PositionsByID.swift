/// Display positions by Graph id: how the site links managers and reports, and finds the few people a night looks up
/// by id (history events, changed people, search records).
///
/// Why not only a dictionary: a site's people come in id order (the snapshot's order, `DirectorySync`), so a binary
/// search of their ids finds anyone without hashing everyone's id into a table first. Building that table was 19 of
/// the 21 samples of the directory's lookups, on one of the two cores while the other made the slugs and lists, and
/// some 4 MB of fresh memory, in a 100,000-person nightly (`PROFILE_CALL_GRAPH=dwarf Benchmarks/profile-nightly.sh`,
/// 2026-11-29). People in any other order, or two sharing an id, are looked up through a dictionary as before, where
/// the first in display order keeps a shared id.
struct PositionsByID: Sendable {
    private enum Storage: Sendable {
        /// Users strictly in id order (so each id is one person's), and each user's display position.
        case sorted(users: [User], positions: [Int])
        /// Any other list: the display position of each id's first person in display order.
        case table([String: Int])
    }

    private let storage: Storage
    /// How many different ids the site's people have: its number of people when each id is one person's.
    let count: Int

    /// People strictly in id order, everyone on the site, found by binary search; `positions[i]` is the display
    /// position of `users[i]`.
    init(sortedUsers users: [User], positions: [Int]) {
        precondition(users.count == positions.count, "every user needs a display position")
        assert(Snapshot.isInIDOrder(users, repeatsAllowed: false), "PositionsByID(sortedUsers:) needs ids in order")
        storage = .sorted(users: users, positions: positions)
        count = users.count
    }

    /// People in any order, each id's position given in `table`.
    init(table: [String: Int]) {
        storage = .table(table)
        count = table.count
    }

    /// The display position of the person with `id`, nil when nobody on the site has it.
    subscript(id: String) -> Int? {
        switch storage {
        case .sorted(let users, let positions):
            return users.indexSortedByID(of: id).map { positions[$0] }
        case .table(let table):
            return table[id]
        }
    }

    /// Every id and its position, as one table (tests compare the two ways of finding people with it).
    var table: [String: Int] {
        switch storage {
        case .sorted(let users, let positions):
            var table: [String: Int] = [:]
            for (user, position) in zip(users, positions) { table[user.id] = position }
            return table
        case .table(let table):
            return table
        }
    }
}
