/// Builds the search data: a small manifest plus shards loaded on demand by `<script>` tags (JSONP), so
/// search works from `file://` and from any static server, and a first search at 100,000 people fetches
/// a manifest, one or two token shards and a few record chunks instead of the whole directory.
///
/// Files (all `window.orgdirShard(kind, id, data)` calls):
/// - `search/manifest.js`: people count, record chunk size, token shard keys and sizes, phone trigram sizes.
/// - `search/t/<n>.js`: `[token, postings]` pairs of tokens with a common prefix; postings per match class
///   (delta-encoded positions).
///   Keys are adaptive: a prefix whose tokens exceed `shardTarget` bytes is split by the next character, so
///   small sites have one shard and large ones hundreds; tokens equal to a split prefix get an "exact" shard.
/// - `search/d/<ddd>.js`: people whose phone digits contain the trigram `ddd`, with those digits.
/// - `search/r/<n>.js`: display records of people `n*chunk ..< (n+1)*chunk` in display order.
/// - with a base (`SearchBase`, named in the manifest): `search/o/0.js` and the overlay's files, which a nightly run
///   writes alone while the files above stay as they are (`SearchOverlay.swift`).
struct SearchIndexBuilder {
    /// Match classes, best first: first word of the display name, other name parts, everything else.
    enum MatchClass: Int, CaseIterable {
        case leadingName = 0, name = 1, other = 2
    }

    /// One person's tokens, each with the best class it is found in, sorted by token.
    typealias PersonTokens = [(String, MatchClass)]

    /// Target size of one token shard in bytes (before compression).
    var shardTarget = 32 * 1024
    /// People per record chunk.
    var chunkSize = 32
    /// The run before's tokens (see `SearchTokenCache`): people whose record digest matches are not tokenized.
    var tokenCache: SearchTokenCache?
    /// Whether `tokenShards` hands back everyone's tokens for the next run.
    var keepsTokenCache = false
    /// Everyone's export row in the run before (`RowMatch`): where a person's entry of `tokenCache` is found, when
    /// it copies rows.
    var rowMatch: RowMatch?
    /// Each person's entry in `tokenCache` by display position (`SearchBaseRows.overlay` for none), when the render
    /// located everyone in the base the cache describes (`SearchOverlayPlan.locate`): found there, with no index of
    /// everyone's id (some 20 ms of one core at 100,000 people) nor a row match, which after a night that wrote an
    /// overlay is not the cache's order (that night kept the base's tokens).
    var cacheRows: [UInt32]?
    /// The published base's records, for a run that makes a new base: located people's records are copied from
    /// there (`SearchBaseRecords`) rather than made.
    var baseRecords: SearchBaseRecords?

    /// One file of search data.
    struct File {
        var path: String
        /// The file's bytes, made as bytes: a `String` for each file, wrapped in its JSONP call and turned into
        /// bytes for writing, copied every search file three times.
        var bytes: [UInt8]

        /// The file as text (tests).
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// All search files for `directory`, collected (tests and small sites).
    func files(for directory: SiteDirectory) -> [File] {
        var collected: [File] = []
        self.files(for: directory) { collected.append($0) }
        return collected
    }

    /// Hands every search file for `directory` to `emit` as soon as it is made, so the shards' text is never
    /// all in memory at once (about 400 MB at a million people).
    func files<Failure: Error>(
        for directory: SiteDirectory, emit: (File) throws(Failure) -> Void
    ) throws(Failure) {
        let leaves = try tokenShards(for: directory, emit: emit).leaves
        let digitSizes = try phoneShards(directory, emit: emit)
        try recordChunks(for: directory, emit: emit)
        try emit(manifest(people: directory.people.count, leaves: leaves, digits: digitSizes))
    }

