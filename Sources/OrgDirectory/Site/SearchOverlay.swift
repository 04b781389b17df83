import Foundation

/// What a site's search files were built from: a *base*, named by `id`, that a nightly run leaves in place while it
/// writes only a small overlay of who changed since (`SearchOverlayPlan`).
///
/// Why: the search files number people by display position, so one person joining or leaving moved everyone after
/// them, and every token shard, phone shard and record chunk (some 4,500 files, 43 MB at 100,000 people) was made and
/// written again each night, the largest single part of a nightly run (`Benchmarks/ceiling.sh search`). The base is
/// kept with the search tokens it was made from (`SearchTokenCache.base`): their ids and record digests, in the
/// base's display order, say who is still shown exactly as the base shows them.
struct SearchBase: Sendable, Equatable {
    /// A digest of every base person's record digest in display order (which covers their ids): the same people
    /// with the same records give the same id, so a rebuilt base with nothing changed leaves the files as they were.
    let id: RenderFingerprint
    /// Base numbers of people whose slug was lengthened (`SiteDirectory.lengthenedSlugs`): such a slug can change
    /// without their record changing, so these are never taken from the base.
    let irregularSlugs: [UInt32]

    /// The base of the people `keys` describes (record digests in display order), of whom those at `lengthened`
    /// have lengthened slugs.
    init(keys: some Collection<RenderFingerprint>, lengthened: [Int]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(keys.count * 16)
        for key in keys { BinaryRecord.append(key, to: &bytes) }
        id = RenderFingerprint(hashing: bytes)
        irregularSlugs = lengthened.map { UInt32($0) }
    }

    init(id: RenderFingerprint, irregularSlugs: [UInt32]) {
        self.id = id
        self.irregularSlugs = irregularSlugs
    }
}

/// The search base a published site holds, as its `search/manifest.js` names it: the base's id and every file of it
/// (the manifest, token shards, phone shards and record chunks). Read once, by the run that may build on it.
///
/// The files are named from the manifest, not listed from their folders: a file missing from the published base must
/// make the run build a new one (`SiteRenderJob.renderSearchOverlay`), not publish a site without it.
struct PublishedSearchBase: Sendable {
    let id: RenderFingerprint
    let files: [String]
    /// The published site's folder, which `files` are in.
    let folder: String
    /// People in the base, and how many records each of its `search/r/` chunks holds.
    let people: Int
    let recordChunk: Int

    init(id: RenderFingerprint, files: [String], folder: String, people: Int, recordChunk: Int) {
        (self.id, self.files, self.folder, self.people, self.recordChunk) = (id, files, folder, people, recordChunk)
    }

    /// The base the manifest of the site in `folder` names; nil when it names none or cannot be read.
    init?(publishedIn folder: String) {
        guard let data = FileManager.default.contents(atPath: folder + "/search/manifest.js"),
            let open = data.firstIndex(of: UInt8(ascii: "{")), let close = data.lastIndex(of: UInt8(ascii: "}")),
            open < close,
            let manifest = try? JSONSerialization.jsonObject(with: data[open...close]) as? [String: Any],
            let hex = manifest["base"] as? String,
            let id = Array(hex.utf8).withUnsafeBytes({ RenderFingerprint(hexBytes: $0) }),
            let leaves = manifest["leaves"] as? [Any], let digits = manifest["digits"] as? [String: Any],
            let people = manifest["people"] as? Int, let chunk = manifest["chunk"] as? Int, chunk > 0
        else { return nil }
        (self.id, self.folder, self.people, recordChunk) = (id, folder, people, chunk)
        files =
            ["search/manifest.js"] + leaves.indices.map { "search/t/\($0).js" }
            + digits.keys.sorted().map { "search/d/\($0).js" }
            + (0..<((people + chunk - 1) / chunk)).map { "search/r/\($0).js" }
    }
}

