/// Every person's search tokens as the run before numbered them, by id, each with a digest of the record they were
/// made from: a nightly run tokenizes only the people whose record changed.
///
/// Why: tokenizing a hundred thousand people (folding and splitting every name, address, title and office) was the
/// largest single piece of a nightly run that publishes 1% of them changed. A person's tokens depend on their record
/// (after hiding) and on the tokenizer alone, so the run keeps them beside its snapshot, in the state folder, and
/// the next run takes a person's tokens from there when the digest of their record is the one stored. The cache
/// names the orgdir version, the build and the hidden fields it was made with (`context`): any other run ignores it.
public struct SearchTokenCache: Sendable, Equatable {
    /// One person's tokens, numbered in `table` and packed as `SearchTokenTable.pack` packs them.
    struct Entry: Sendable, Equatable {
        let key: RenderFingerprint
        let tokens: [UInt32]
    }

    /// Numbers the tokens of every entry; only tokens someone has are kept.
    let table: SearchTokenTable
    /// People's ids and their entries, in the order they were collected.
    let ids: [String]
    let entries: [Entry]
    /// The search base made from these tokens (`SearchBase`), when the run that kept them published one: the
    /// entries are then in that base's display order, an entry's position being its base number.
    let base: SearchBase?
    /// Position in `entries` by id: made only when the next run looks people up by id (`indexed()`), not when a
    /// cache is collected or read (a run that matches its export rows finds entries by position, `entry(at:)`).
    private let positions: [String: Int]

    init(table: SearchTokenTable, ids: [String], entries: [Entry], indexed: Bool, base: SearchBase? = nil) {
        self.table = table
        self.ids = ids
        self.entries = entries
        self.base = base
        var positions: [String: Int] = [:]
        if indexed {
            positions.reserveCapacity(ids.count)
            for (position, id) in ids.enumerated() { positions[id] = position }
        }
        self.positions = positions
    }

    /// This cache, ready for `entry(for:)`.
    func indexed() -> SearchTokenCache {
        positions.count == ids.count
            ? self : SearchTokenCache(table: table, ids: ids, entries: entries, indexed: true, base: base)
    }

    /// This cache naming `base` as the search base its entries were made into.
    func with(base: SearchBase?) -> SearchTokenCache {
        SearchTokenCache(table: table, ids: ids, entries: entries, indexed: positions.count == ids.count, base: base)
    }

    /// The entry of the person with `id`, in an `indexed()` cache.
    func entry(for id: String) -> Entry? {
        positions[id].map { entries[$0] }
    }

    /// The entry at `position`, nil past the end. A cache is collected in its render's display order, the order of
    /// that run's export rows: a person whose row the next run finds there (`RowMatch`) is found here at the same
    /// position, with no index of everyone's id.
    ///
    /// Whose entry it is, the caller's check of its key settles: the key is the record's digest, and the record
    /// holds the id, so an entry of someone else (a cache one row off) never matches. Comparing the ids as well
    /// reached two strings in places of their own for each of a nightly run's hundred thousand people (15 of some
    /// 1,050 samples, `Benchmarks/profile-nightly.sh`).
    func entry(at position: Int) -> Entry? {
        entries.indices.contains(position) ? entries[position] : nil
    }

    public static func == (lhs: SearchTokenCache, rhs: SearchTokenCache) -> Bool {
        lhs.table == rhs.table && lhs.ids == rhs.ids && lhs.entries == rhs.entries && lhs.base == rhs.base
    }

    /// What a cache must have been made with to be used by a run hiding `hidden`: the format, orgdir's version and
    /// build (the tokenizer is part of them) and the hidden fields.
    static func context(hiding hidden: Set<String>) -> RenderFingerprint {
        FingerprintInput.stateCache("orgdir-search-tokens/2", hiding: hidden).fingerprint
    }
}

extension SearchTokenCache {
    /// Collects a render's tokens for the next run: everyone's, in any order, numbered in one table.
    struct Builder {
        private var ids: [String] = []
        private var entries: [Entry] = []

        init(capacity: Int) {
            ids.reserveCapacity(capacity)
            entries.reserveCapacity(capacity)
        }

        mutating func add(id: String, key: RenderFingerprint, tokens packed: [UInt32]) {
            ids.append(id)
            entries.append(Entry(key: key, tokens: packed))
        }

        /// The cache, numbered in `table`, of which `inUse` tokens are someone's (the caller knows: the search
        /// index's postings were made from the same lists). Tokens nobody has stay there, numbered as they were,
        /// until they are more than `deadShare` of it: then they are left out and the rest numbered again in order of
        /// first use (a table carried from night to night would otherwise keep every token anyone ever had).
        ///
        /// Why not every night: numbered again, every person's list was copied (some 11 MB of new arrays at
        /// 100,000 people) to drop the tokens of the one percent who changed or left. Why `inUse` given: counted
        /// here, every person's every token was walked once more (some 7 of 1,000 samples of a nightly).
        func cache(numberedIn table: SearchTokenTable, inUse: Int) -> SearchTokenCache {
            guard Double(table.count - inUse) > Self.deadShare * Double(table.count) else {
                return SearchTokenCache(table: table, ids: ids, entries: entries, indexed: false)
            }
            var renumbered: [UInt32?] = Array(repeating: nil, count: table.count)
            var compact = SearchTokenTable()
            let entries = entries.map { entry in
                let mapped = entry.tokens.map { packed -> UInt32 in
                    let (number, matchClass) = SearchTokenTable.unpack(packed)
                    let new: UInt32
                    if let known = renumbered[number] {
                        new = known
                    } else {
                        new = compact.number(table.strings[number])
                        renumbered[number] = new
                    }
                    return new << 2 | UInt32(matchClass)
                }
                return Entry(key: entry.key, tokens: mapped)
            }
            return SearchTokenCache(table: compact, ids: ids, entries: entries, indexed: false)
        }