    /// What `tokenShards` made besides the files.
    struct TokenShards {
        /// Each shard's manifest entry.
        var leaves: [String] = []
        /// Everyone's tokens for the next run, when `keepsTokenCache` and the tokens were numbered.
        var cache: SearchTokenCache?
        /// People tokenized here (not numbered early, not taken from `tokenCache`).
        var tokenized = 0
    }

    /// The token shards, handed to `emit`; returns each shard's manifest entry and the tokens for the next run.
    func tokenShards<Failure: Error>(
        for directory: SiteDirectory, emit: (File) throws(Failure) -> Void
    ) throws(Failure) -> TokenShards {
        let numbered = numberedPostings(directory)
        var made = TokenShards(cache: numbered.cache, tokenized: numbered.tokenized)
        let postings = numbered.postings
        let leaves = shardLeaves(postings)
        var file: [UInt8] = []
        for (number, leaf) in leaves.enumerated() {
            file.removeAll(keepingCapacity: true)
            Self.startShard("t", "\(number)", in: &file)
            let bodyStart = file.count
            Self.appendTokenPairs(leaf.tokens, of: postings, to: &file)
            let bodySize = file.count - bodyStart
            Self.finishShard(&file)
            try emit(File(path: "search/t/\(number).js", bytes: file))
            made.leaves.append("[" + SiteEscaping.jsonString(leaf.key) + ",\(leaf.exact ? 1 : 0),\(bodySize)]")
        }
        return made
    }

    /// `[[token, postings], …]` of the tokens numbered `numbers` in `postings`, in that order: an array of pairs, not
    /// an object, so that a token such as "__proto__" stays data. The token shards' and the overlay's body.
    static func appendTokenPairs(_ numbers: [Int], of postings: TokenPostings, to file: inout [UInt8]) {
        file.append(0x5B)
        for (position, token) in numbers.enumerated() {
            if position > 0 { file.append(0x2C) }
            file.append(0x5B)
            file.append(0x22)
            SiteEscaping.appendJSONString(postings.tokens[token], to: &file)
            file.append(0x22)
            file.append(0x2C)
            postings.appendEncoded(token, to: &file)
            file.append(0x5D)
        }
        file.append(0x5D)
    }

    /// The display records, `chunkSize` people a file, handed to `emit`: only a chunk's records are held at a time.
    /// Returns how many were copied from `baseRecords`.
    @discardableResult
    func recordChunks<Failure: Error>(
        for directory: SiteDirectory, emit: (File) throws(Failure) -> Void
    ) throws(Failure) -> Int {
        // The people, not the directory, in the closures made for each chunk: capturing the directory copied it (a
        // retain and a release of each of its lists) once a chunk.
        let people = directory.people
        var base = baseRecords.map(SearchBaseRecords.Reader.init)
        var file: [UInt8] = []
        for (chunk, range) in chunkRanges(people.count).enumerated() {
            try emit(
                recordChunk(chunk, range, into: &file) { index, file in
                    Self.appendRecord(at: index, of: people, base: &base, to: &file)
                })
        }
        return base?.copied ?? 0
    }

    /// The record of the person at display `index`: copied from the published base where `base` has it, else made.
    private static func appendRecord(
        at index: Int, of people: [SitePerson], base: inout SearchBaseRecords.Reader?, to file: inout [UInt8]
    ) {
        if base?.append(position: index, to: &file) == true { return }
        appendRecord(people[index], to: &file)
    }

    /// The positions of each record chunk of `count` people.
    func chunkRanges(_ count: Int) -> [Range<Int>] {
        stride(from: 0, to: count, by: chunkSize).map { $0..<min(count, $0 + chunkSize) }
    }