/// Where each person of a night that wrote a search overlay is in its base: for each of that run's export rows
/// (its display order), the person's base number, `SearchBaseRows.overlay` for the overlay's people. The next night
/// finds a person's base number through the row `RowMatch` gives them, without an index of everyone's id.
public struct SearchBaseRows: Sendable, Equatable {
    /// The base the numbers are in.
    let base: RenderFingerprint
    let numbers: [UInt32]

    /// A row whose person is in the overlay.
    static let overlay = UInt32.max
}

/// Who a nightly run's search overlay holds: the people not shown exactly as the published base shows them, and the
/// base numbers that no longer stand for anyone.
///
/// The search page filters the base's matches by `gone`, adds the overlay's own, and places each overlay person
/// between the base people around them (`insertion`): since a person unchanged since the base keeps their place
/// relative to every other such person (display order depends only on a person's own record), the merged ranking
/// is the one a search built from scratch gives. `make` checks that assumption and gives up (the run builds a new
/// base) when it does not hold.
struct SearchOverlayPlan: Sendable {
    let base: SearchBase
    /// People in the base.
    let baseCount: Int
    /// Display positions of the overlay's people, ascending.
    let people: [Int]
    /// For each overlay person, the base number of the first base person shown after them (`baseCount` when none):
    /// the search page ranks them just before it.
    let insertion: [Int]
    /// Base numbers of people who left, changed, or may have another slug, ascending.
    let gone: [Int]
    /// Everyone's base number in display order, for the next night (`SearchBaseRows`).
    let rows: SearchBaseRows
    /// Every file of the base, carried over from the published site (`PublishedSearchBase.files`).
    let baseFiles: [String]

    /// The share of a directory an overlay may hold; beyond it a run builds a new base. At 5 % of 100,000 people an
    /// overlay is about 150 small files, and a first search loads its list (about 60 KB) and one token file.
    static let largestShare = 0.05

    /// Whether tonight will likely make a new base, before the directory says: the overlay of the night before
    /// (`previousRows`, nil when that night made a base) and tonight's `changed` people (joined, left or changed) come
    /// near `largestShare` of the `people`. Such a night numbers everyone's tokens from the whole kept cache, which is
    /// then decoded beside the directory's making, as every night did before `StoredSearchTokens`. Decoded only once
    /// the plan was known, such a night's render took 667 against 615 ms in one run of `Benchmarks/ab-nightly.sh` with
    /// CHANGE_PERCENT=4 (8 rounds; 708 against 702 ms in another), and 625 against 622 ms with this guess. A wrong
    /// guess costs only that decode, or that wait.
    static func likelyNewBase(previousRows: SearchBaseRows?, changed: Int, people: Int) -> Bool {
        let overlaid = previousRows?.numbers.reduce(0) { $0 + ($1 == SearchBaseRows.overlay ? 1 : 0) } ?? 0
        return Double(overlaid + changed) > 0.8 * largestShare * Double(max(people, 1))
    }

