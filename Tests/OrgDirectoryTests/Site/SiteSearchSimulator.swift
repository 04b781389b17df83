import Foundation

@testable import OrgDirectory

/// Mirrors what assets/search.js does for one query, over search files in memory, and records which files a
/// browser would fetch. Used to check shard keying and the first-search download budget without a browser.
struct SiteSearchSimulator {
    /// Search files by path (`search/manifest.js` …), JSONP text.
    let files: [String: String]
    private let manifest: [String: Any]
    /// `search/o/0.js` when the manifest names a base (a site that may carry an overlay of who changed since).
    private let overlay: [String: Any]?

    init(files: [String: String]) throws {
        self.files = files
        manifest = try Self.payload(files["search/manifest.js"] ?? "") as? [String: Any] ?? [:]
        if let base = manifest["base"] as? String {
            let overlay = try Self.payload(files["search/o/0.js"] ?? "") as? [String: Any] ?? [:]
            guard overlay["base"] as? String == base else { throw CocoaError(.fileReadCorruptFile) }
            self.overlay = overlay
        } else {
            overlay = nil
        }
    }

    /// The search files of the site in `folder`, keyed by path.
    init(folder: URL) throws {
        var files: [String: String] = [:]
        let search = folder.appendingPathComponent("search")
        let found = FileManager.default.enumerator(atPath: search.path)
        while let path = found?.nextObject() as? String {
            guard path.hasSuffix(".js") else { continue }
            files["search/" + path] = try String(contentsOf: search.appendingPathComponent(path), encoding: .utf8)
        }
        try self.init(files: files)
    }

    /// The `data` argument of an `orgdirShard(kind, id, data);` file.
    static func payload(_ text: String) throws -> Any {
        guard let start = text.firstIndex(of: ","), let second = text[text.index(after: start)...].firstIndex(of: ","),
            let end = text.lastIndex(of: ")")
        else { throw CocoaError(.fileReadCorruptFile) }
        return try JSONSerialization.jsonObject(with: Data(text[text.index(after: second)..<end].utf8))
    }

    /// Result positions (ranked) and the files fetched, or nil positions when the query is too broad.
    func search(_ query: String, shown: Int = 50) throws -> (positions: [Int]?, fetched: [String]) {
        let (keys, fetched) = try rankedKeys(query, shown: shown)
        return (keys?.map { Int($0) }, fetched)
    }

    /// The display records of the ranked results, with the overlay merged as search.js merges it; nil when the
    /// query is too broad.
    func rankedRecords(_ query: String) throws -> [[String]]? {
        try rankedKeys(query, shown: 0).keys?.map { key in
            guard let overlay, key != key.rounded() else { return try record(Int(key)) }
            let at = Self.decode(overlay["at"] as? [Int] ?? [])
            guard let number = at.indices.first(where: { Self.overlayKey($0, at: at) == key }) else {
                throw CocoaError(.fileReadCorruptFile)
            }
            let chunk = overlay["chunk"] as? Int ?? 32
            let records = try Self.payload(files["search/or/\(number / chunk).js"] ?? "") as? [[String]] ?? []
            return records[number % chunk]
        }
    }

    /// search.js's rank key of overlay person `number`: just before the base person `at[number]`.
    private static func overlayKey(_ number: Int, at: [Int]) -> Double {
        Double(at[number]) - 1 + Double(number + 1) / Double(at.count + 1)
    }

    private static func decode(_ deltas: [Int]) -> [Int] {
        var value = 0
        return deltas.map {
            value += $0
            return value
        }
    }

    /// Adds the overlay's matches of one term to `found`, after dropping the base positions it marks gone.
    private func mergeOverlay(
        _ term: (digits: String?, variants: [String]), into found: inout [Double: Int], fetched: inout [String]
    ) throws {
        guard let overlay else { return }
        func fetch(_ path: String) -> String {
            if !fetched.contains(path) { fetched.append(path) }
            return files[path] ?? ""
        }
        for gone in Self.decode(overlay["gone"] as? [Int] ?? []) { found[Double(gone)] = nil }
        let at = Self.decode(overlay["at"] as? [Int] ?? [])
        func add(_ number: Int, _ matchClass: Int) {
            let key = Self.overlayKey(number, at: at)
            found[key] = min(found[key] ?? 9, matchClass)
        }
        let buckets = overlay["tokens"] as? [[Any]] ?? []
        for variant in term.variants {
            guard let first = variant.unicodeScalars.first else { continue }
            for (index, bucket) in buckets.enumerated() where bucket[0] as? String == String(Character(first)) {
                for pair in try Self.payload(fetch("search/ot/\(index).js")) as? [[Any]] ?? [] {
                    guard let token = pair[0] as? String, token.hasPrefix(variant), let lists = pair[1] as? [[Int]]
                    else { continue }
                    for (matchClass, list) in lists.enumerated() {
                        for number in Self.decode(list) { add(number, matchClass) }
                    }
                }
            }
        }
        if let digits = term.digits, (overlay["digits"] as? Int ?? 0) > 0 {
            var number = 0
            for entry in try Self.payload(fetch("search/od/0.js")) as? [[Any]] ?? [] {
                number += entry[0] as? Int ?? 0
                if (entry[1] as? String ?? "").contains(digits) { add(number, 1) }
            }
        }
    }