    /// Record chunk number `chunk` (the people at `range`) in `file`, each record appended by `append`; of `kind`
    /// "r" (the base's, `search/r/`) or "or" (the overlay's, `search/or/`).
    func recordChunk(
        _ chunk: Int, _ range: Range<Int>, kind: String = "r", into file: inout [UInt8],
        append: (Int, inout [UInt8]) -> Void
    ) -> File {
        file.removeAll(keepingCapacity: true)
        Self.startShard(kind, "\(chunk)", in: &file)
        file.append(0x5B)
        for index in range {
            if index > range.lowerBound { file.append(0x2C) }
            append(index, &file)
        }
        file.append(0x5D)
        Self.finishShard(&file)
        return File(path: "search/\(kind)/\(chunk).js", bytes: file)
    }

    /// `search/manifest.js` from the shards' manifest entries and the phone shards' sizes.
    func manifest(people: Int, leaves: [String], digits: [(key: String, value: Int)], base: SearchBase? = nil) -> File {
        let digitList = digits.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
        // With a base, the search page also loads the overlay (`overlayFiles`) that names the same base.
        let baseEntry = base.map { "\"base\":\"\($0.id.hex)\"," } ?? ""
        let manifest =
            "{\"v\":1,\(baseEntry)\"people\":\(people),\"chunk\":\(chunkSize),\"leaves\":["
            + leaves.joined(separator: ",") + "],\"digits\":{" + digitList + "}}"
        var file: [UInt8] = []
        Self.startShard("m", "0", in: &file)
        file.append(contentsOf: manifest.utf8)
        Self.finishShard(&file)
        return File(path: "search/manifest.js", bytes: file)
    }

    /// Directories up to this size number every token as they are indexed, which makes the index about three
    /// times faster (a token is hashed once per distinct field value instead of several times per person);
    /// larger ones index by token text, which needs no second map of every token (about 60 MB more at a million
    /// people, at the build's peak).
    var numberingLimit = 300_000

    /// Every token's postings. People whose tokens were numbered while the build fetched
    /// (`SiteDirectory.searchTokens`) are added by number, and so are people whose record digest is the one in
    /// `tokenCache` (their tokens taken from it); the others are tokenized here and numbered in the same table.
    /// Everyone's tokens are handed back for the next run when `keepsTokenCache`; `tokenized` counts the people
    /// tokenized here.
    func numberedPostings(_ directory: SiteDirectory) -> (
        postings: TokenPostings, cache: SearchTokenCache?, tokenized: Int
    ) {
        let numberedEarly = directory.searchTokens.contains { $0 != nil }
        guard numberedEarly || directory.people.count <= numberingLimit else {
            return (TokenPostings(byText: postingsByToken(directory)), nil, directory.people.count)
        }
        // Cached numbers are in the cache's table, early ones in the directory's: never both. Entries are found at
        // the people's rows of the run before when the export rows match; else by id. Either way an entry is used
        // only when its key is the person's record digest (below).
        let located = cacheRows.flatMap { $0.count == directory.people.count ? $0 : nil }
        let byRow = located == nil && rowMatch.map(\.copiesRows) == true
        let reusable = numberedEarly ? nil : byRow || located != nil ? tokenCache : tokenCache?.indexed()
        /// The person's entry of the cache, and their id as the cache has it. Why the cache's: found by row, the
        /// person's own id was read for nothing but the next cache, a string in a place of its own for each of a
        /// hundred thousand people (a retain, 17 of some 1,100 samples of a nightly), where the cache's ids lie in
        /// about the order they are asked for.
        func known(_ index: Int, _ person: SitePerson) -> (entry: SearchTokenCache.Entry, id: String)? {
            if let located {
                let row = located[index]
                guard row != SearchBaseRows.overlay, let reusable, let entry = reusable.entry(at: Int(row)) else {
                    return nil
                }
                return (entry, reusable.ids[Int(row)])
            }
            guard byRow else {
                let id = person.user.id
                return reusable?.entry(for: id).map { ($0, id) }
            }
            guard let row = rowMatch?.previousRow(at: index), let reusable, let entry = reusable.entry(at: row) else {
                return nil
            }
            return (entry, reusable.ids[row])
        }
        var table = reusable?.table ?? directory.tokenTable
        var kept = keepsTokenCache ? SearchTokenCache.Builder(capacity: directory.people.count) : nil
        var tokenized = 0
        // Each person's packed tokens, by display position: the lists are shared with where they came from (the
        // directory, the cache), only the tokenized people's are new.
        var lists: [[UInt32]] = []
        lists.reserveCapacity(directory.people.count)
        var cache: [String: [UInt32]] = [:]
        var packed: [UInt32] = []
        for index in directory.people.indices {
            let person = directory.people[index]
            let key = kept != nil || reusable != nil ? directory.recordDigest(at: index) : nil
            if let early = directory.searchTokens[index] {
                lists.append(early)
                if let key { kept?.add(id: person.user.id, key: key, tokens: early) }
                continue
            }
            // A found entry is the person's when its key is their record's digest, which covers the id.
            if let key, let known = known(index, person), known.entry.key == key {
                lists.append(known.entry.tokens)
                kept?.add(id: known.id, key: key, tokens: known.entry.tokens)
                continue
            }
            Self.packTokens(of: person.user, table: &table, cache: &cache, into: &packed)
            tokenized += 1
            lists.append(packed)
            if let key { kept?.add(id: person.user.id, key: key, tokens: packed) }
        }
        // Tokens of people numbered early but not on the site (a local rule) have no postings: left out of the shards.
        let postings = TokenPostings(tokens: table.strings, packedByPosition: lists)
        // The postings were made from the same people's lists as the cache: the tokens posted are the ones in use.
        return (postings, kept?.cache(numberedIn: table, inUse: postings.postedCount), tokenized)
    }