        /// The share of a table's tokens nobody has above which `cache(numberedIn:)` leaves them out.
        static let deadShare = 0.25
    }
}

// MARK: - File format

extension SearchTokenCache {
    static let magic = Array("orgdir-search-tokens\n".utf8)

    /// The cache as bytes, written through `out` (`StateCacheFile.replace(encodingInPieces:)`): a header line, the
    /// context digest, the tokens, then each person (id, key, tokens) in the order collected (display order: sorting
    /// a hundred thousand ids cost more than the rest of the file), then the base (a byte 0 when none; 1, its id and
    /// its irregular slugs' numbers). Numbers are 32-bit little-endian; strings are
    /// length-prefixed.
    func encode<Failure: Error>(context: RenderFingerprint, into out: inout PieceBuffer<Failure>) throws(Failure) {
        out.bytes.append(contentsOf: Self.magic)
        BinaryRecord.append(context, to: &out.bytes)
        BinaryRecord.append(UInt32(table.count), to: &out.bytes)
        for token in table.strings {
            BinaryRecord.append(token, to: &out.bytes)
            try out.flushIfFull()
        }
        BinaryRecord.append(UInt32(entries.count), to: &out.bytes)
        // By index, each entry's fields read in place: a zip of the two lists copied every entry out (a retain and
        // a release of its id and its tokens), most of writing the file.
        for index in entries.indices {
            BinaryRecord.append(ids[index], to: &out.bytes)
            BinaryRecord.append(entries[index].key, to: &out.bytes)
            BinaryRecord.append(UInt32(entries[index].tokens.count), to: &out.bytes)
            BinaryRecord.append(contentsOf: entries[index].tokens, to: &out.bytes)
            try out.flushIfFull()
        }
        out.bytes.append(base == nil ? 0 : 1)
        if let base {
            BinaryRecord.append(base.id, to: &out.bytes)
            BinaryRecord.append(UInt32(base.irregularSlugs.count), to: &out.bytes)
            BinaryRecord.append(contentsOf: base.irregularSlugs, to: &out.bytes)
        }
    }

    /// The cache in `bytes` when they are whole and were made in `context`; nil for anything else (another
    /// version, other hidden fields, a file cut short or damaged).
    static func decode(_ bytes: UnsafeRawBufferPointer, context: RenderFingerprint) -> SearchTokenCache? {
        var reader = BinaryReader(bytes: bytes)
        guard let tokenCount = decodeHeader(&reader, context: context) else { return nil }
        var table = SearchTokenTable()
        for _ in 0..<tokenCount {
            guard let token = reader.string() else { return nil }
            guard table.number(token) == UInt32(table.count - 1) else { return nil }  // a token twice: damaged
        }
        guard let personCount = decodePersonCount(&reader) else { return nil }
        var ids: [String] = []
        var entries: [Entry] = []
        ids.reserveCapacity(Int(personCount))
        entries.reserveCapacity(Int(personCount))
        for _ in 0..<personCount {
            guard let id = reader.string(), let key = reader.digest(), let count: UInt32 = reader.number(),
                Int(count) <= reader.remaining / 4
            else { return nil }
            var tokens: [UInt32] = []
            tokens.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let token: UInt32 = reader.number(), Int(token >> 2) < table.count, token & 3 < 3 else {
                    return nil
                }
                tokens.append(token)
            }
            ids.append(id)
            entries.append(Entry(key: key, tokens: tokens))
        }
        guard let base = decodeBase(&reader, personCount: personCount), reader.remaining == 0 else { return nil }
        // Not indexed by id here: a run that matches its people's export rows finds their entries by position.
        return SearchTokenCache(table: table, ids: ids, entries: entries, indexed: false, base: base)
    }

    /// The file's first part: the number of tokens in its table, when the file is of this format and was made in
    /// `context`; nil otherwise.
    static func decodeHeader(_ reader: inout BinaryReader, context: RenderFingerprint) -> UInt32? {
        guard reader.take(magic.count).elementsEqual(magic), reader.digest() == context else { return nil }
        return reader.number()
    }

    /// The number of people after the table, when the bytes left can hold that many (an id's length, a key and a
    /// count at least each); nil otherwise.
    static func decodePersonCount(_ reader: inout BinaryReader) -> UInt32? {
        guard let personCount: UInt32 = reader.number(), Int(personCount) <= reader.remaining / 24 else { return nil }
        return personCount
    }

    /// The file's last part: the base its `personCount` entries were made into, `.some(nil)` when there is none;
    /// nil when that part is damaged.
    static func decodeBase(_ reader: inout BinaryReader, personCount: UInt32) -> SearchBase?? {
        guard let hasBase: UInt8 = reader.number(), hasBase <= 1 else { return nil }
        guard hasBase == 1 else { return .some(nil) }
        guard let id = reader.digest(), let count: UInt32 = reader.number(), Int(count) <= reader.remaining / 4
        else { return nil }
        var irregular: [UInt32] = []
        irregular.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let number: UInt32 = reader.number(), number < personCount else { return nil }
            irregular.append(number)
        }
        return SearchBase(id: id, irregularSlugs: irregular)
    }
}