    /// Ranked result keys (base positions; overlay people between them) and the files fetched.
    private func rankedKeys(_ query: String, shown: Int) throws -> (keys: [Double]?, fetched: [String]) {
        var fetched = ["search/manifest.js"] + (overlay == nil ? [] : ["search/o/0.js"])
        var maps: [[Double: Int]] = []
        for term in Self.terms(query) {
            var found: [Double: Int] = [:]
            var tooBroad = false
            for variant in term.variants {
                guard let leaves = leaves(for: variant) else {
                    if term.digits == nil { tooBroad = true }
                    continue
                }
                for leaf in leaves {
                    let path = "search/t/\(leaf).js"
                    if !fetched.contains(path) { fetched.append(path) }
                    let shard = try Self.payload(files[path] ?? "") as? [[Any]] ?? []
                    for pair in shard {
                        guard let token = pair[0] as? String, token.hasPrefix(variant),
                            let lists = pair[1] as? [[Int]]
                        else { continue }
                        for (matchClass, list) in lists.enumerated() {
                            var position = 0
                            for delta in list {
                                position += delta
                                found[Double(position)] = min(found[Double(position)] ?? 9, matchClass)
                            }
                        }
                    }
                }
            }
            if let digits = term.digits {
                let sizes = manifest["digits"] as? [String: Int] ?? [:]
                var best: (String, Int)?
                var missing = false
                for start in 0...(digits.count - 3) {
                    let trigram = String(Array(digits)[start..<(start + 3)])
                    guard let size = sizes[trigram] else {
                        missing = true
                        break
                    }
                    if best == nil || size < best?.1 ?? 0 { best = (trigram, size) }
                }
                if !missing, let best {
                    if best.1 > 160 * 1024 {
                        tooBroad = true
                    } else {
                        let path = "search/d/\(best.0).js"
                        fetched.append(path)
                        var position = 0
                        for entry in try Self.payload(files[path] ?? "") as? [[Any]] ?? [] {
                            position += entry[0] as? Int ?? 0
                            if (entry[1] as? String ?? "").contains(digits) {
                                found[Double(position)] = min(found[Double(position)] ?? 9, 1)
                            }
                        }
                    }
                }
            }
            if tooBroad && found.isEmpty { return (nil, fetched) }
            try mergeOverlay(term, into: &found, fetched: &fetched)
            maps.append(found)
        }
        guard let first = maps.first else { return ([], fetched) }
        var scored: [(Int, Double)] = []
        for (position, matchClass) in first {
            var score = matchClass
            var all = true
            for other in maps.dropFirst() {
                guard let value = other[position] else {
                    all = false
                    break
                }
                score += value
            }
            if all { scored.append((score, position)) }
        }
        scored.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        let positions = scored.map(\.1)
        let chunk = manifest["chunk"] as? Int ?? 32
        let at = Self.decode(overlay?["at"] as? [Int] ?? [])
        let overlayChunk = overlay?["chunk"] as? Int ?? 32
        for position in positions.prefix(shown) {
            let path =
                position == position.rounded()
                ? "search/r/\(Int(position) / chunk).js"
                : "search/or/\((at.indices.first { Self.overlayKey($0, at: at) == position } ?? 0) / overlayChunk).js"
            if !fetched.contains(path) { fetched.append(path) }
        }
        return (positions, fetched)
    }

    /// The display record of a position (`[name, job, department, phone, phoneHref, mail, slug]`).
    func record(_ position: Int) throws -> [String] {
        let chunk = manifest["chunk"] as? Int ?? 32
        let records = try Self.payload(files["search/r/\(position / chunk).js"] ?? "") as? [[String]] ?? []
        return records[position % chunk]
    }

    private func leaves(for word: String) -> [Int]? {
        let leaves = manifest["leaves"] as? [[Any]] ?? []
        var best: Int?
        for (index, leaf) in leaves.enumerated() {
            let key = leaf[0] as? String ?? ""
            if (leaf[1] as? Int) == 0, word.hasPrefix(key),
                best.map({ (leaves[$0][0] as? String ?? "").count < key.count }) ?? true
            {
                best = index
            }
        }
        if let best { return [best] }
        var below: [Int] = []
        var size = 0
        for (index, leaf) in leaves.enumerated() where (leaf[0] as? String ?? "").hasPrefix(word) {
            below.append(index)
            size += leaf[2] as? Int ?? 0
        }
        return size > 96 * 1024 ? nil : below
    }

    /// Query terms as search.js parses them: digit runs (3+ digits, starting a word) and folded words in both
    /// variants.
    static func terms(_ query: String) -> [(digits: String?, variants: [String])] {
        var terms: [(digits: String?, variants: [String])] = []
        var rest = ""
        var run = ""
        var previous: Character = " "
        func flushRun() {
            let digits = run.filter(\.isASCIIDigit)
            if digits.count >= 3 { terms.append((digits, [digits])) } else { rest += run }
            run = ""
        }
        var characters = Array(query)[...]
        while let character = characters.popFirst() {
            defer { previous = character }
            if run.isEmpty {
                let wordStart = !(previous.isLetter || previous.isNumber)
                let opensRun =
                    character.isASCIIDigit
                    || ((character == "+" || character == "(")
                        && (characters.first.map { $0.isASCIIDigit || $0 == "(" } ?? false))
                if wordStart && opensRun { run.append(character) } else { rest.append(character) }
            } else if character.isASCIIDigit || " ().-/".contains(character) {
                run.append(character)
            } else {
                flushRun()
                rest.append(character)
            }
        }
        if !run.isEmpty { flushRun() }
        for word in SearchFolding.queryWords(rest) {
            terms.append((nil, word.base == word.expanded ? [word.base] : [word.base, word.expanded]))
        }
        return terms
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