    /// `tokenPostings` for a large directory whose people all need tokenizing here.
    func postingsByToken(_ directory: SiteDirectory) -> [String: [[Int]]] {
        var postings: [String: [[Int]]] = [:]
        var cache: [String: [String]] = [:]
        for index in directory.people.indices {
            for (token, matchClass) in Self.tokens(of: directory.people[index].user, cache: &cache) {
                postings[token, default: [[], [], []]][matchClass.rawValue].append(index)
            }
        }
        return postings
    }

    /// The tokens of one user with the best class each is found in; sorted for deterministic output.
    static func tokens(of user: User) -> PersonTokens {
        var cache: [String: [String]] = [:]
        return tokens(of: user, cache: &cache)
    }

    /// `tokens(of:)` with the tokens of each distinct value folded once: departments, titles, offices and
    /// common names repeat thousands of times in a large directory.
    static func tokens(of user: User, cache: inout [String: [String]]) -> PersonTokens {
        // Room for a person's tokens from the start: growing the dictionary two or three times per person was
        // a sixth of tokenizing.
        var best: [String: MatchClass] = Dictionary(minimumCapacity: 48)
        forEachField(of: user) { text, matchClass, repeats in
            let tokens = cached(text, repeats: repeats, in: &cache) { SearchFolding.indexTokens(text) }
            for token in tokens {
                if let current = best[token], current.rawValue <= matchClass.rawValue { continue }
                best[token] = matchClass
            }
        }
        return best.map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 }
    }

    /// `tokens(of:cache:)` as packed numbers of `table` (`SearchTokenTable.pack`), sorted by number, into
    /// `packed`; `cache` keeps each distinct field value's token numbers.
    static func packTokens(
        of user: User, table: inout SearchTokenTable, cache: inout [String: [UInt32]], into packed: inout [UInt32]
    ) {
        packTokens(of: user, cache: &cache, into: &packed) { tokens in tokens.map { table.number($0) } }
    }