    /// Everyone's base number in the base `cache` describes (by display position, `SearchBaseRows.overlay` for
    /// people not shown as the base shows them); nil when the cache names no base.
    ///
    /// A person is the base's person at the base number their row in the run before had (`match`, through
    /// `previousRows` when the run before wrote an overlay, else the row is the number: the tokens were kept in that
    /// run's display order), and failing that at the number of the base entry with their id. Either way only when
    /// the entry's key is their record's digest (which covers the id) and their slug cannot have moved. Why rows
    /// first: looking up everyone's id was some 40 of a nightly's 750 samples; a person whose row changed (a new
    /// manager's name in the exports) is then looked up by id, and so are the base's few people left over.
    ///
    /// A night that makes a new base anyway finds everyone's tokens in the cache through these numbers.
    static func locate(
        directory: SiteDirectory, cache: StoredSearchTokens, match: RowMatch? = nil, previousRows: SearchBaseRows? = nil
    ) -> SearchBaseRows? {
        guard let base = cache.base else { return nil }
        let count = directory.people.count
        let baseCount = cache.count
        let irregular = Set(base.irregularSlugs)
        var baseAt = [UInt32](repeating: SearchBaseRows.overlay, count: count)
        var kept = [Bool](repeating: false, count: baseCount)
        func claim(_ number: Int, _ position: Int) {
            guard number < baseCount, !kept[number], baseAt[position] == SearchBaseRows.overlay,
                directory.recordDigest(at: position) == cache.keys[number],
                !irregular.contains(UInt32(number)), !directory.hasLengthenedSlug(at: position)
            else { return }
            baseAt[position] = UInt32(number)
            kept[number] = true
        }
        if let match {
            let numbers = previousRows.flatMap { $0.base == base.id ? $0.numbers : nil }
            // Rows of the run before name base numbers only when that run kept these tokens in its order or said
            // where its rows are in this base.
            if numbers != nil || previousRows == nil {
                for position in 0..<count {
                    guard let row = match.previousRow(at: position) else { continue }
                    if let numbers {
                        guard row < numbers.count, numbers[row] != SearchBaseRows.overlay else { continue }
                        claim(Int(numbers[row]), position)
                    } else {
                        claim(row, position)
                    }
                }
            }
        }
        for number in 0..<baseCount where !kept[number] {
            if let id = cache.id(at: number), let position = directory.positionByID[id] { claim(number, position) }
        }
        return SearchBaseRows(base: base.id, numbers: baseAt)
    }

    /// The plan for people located in the base (`locate`), when that base is the `published` one, the overlay holds
    /// at most `largestShare` of the people and the base's order holds; nil means: build a new base.
    static func make(
        located rows: SearchBaseRows, cache: StoredSearchTokens, largestShare: Double = largestShare,
        published: PublishedSearchBase?
    ) -> SearchOverlayPlan? {
        guard largestShare > 0, let base = cache.base, let published, base.id == published.id, rows.base == base.id
        else { return nil }
        let baseAt = rows.numbers
        let count = baseAt.count
        let baseCount = cache.count
        var kept = [Bool](repeating: false, count: baseCount)
        var people: [Int] = []
        var last = -1
        for position in 0..<count {
            guard baseAt[position] != SearchBaseRows.overlay else {
                people.append(position)
                continue
            }
            guard Int(baseAt[position]) > last else { return nil }  // the base's order no longer holds: a new base
            last = Int(baseAt[position])
            kept[last] = true
        }
        guard Double(people.count) <= largestShare * Double(count) else { return nil }
        var insertion = [Int](repeating: baseCount, count: people.count)
        var next = baseCount
        var slot = people.count - 1
        for position in stride(from: count - 1, through: 0, by: -1) {
            if baseAt[position] != SearchBaseRows.overlay {
                next = Int(baseAt[position])
            } else {
                insertion[slot] = next
                slot -= 1
            }
        }
        let gone = kept.indices.filter { !kept[$0] }
        return SearchOverlayPlan(
            base: base, baseCount: baseCount, people: people, insertion: insertion, gone: gone, rows: rows,
            baseFiles: published.files)
    }
}

