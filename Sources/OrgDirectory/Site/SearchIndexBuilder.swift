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
struct SearchIndexBuilder {
    /// Match classes, best first: first word of the display name, other name parts, everything else.
    enum MatchClass: Int, CaseIterable {
        case leadingName = 0, name = 1, other = 2
    }

    /// Target size of one token shard in bytes (before compression).
    var shardTarget = 32 * 1024
    /// People per record chunk.
    var chunkSize = 32

    /// One file of search data.
    struct File {
        var path: String
        var text: String
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
        let leaves = try tokenShards(for: directory, emit: emit)
        let digitSizes = try phoneShards(directory, emit: emit)
        try recordChunks(for: directory, emit: emit)
        try emit(manifest(people: directory.people.count, leaves: leaves, digits: digitSizes))
    }

    /// The token shards, handed to `emit`; returns each shard's manifest entry.
    func tokenShards<Failure: Error>(
        for directory: SiteDirectory, emit: (File) throws(Failure) -> Void
    ) throws(Failure) -> [String] {
        let postings = tokenPostings(directory).mapValues(Self.encode)
        let leaves = shardLeaves(postings)
        var manifestLeaves: [String] = []
        for (number, leaf) in leaves.enumerated() {
            // An array of [token, postings] pairs, not an object: a token such as "__proto__" must stay data.
            var body = "["
            for (position, token) in leaf.tokens.enumerated() {
                if position > 0 { body += "," }
                body += "[" + SiteEscaping.jsonString(token) + "," + (postings[token] ?? "[]") + "]"
            }
            body += "]"
            try emit(File(path: "search/t/\(number).js", text: Self.jsonp("t", "\(number)", body)))
            manifestLeaves.append(
                "[" + SiteEscaping.jsonString(leaf.key) + ",\(leaf.exact ? 1 : 0),\(body.utf8.count)]")
        }
        return manifestLeaves
    }

    /// The display records, `chunkSize` people a file, handed to `emit`.
    func recordChunks<Failure: Error>(
        for directory: SiteDirectory, emit: (File) throws(Failure) -> Void
    ) throws(Failure) {
        var chunk = 0
        while chunk * chunkSize < directory.people.count {
            let range = (chunk * chunkSize)..<min(directory.people.count, (chunk + 1) * chunkSize)
            let records = range.map { Self.record(directory.people[$0]) }.joined(separator: ",")
            try emit(File(path: "search/r/\(chunk).js", text: Self.jsonp("r", "\(chunk)", "[" + records + "]")))
            chunk += 1
        }
    }

    /// `search/manifest.js` from the shards' manifest entries and the phone shards' sizes.
    func manifest(people: Int, leaves: [String], digits: [(key: String, value: Int)]) -> File {
        let digitList = digits.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
        let manifest =
            "{\"v\":1,\"people\":\(people),\"chunk\":\(chunkSize),\"leaves\":["
            + leaves.joined(separator: ",") + "],\"digits\":{" + digitList + "}}"
        return File(path: "search/manifest.js", text: Self.jsonp("m", "0", manifest))
    }

    /// Token → positions per match class, positions ascending.
    func tokenPostings(_ directory: SiteDirectory) -> [String: [[Int]]] {
        var postings: [String: [[Int]]] = [:]
        var cache: [String: [String]] = [:]
        for person in directory.people {
            for (token, matchClass) in Self.tokens(of: person.user, cache: &cache) {
                // Appended in place: copying the lists out and back in copied a common token's whole list
                // (a company name: everyone) on every append, which made this quadratic.
                postings[token, default: [[], [], []]][matchClass.rawValue].append(person.index)
            }
        }
        return postings
    }

    /// The tokens of one user with the best class each is found in; sorted for deterministic output.
    static func tokens(of user: User) -> [(String, MatchClass)] {
        var cache: [String: [String]] = [:]
        return tokens(of: user, cache: &cache)
    }