    /// `packTokens(of:table:cache:into:)` with the numbering left to `numbering` (called with a field value's
    /// tokens when `cache` does not have them): a first build's prerender tasks number into one table they share.
    static func packTokens(
        of user: User, cache: inout [String: [UInt32]], into packed: inout [UInt32],
        numbering: ([String]) -> [UInt32]
    ) {
        packed.removeAll(keepingCapacity: true)
        forEachField(of: user) { text, matchClass, repeats in
            let numbers = cached(text, repeats: repeats, in: &cache) { numbering(SearchFolding.indexTokens(text)) }
            for number in numbers { packed.append(number << 2 | UInt32(matchClass.rawValue)) }
        }
        // Sorted, each token's first entry carries its best (lowest) class: keep only that one.
        packed.sort()
        var kept = 0
        for position in packed.indices where kept == 0 || packed[position] >> 2 != packed[kept - 1] >> 2 {
            packed[kept] = packed[position]
            kept += 1
        }
        packed.removeLast(packed.count - kept)
    }

    /// `text` split once at `separator`, empty parts left out (`split(separator:maxSplits: 1)`): the first
    /// non-empty part and, when not empty, everything after the separator that ends it. An ASCII value is split as
    /// bytes, where characters and bytes are the same thing (splitting by `Character` was a fifth of tokenizing a
    /// nightly run's hundred thousand people), with no array: two arrays per address were a tenth of it.
    static func split(_ text: String, at separator: Unicode.Scalar) -> (first: String?, rest: String?) {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            let parts = text.split(separator: Character(separator), maxSplits: 1)
            return (parts.first.map(String.init), parts.count > 1 ? String(parts[1]) : nil)
        }
        let byte = UInt8(separator.value)
        let utf8 = text.utf8
        // Separators before the first part end empty parts, which are left out.
        guard let start = utf8.firstIndex(where: { $0 != byte }) else { return (nil, nil) }
        guard let end = utf8[start...].firstIndex(of: byte) else { return (String(text[start...]), nil) }
        let rest = utf8.index(after: end)
        return (String(text[start..<end]), rest == utf8.endIndex ? nil : String(text[rest...]))
    }

    /// The first part of `text` split at `separator` (empty parts left out), as `split(_:at:)` splits.
    static func firstPart(of text: String, splitAt separator: Unicode.Scalar) -> String? {
        split(text, at: separator).first
    }

    /// What `make` gives for a field value, from `cache` when it has the value; a value that `repeats` (see
    /// `forEachField`) is kept there for the next person, up to 200,000 values.
    private static func cached<Value>(
        _ text: String, repeats: Bool, in cache: inout [String: Value], making make: () -> Value
    ) -> Value {
        guard repeats else { return make() }
        if let known = cache[text] { return known }
        let made = make()
        if cache.count < 200_000 { cache[text] = made }
        return made
    }

    /// Calls `body` with each field of `user` the search indexes and the class a match in it gets; `repeats` is
    /// false for values nearly everyone has their own of (an address's local part), which no cache should keep.
    private static func forEachField(of user: User, _ body: (String, MatchClass, _ repeats: Bool) -> Void) {
        func add(_ text: String?, _ matchClass: MatchClass, repeats: Bool = true) {
            if let text { body(text, matchClass, repeats) }
        }
        add(firstPart(of: user.displayName, splitAt: " "), .leadingName)
        // A display name's words repeat where the whole name does not: tokenized word by word, the callers'
        // caches fold each word once (the tokens are the same, see `SearchFolding.spaceSeparatedParts`).
        if let words = SearchFolding.spaceSeparatedParts(ofNonASCII: user.displayName) {
            for word in words where !word.isEmpty { body(word, .name, true) }
        } else {
            add(user.displayName, .name)
        }
        add(user.givenName, .name)
        add(user.surname, .name)
        for address in [user.mail, user.userPrincipalName.isEmpty ? nil : user.userPrincipalName] {
            guard let address else { continue }
            let parts = split(address, at: "@")
            // An address's local part is nearly everyone's own: not worth a place in a cache.
            add(parts.first, .name, repeats: false)
            add(parts.rest, .other)
        }
        add(user.jobTitle, .other)
        add(user.department, .other)
        add(user.officeLocation, .other)
        add(user.companyName, .other)
    }

    /// A shard: its key prefix, whether it only holds tokens equal to the key, and its tokens (numbers in
    /// `TokenPostings.tokens`, sorted by text).
    struct Leaf {
        var key: String
        var exact: Bool
        var tokens: [Int]
    }

    /// Splits the tokens someone has, sorted by Unicode scalar, into prefix shards of about `shardTarget` bytes.
    func shardLeaves(_ postings: TokenPostings) -> [Leaf] {
        var numbers: [Int] = []
        var tokens: [[Unicode.Scalar]] = []
        for number in postings.tokens.indices where postings.isPosted(number) {
            numbers.append(number)
            tokens.append(Array(postings.tokens[number].unicodeScalars))
        }
        let order = tokens.indices.sorted { lhs, rhs in
            tokens[lhs].lexicographicallyPrecedes(tokens[rhs]) { $0.value < $1.value }
        }
        numbers = order.map { numbers[$0] }
        tokens = order.map { tokens[$0] }
        let sizes = numbers.map { postings.tokens[$0].utf8.count + 4 + postings.encodedCount($0) }
        var leaves: [Leaf] = []
        func build(_ prefix: [Unicode.Scalar], _ range: Range<Int>) {
            let total = sizes[range].reduce(0, +)
            let splittable = tokens[range].contains { $0.count > prefix.count }
            if total <= shardTarget || !splittable {
                leaves.append(Leaf(key: Self.string(prefix), exact: false, tokens: Array(numbers[range])))
                return
            }
            var start = range.lowerBound
            while start < range.upperBound, tokens[start].count == prefix.count { start += 1 }
            if start > range.lowerBound {
                let exact = Array(numbers[range.lowerBound..<start])
                leaves.append(Leaf(key: Self.string(prefix), exact: true, tokens: exact))
            }
            while start < range.upperBound {
                let next = tokens[start][prefix.count]
                var end = start
                while end < range.upperBound, tokens[end][prefix.count] == next { end += 1 }
                build(prefix + [next], start..<end)
                start = end
            }
        }
        if !tokens.isEmpty { build([], 0..<tokens.count) }
        return leaves
    }

    /// Phone trigram shards, handed to `emit`; returns their sizes for the manifest.
    ///
    /// Search digits are ASCII digits and spaces, so a trigram is a number below 1,000: the lists are by that number
    /// and the bodies are written as bytes (a `String` per entry and a `Set<String>` per person made this a fifth of
    /// the search index's time). The lists are laid out in one buffer, counted first (like `TokenPostings`): a
    /// thousand lists grown a person at a time, with each person's trigrams sorted to drop repeats, were about a
    /// fifth of making these shards.
    func phoneShards<Failure: Error>(
        _ directory: SiteDirectory, emit: (File) throws(Failure) -> Void
    ) throws(Failure) -> [(key: String, value: Int)] {
        let (digits, ends) = Self.searchDigits(of: directory.people, at: directory.people.indices)
        let lists = digits.withUnsafeBufferPointer { PhoneTrigramLists(digits: $0, ends: ends) }
        var sizes: [(key: String, value: Int)] = []
        var file: [UInt8] = []
        for trigram in 0..<PhoneTrigramLists.trigramCount {
            let list = lists.people(holding: trigram)
            guard !list.isEmpty else { continue }
            let key = String(String(trigram + 1000).dropFirst())
            file.removeAll(keepingCapacity: true)
            Self.startShard("d", key, in: &file)
            let bodyStart = file.count
            digits.withUnsafeBufferPointer { digits in
                Self.appendPhoneShard(list, digits: digits, ends: ends, to: &file)
            }
            let bodySize = file.count - bodyStart
            Self.finishShard(&file)
            try emit(File(path: "search/d/\(key).js", bytes: file))
            sizes.append((key, bodySize))
        }
        return sizes
    }

    /// The search digits of the people at `positions`, in that order, in one buffer (a person's phones joined by
    /// spaces), and where each person's end. Why one buffer: a person's digits are copied into the list of every
    /// trigram they hold, some sixteen times, and copied from a `String` each time they were a retain and a release
    /// per copy, a third of making the phone shards.
    static func searchDigits(
        of people: [SitePerson], at positions: some Collection<Int>
    ) -> (digits: [UInt8], ends: [Int]) {
        var digits: [UInt8] = []
        digits.reserveCapacity(positions.count * 16)
        var ends: [Int] = []
        ends.reserveCapacity(positions.count)
        // Read in place: each person and phone taken out of its array as a value was a retain of every string in it
        // (the written number, the link, the digits), some 14 of a nightly's 60 samples of these shards.
        people.withUnsafeBufferPointer { people in
            for person in positions {
                let start = digits.count
                people[person].phones.withUnsafeBufferPointer { phones in
                    for phone in phones.indices where !phones[phone].link.searchDigits.isEmpty {
                        if digits.count > start { digits.append(0x20) }
                        digits.append(contentsOf: phones[phone].link.searchDigits.utf8)
                    }
                }
                ends.append(digits.count)
            }
        }
        return (digits, ends)
    }

    /// One phone shard's body, `[[gap,"digits"],…]`: the people at `list` (positions, ascending) by their gap to
    /// the one before, with their digits, `digits[ends[index - 1]..<ends[index]]`.
    static func appendPhoneShard(
        _ list: ArraySlice<Int32>, digits: UnsafeBufferPointer<UInt8>, ends: [Int], to body: inout [UInt8]
    ) {
        let start = body.count
        body.append(0x5B)
        var previous = 0
        for held in list {
            let index = Int(held)
            if body.count > start + 1 { body.append(0x2C) }
            body.append(0x5B)
            DecimalBytes.append(index - previous, to: &body)
            body.append(0x2C)
            body.append(0x22)
            body.append(
                contentsOf: UnsafeBufferPointer(rebasing: digits[(index == 0 ? 0 : ends[index - 1])..<ends[index]]))
            body.append(0x22)
            body.append(0x5D)
            previous = index
        }
        body.append(0x5D)
    }

    /// `[name, jobTitle, department, phone, phoneHref, mail, slug]`, empty strings for missing values.
    static func record(_ person: SitePerson) -> String {
        var bytes: [UInt8] = []
        appendRecord(person, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `record(person)`, appended.
    static func appendRecord(_ person: SitePerson, to bytes: inout [UInt8]) {
        // Field by field: an array of the seven values was an allocation and seven retains a person.
        func field(_ value: String?, last: Bool = false) {
            bytes.append(0x22)
            if let value { SiteEscaping.appendJSONString(SiteEscaping.displayText(value), to: &bytes) }
            bytes.append(0x22)
            bytes.append(last ? 0x5D : 0x2C)
        }
        let phone = person.primaryPhone
        bytes.append(0x5B)
        field(person.user.displayName)
        field(person.user.jobTitle)
        field(person.user.department)
        field(phone?.written)
        field(phone?.uri)
        field(person.user.mail)
        field(person.slug, last: true)
    }

    /// Starts a shard file of `kind` and `id` in `file`: `orgdirShard("kind","id",`; the body follows, then
    /// `finishShard`. (A JSONP call, so the index works from `file://` where `fetch` is refused.)
    static func startShard(_ kind: String, _ id: String, in file: inout [UInt8]) {
        file.append(contentsOf: "orgdirShard(\"\(kind)\",\"\(id)\",".utf8)
    }

    /// Ends a shard file `startShard` began.
    static func finishShard(_ file: inout [UInt8]) {
        file.append(contentsOf: [0x29, 0x3B, 0x0A])
    }

    private static func string(_ scalars: [Unicode.Scalar]) -> String {
        String(String.UnicodeScalarView(scalars))
    }
}
