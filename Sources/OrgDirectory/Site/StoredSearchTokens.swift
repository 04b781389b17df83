import Synchronization

/// The run before's search tokens (`SearchTokenCache`) as a render first needs them: each entry's key, the base they
/// describe and, one at a time, an entry's id; the whole cache (its table, ids and token lists) made only when asked
/// for (`whole()`).
///
/// Why: a night that writes only a search overlay (`SearchOverlayPlan`) reads nothing of the kept tokens but the keys,
/// the base and the ids of the few base people it could not place by row. Decoded whole, the file made a string of
/// every id and token and a list of every person's tokens, 64 of some 890 samples of a 100,000-person nightly
/// (`PROFILE_CALL_GRAPH=dwarf Benchmarks/profile-nightly.sh`), on one core beside the directory's making, which then had
/// the other core alone. At 1 % of the people changed a night, some six nights in seven write an overlay (Benchmarks/
/// README.md, 2026-11-27 15:33); a night that makes a new base still decodes the whole file.
public struct StoredSearchTokens: Sendable {
    /// Each entry's key (the digest of the record its tokens were made from), by entry number.
    let keys: [RenderFingerprint]
    /// The search base the entries were made into, when the run that kept them published one.
    let base: SearchBase?
    private let source: Source

    /// How many entries there are.
    var count: Int { keys.count }

    /// A cache already in memory (tests, library callers, a run that made it).
    init(_ cache: SearchTokenCache) {
        keys = cache.entries.map(\.key)
        base = cache.base
        source = .memory(cache)
    }

    private init(keys: [RenderFingerprint], base: SearchBase?, source: Source) {
        self.keys = keys
        self.base = base
        self.source = source
    }

    /// The id of entry `number`; nil past the end, or when its bytes are not well-formed UTF-8.
    func id(at number: Int) -> String? {
        switch source {
        case .memory(let cache): cache.ids.indices.contains(number) ? cache.ids[number] : nil
        case .mapped(let file): file.id(at: number)
        }
    }

    /// The whole cache, decoded once (later calls wait for the first and share what it made); nil when the file turns
    /// out damaged where only the whole decode looks (a token twice in the table, a token number past its end, a
    /// string that is not UTF-8), which costs the run time only: everyone is then tokenized.
    func whole() -> SearchTokenCache? {
        switch source {
        case .memory(let cache): cache
        case .mapped(let file): file.whole()
        }
    }

    /// The cache in `file` when it was made in `context`: its keys, base and where each entry's id lies read now, the
    /// rest left in the mapping for `whole()`. Nil when the file's layout is not whole (cut short, another format or
    /// version, other hidden fields), as `SearchTokenCache.decode` says too.
    static func read(_ file: MappedFile, context: RenderFingerprint) -> StoredSearchTokens? {
        var reader = BinaryReader(bytes: file.bytes)
        guard let tokenCount = SearchTokenCache.decodeHeader(&reader, context: context) else { return nil }
        for _ in 0..<tokenCount {
            guard reader.skipString() else { return nil }
        }
        guard let personCount = SearchTokenCache.decodePersonCount(&reader) else { return nil }
        var keys: [RenderFingerprint] = []
        var idOffsets: [Int] = []
        keys.reserveCapacity(Int(personCount))
        idOffsets.reserveCapacity(Int(personCount))
        for _ in 0..<personCount {
            idOffsets.append(reader.offset)
            guard reader.skipString(), let key = reader.digest(), let count: UInt32 = reader.number(),
                Int(count) <= reader.remaining / 4
            else { return nil }
            reader.offset += Int(count) * 4
            keys.append(key)
        }
        guard let base = SearchTokenCache.decodeBase(&reader, personCount: personCount), reader.remaining == 0
        else { return nil }
        // The pages read go back (the keys are copied out): kept, the mapping stayed in the run's resident set to its
        // end, and a night making a new base peaked some 13 MiB higher (`Benchmarks/ab-nightly.sh` with
        // CHANGE_PERCENT=4). An id asked for later reads its page again.
        file.release(0..<file.bytes.count)
        return StoredSearchTokens(
            keys: keys, base: base, source: .mapped(MappedTokens(file: file, context: context, idOffsets: idOffsets)))
    }

    /// Where the tokens come from: a cache in memory, or the mapped file.
    private enum Source: Sendable {
        case memory(SearchTokenCache)
        case mapped(MappedTokens)
    }

    /// The mapped file, where each entry's id lies in it, and the whole cache once decoded from it.
    private final class MappedTokens: Sendable {
        private let file: MappedFile
        private let context: RenderFingerprint
        /// Where each entry's id starts in `file`.
        private let idOffsets: [Int]
        /// Nil until decoded, then the whole cache (`.some(nil)` when the decode failed).
        private let decoded = Mutex<SearchTokenCache??>(nil)

        init(file: MappedFile, context: RenderFingerprint, idOffsets: [Int]) {
            self.file = file
            self.context = context
            self.idOffsets = idOffsets
        }

        func id(at number: Int) -> String? {
            guard idOffsets.indices.contains(number) else { return nil }
            var reader = BinaryReader(bytes: file.bytes, offset: idOffsets[number])
            return reader.string()
        }

        func whole() -> SearchTokenCache? {
            decoded.withLock { cache in
                if let known = cache { return known }
                defer { file.release(0..<file.bytes.count) }
                let made = SearchTokenCache.decode(file.bytes, context: context)
                cache = .some(made)
                return made
            }
        }
    }
}