extension SearchIndexBuilder {
    /// The overlay files for `plan` (or an empty overlay for a new base, `plan` nil with `base`), handed to `emit`:
    ///
    /// - `search/o/0.js`: the base id, people count, `at` (each overlay person's `insertion`) and `gone`, both
    ///   delta-encoded, the record chunk size, the token files' keys and sizes and the phone file's size;
    /// - `search/ot/<n>.js`: `[token, postings]` pairs as the token shards have them, postings by overlay number,
    ///   one file for each first character of a token;
    /// - `search/od/0.js`: `[[gap, "digits"], …]` of the overlay people with phone digits;
    /// - `search/or/<n>.js`: the overlay people's display records, `chunkSize` a file.
    func overlayFiles<Failure: Error>(
        _ plan: SearchOverlayPlan?, base: SearchBase, directory: SiteDirectory, emit: (File) throws(Failure) -> Void
    ) throws(Failure) {
        let people = plan?.people ?? []
        var file: [UInt8] = []
        // Tokens by first character, each with its three postings lists of overlay numbers (ascending).
        var buckets: [Unicode.Scalar: [String: [[Int]]]] = [:]
        var cache: [String: [String]] = [:]
        for (number, position) in people.enumerated() {
            for (token, matchClass) in Self.tokens(of: directory.people[position].user, cache: &cache) {
                guard let first = token.unicodeScalars.first else { continue }
                buckets[first, default: [:]][token, default: [[], [], []]][matchClass.rawValue].append(number)
            }
        }
        var tokenSizes: [(key: Unicode.Scalar, size: Int)] = []
        for (index, key) in buckets.keys.sorted(by: { $0.value < $1.value }).enumerated() {
            let postings = TokenPostings(byText: buckets[key] ?? [:])
            file.removeAll(keepingCapacity: true)
            Self.startShard("ot", "\(index)", in: &file)
            let bodyStart = file.count
            Self.appendTokenPairs(
                postings.tokens.indices.sorted { postings.tokens[$0] < postings.tokens[$1] }, of: postings, to: &file)
            tokenSizes.append((key, file.count - bodyStart))
            Self.finishShard(&file)
            try emit(File(path: "search/ot/\(index).js", bytes: file))
        }
        var digitsSize = 0
        let (digits, ends) = Self.searchDigits(of: directory.people, at: people)
        let withDigits = ends.indices.filter { ends[$0] > ($0 == 0 ? 0 : ends[$0 - 1]) }.map { Int32($0) }
        if !withDigits.isEmpty {
            file.removeAll(keepingCapacity: true)
            Self.startShard("od", "0", in: &file)
            let bodyStart = file.count
            digits.withUnsafeBufferPointer { digits in
                Self.appendPhoneShard(withDigits[...], digits: digits, ends: ends, to: &file)
            }
            digitsSize = file.count - bodyStart
            Self.finishShard(&file)
            try emit(File(path: "search/od/0.js", bytes: file))
        }
        for (chunk, range) in chunkRanges(people.count).enumerated() {
            try emit(
                recordChunk(chunk, range, kind: "or", into: &file) { number, file in
                    Self.appendRecord(directory.people[people[number]], to: &file)
                })
        }
        file.removeAll(keepingCapacity: true)
        Self.startShard("o", "0", in: &file)
        file.append(
            contentsOf: Array("{\"v\":1,\"base\":\"\(base.id.hex)\",\"people\":\(directory.people.count),".utf8))
        file.append(contentsOf: Array("\"chunk\":\(chunkSize),\"at\":".utf8))
        Self.appendDeltas(plan?.insertion ?? [], to: &file)
        file.append(contentsOf: Array(",\"gone\":".utf8))
        Self.appendDeltas(plan?.gone ?? [], to: &file)
        file.append(contentsOf: Array(",\"tokens\":[".utf8))
        for (index, entry) in tokenSizes.enumerated() {
            if index > 0 { file.append(0x2C) }
            file.append(0x5B)
            file.append(0x22)
            SiteEscaping.appendJSONString(String(Character(entry.key)), to: &file)
            file.append(contentsOf: Array("\",\(entry.size)]".utf8))
        }
        file.append(contentsOf: Array("],\"digits\":\(digitsSize)}".utf8))
        Self.finishShard(&file)
        try emit(File(path: "search/o/0.js", bytes: file))
    }

    /// `[a, b-a, c-b, …]` of an ascending list.
    private static func appendDeltas(_ values: [Int], to file: inout [UInt8]) {
        file.append(0x5B)
        var previous = 0
        for (index, value) in values.enumerated() {
            if index > 0 { file.append(0x2C) }
            DecimalBytes.append(value - previous, to: &file)
            previous = value
        }
        file.append(0x5D)
    }
}