    /// `tokens(of:)` with the tokens of each distinct value folded once: departments, titles, offices and
    /// common names repeat thousands of times in a large directory.
    static func tokens(of user: User, cache: inout [String: [String]]) -> [(String, MatchClass)] {
        var best: [String: MatchClass] = [:]
        func add(_ text: String?, _ matchClass: MatchClass) {
            guard let text else { return }
            let tokens: [String]
            if let cached = cache[text] {
                tokens = cached
            } else {
                tokens = SearchFolding.indexTokens(text)
                if cache.count < 200_000 { cache[text] = tokens }
            }
            for token in tokens {
                if let current = best[token], current.rawValue <= matchClass.rawValue { continue }
                best[token] = matchClass
            }
        }
        let displayWords = user.displayName.split(whereSeparator: { $0 == " " })
        add(displayWords.first.map(String.init), .leadingName)
        add(user.displayName, .name)
        add(user.givenName, .name)
        add(user.surname, .name)
        for address in [user.mail, user.userPrincipalName.isEmpty ? nil : user.userPrincipalName] {
            guard let address else { continue }
            let parts = address.split(separator: "@", maxSplits: 1)
            add(parts.first.map(String.init), .name)
            if parts.count > 1 { add(String(parts[1]), .other) }
        }
        add(user.jobTitle, .other)
        add(user.department, .other)
        add(user.officeLocation, .other)
        add(user.companyName, .other)
        return best.map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 }
    }

    /// A shard: its key prefix, whether it only holds tokens equal to the key, and its tokens (sorted).
    struct Leaf {
        var key: String
        var exact: Bool
        var tokens: [String]
    }

    /// Splits the sorted tokens into prefix shards of about `shardTarget` bytes; `postings` are encoded.
    func shardLeaves(_ postings: [String: String]) -> [Leaf] {
        let tokens = postings.keys.map { Array($0.unicodeScalars) }.sorted { lhs, rhs in
            lhs.lexicographicallyPrecedes(rhs) { $0.value < $1.value }
        }
        var sizes: [Int] = []
        sizes.reserveCapacity(tokens.count)
        for token in tokens {
            let text = String(String.UnicodeScalarView(token))
            sizes.append(text.utf8.count + 4 + (postings[text]?.utf8.count ?? 2))
        }
        var leaves: [Leaf] = []
        func build(_ prefix: [Unicode.Scalar], _ range: Range<Int>) {
            let total = sizes[range].reduce(0, +)
            let splittable = tokens[range].contains { $0.count > prefix.count }
            if total <= shardTarget || !splittable {
                leaves.append(
                    Leaf(key: Self.string(prefix), exact: false, tokens: tokens[range].map { Self.string($0) }))
                return
            }
            var start = range.lowerBound
            var exact: [String] = []
            while start < range.upperBound, tokens[start].count == prefix.count {
                exact.append(Self.string(tokens[start]))
                start += 1
            }
            if !exact.isEmpty { leaves.append(Leaf(key: Self.string(prefix), exact: true, tokens: exact)) }
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
    func phoneShards<Failure: Error>(
        _ directory: SiteDirectory, emit: (File) throws(Failure) -> Void
    ) throws(Failure) -> [(key: String, value: Int)] {
        var entries: [String: [(Int, String)]] = [:]
        for person in directory.people {
            let digits = person.phones.map(\.link.searchDigits).filter { !$0.isEmpty }.joined(separator: " ")
            guard !digits.isEmpty else { continue }
            var trigrams = Set<String>()
            for part in digits.split(separator: " ") {
                let chars = Array(part.utf8)
                guard chars.count >= 3 else { continue }
                for start in 0...(chars.count - 3) {
                    trigrams.insert(String(decoding: chars[start..<(start + 3)], as: UTF8.self))
                }
            }
            for trigram in trigrams { entries[trigram, default: []].append((person.index, digits)) }
        }
        var sizes: [(key: String, value: Int)] = []
        for (trigram, list) in entries.sorted(by: { $0.key < $1.key }) {
            var previous = 0
            let body =
                "["
                + list.map { index, digits in
                    defer { previous = index }
                    return "[\(index - previous),\"\(digits)\"]"
                }.joined(separator: ",") + "]"
            try emit(File(path: "search/d/\(trigram).js", text: Self.jsonp("d", trigram, body)))
            sizes.append((trigram, body.utf8.count))
        }
        return sizes
    }

    /// `[name, jobTitle, department, phone, phoneHref, mail, slug]`, empty strings for missing values.
    static func record(_ person: SitePerson) -> String {
        let user = person.user
        let fields = [
            SiteEscaping.displayText(user.displayName), user.jobTitle ?? "", user.department ?? "",
            person.primaryPhone?.written ?? "", person.primaryPhone?.uri ?? "", user.mail ?? "", person.slug,
        ]
        return "[" + fields.map { SiteEscaping.jsonString(SiteEscaping.displayText($0)) }.joined(separator: ",") + "]"
    }

    /// Postings as `[[d,d,…],[…],[…]]` with each list delta-encoded (first value absolute).
    static func encode(_ lists: [[Int]]) -> String {
        "["
            + lists.map { list in
                var previous = 0
                var parts: [String] = []
                parts.reserveCapacity(list.count)
                for value in list {
                    parts.append(String(value - previous))
                    previous = value
                }
                return "[" + parts.joined(separator: ",") + "]"
            }.joined(separator: ",") + "]"
    }

    private static func jsonp(_ kind: String, _ id: String, _ body: String) -> String {
        "orgdirShard(\"\(kind)\",\"\(id)\"," + body + ");\n"
    }

    private static func string(_ scalars: [Unicode.Scalar]) -> String {
        String(String.UnicodeScalarView(scalars))
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        String(String.UnicodeScalarView(scalars))
    }
}
