/// A run's use of the run before's `PreparationCache`: entries of people whose record is not the one in the cache's
/// snapshot (joiners have none) are never used.
public struct KeptPreparations: Sendable {
    let cache: PreparationCache
    /// Ids whose record differs from the one in the cache's snapshot, in id order (`User.idPrecedes`): a chunk
    /// of people in id order walks them beside its people, where a set was hashed for everyone.
    let unequal: [String]

    init(cache: PreparationCache, unequal: Set<String>) {
        self.cache = cache
        self.unequal = unequal.sorted(by: User.idPrecedes)
    }

    /// Walks `unequal` beside people met in id order (the same as `PreparationCache.Cursor`'s).
    struct Unequal {
        let ids: [String]
        private var next: Int
        private var last: String?

        /// At the first id that does not precede `id`.
        init(_ ids: [String], from id: String) {
            self.ids = ids
            var low = 0
            var high = ids.count
            while low < high {
                let middle = (low + high) / 2
                if User.idPrecedes(ids[middle], id) { low = middle + 1 } else { high = middle }
            }
            next = low
        }

        /// Whether `id` is one of them. A person met out of id order counts as one: the walk may have passed their
        /// id, and a kept entry must never be taken for a changed record.
        mutating func contains(_ id: String) -> Bool {
            defer { last = id }
            if let last, !User.idPrecedes(last, id) { return true }
            while next < ids.count, User.idPrecedes(ids[next], id) { next += 1 }
            return next < ids.count && ids[next] == id
        }
    }
}

/// One chunk's `PreparationCache` entries, in the order of its people: new ones written here, kept ones noted as
/// where they are in the run before's file (consecutive ones as one run of bytes), to be copied from there as the
/// file is saved. Held as bytes, everyone's entries were some 26 MB more at a 100,000-person nightly run's peak.
struct PreparationWriter: Sendable {
    private var pieces: [PreparationCache.Piece] = []
    private var made: [UInt8] = []
    private var keptRun: Range<Int>?
    /// False once a person lacked what an entry holds: the chunk, and so the cache, is then not kept.
    private var complete = true

    /// A writer for `count` people, most of them kept when `mostlyKept`.
    init(count: Int, mostlyKept: Bool) {
        made.reserveCapacity(mostlyKept ? 4096 : count * 280)
    }

    mutating func add(id: String, person: PreparedPerson) {
        guard complete else { return }
        if let run = keptRun {
            pieces.append(.kept(run))
            keptRun = nil
        }
        complete = PreparationCache.appendEntry(id: id, person: person, to: &made)
    }

    mutating func copy(_ entry: Int, from cache: PreparationCache) {
        let range = cache.byteRange(of: entry)
        if !made.isEmpty {
            pieces.append(.made(made))
            made = []
        }
        if let run = keptRun, run.upperBound == range.lowerBound {
            keptRun = run.lowerBound..<range.upperBound
        } else {
            if let run = keptRun { pieces.append(.kept(run)) }
            keptRun = range
        }
    }

    /// The entries of `count` people written by `chunks` in order, kept ones taken from `source`; nil when any
    /// chunk is incomplete.
    static func made(count: Int, chunks: [PreparationWriter], source: PreparationCache?) -> PreparationCache.Made? {
        guard chunks.allSatisfy(\.complete) else { return nil }
        var pieces: [PreparationCache.Piece] = []
        for chunk in chunks {
            pieces += chunk.pieces
            if !chunk.made.isEmpty { pieces.append(.made(chunk.made)) }
            if let run = chunk.keptRun { pieces.append(.kept(run)) }
        }
        return PreparationCache.Made(count: count, pieces: pieces, source: source)
    }
}
