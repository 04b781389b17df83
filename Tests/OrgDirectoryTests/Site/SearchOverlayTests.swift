import Foundation
import Testing

@testable import OrgDirectory

@Suite("Search overlay")
struct SearchOverlayTests {
    /// Nights rendered and published as a build does them, the search tokens kept between them through their file
    /// format, and kept as they are after a night that wrote an overlay (as `SearchTokenCacheStore` does).
    struct Nights {
        let root: URL
        let publisher: SitePublisher
        /// Whether each night updates the site before last (the spare) in place, as a nightly build does.
        let recycling: Bool
        var tokens: SearchTokenCache?
        var baseRows: SearchBaseRows?
        var table: ExportRows?
        var published: RenderFingerprints?
        var spare: RenderFingerprints?

        init(recycling: Bool = false) throws {
            root = try SiteFixtures.temporaryFolder()
            publisher = SitePublisher(output: root.appendingPathComponent("Output"))
            self.recycling = recycling
        }

        mutating func render(_ users: [User]) async throws -> SiteReport {
            let staging = try publisher.makeStaging(recyclingSpare: recycling && spare != nil)
            let context = SearchTokenCache.context(hiding: [])
            let report = try await SiteRenderer(options: SiteOptions()).render(
                users, generatedAt: SiteRenderReuseTests.generatedAt, history: SiteFixtures.history,
                fingerprintsFor: publisher.output.path, reusing: published,
                inPlace: staging.isRecycled ? spare : nil,
                searchTokens: tokens.flatMap {
                    $0.encode(context: context).withUnsafeBytes { SearchTokenCache.decode($0, context: context) }
                }.map { .given($0) },
                keepingSearchTokens: true, searchBaseRows: baseRows, exportRows: table,
                keepingExportRows: true, to: staging)
            let kept = try publisher.publish(
                staging, generatedAt: SiteRenderReuseTests.generatedAt, keepingSpare: recycling && published != nil)
            (spare, published) = (kept ? published : nil, report.fingerprints)
            table = report.exportRows
            if report.searchOverlay {
                baseRows = report.searchBaseRows
            } else {
                (tokens, baseRows) = (report.searchTokens, nil)
            }
            return report
        }

        /// A site rendered from scratch of `users` (no kept state, so no base and no overlay).
        func scratch(_ users: [User]) async throws -> URL {
            let fresh = root.appendingPathComponent("fresh-\(UUID().uuidString)")
            _ = try await SiteRenderer(options: SiteOptions()).render(
                users, generatedAt: SiteRenderReuseTests.generatedAt, history: SiteFixtures.history,
                to: DirectorySiteOutput(root: fresh))
            return fresh
        }
    }

    /// Queries that reach every kind of match for `users`: each given name, surname, department word, title, office
    /// and phone fragment, and two-word queries that must match both words.
    static func queries(for users: [User]) -> [String] {
        var queries: Set<String> = []
        for user in users {
            if let given = user.givenName { queries.insert(given) }
            if let surname = user.surname { queries.insert(String(surname.prefix(3))) }
            if let department = user.department { queries.insert(department) }
            if let title = user.jobTitle { queries.insert(title) }
            if let phone = user.businessPhones.first { queries.insert(String(phone.filter(\.isNumber).suffix(4))) }
            queries.insert(user.displayName)
            if let given = user.givenName, let department = user.department {
                queries.insert(given + " " + department)
            }
        }
        return queries.sorted()
    }

    /// Whether searching the site in `published` gives, for every query, the same people in the same order as
    /// searching `scratch`; records the first query that differs.
    static func searchesAgree(_ published: URL, _ scratch: URL, queries: [String]) throws -> Bool {
        let left = try SiteSearchSimulator(folder: published)
        let right = try SiteSearchSimulator(folder: scratch)
        for query in queries {
            let mine = try left.rankedRecords(query)
            let theirs = try right.rankedRecords(query)
            guard mine == theirs else {
                Issue.record(
                    "\(query): \(String(describing: mine?.map(\.[0]))) ≠ \(String(describing: theirs?.map(\.[0])))")
                return false
            }
        }
        return true
    }

    /// The users of a first night, and of a second with a few people renamed (moving in display order), retitled,
    /// given another phone, gone, and new.
    static func nights(count: Int = 400) -> (first: [User], second: [User], third: [User]) {
        let first = SiteBenchmarkDirectory.users(count: count)
        var second = first
        second[5].displayName = "Aaron Aardvark"
        second[5].givenName = "Aaron"
        second[7].jobTitle = "Chief Kite Flyer"
        second[9].businessPhones = ["+49 30 5550 4242"]
        second.remove(at: 20)
        second.append(
            User(
                id: "zz-new", userPrincipalName: "quetzalli@contoso.com", displayName: "Quetzalli Newcomb",
                givenName: "Quetzalli", surname: "Newcomb", businessPhones: ["+1 425 555 7777"], department: "Finance"))
        var third = second
        third[5].displayName = "Zygmunt Zed"
        third[5].givenName = "Zygmunt"
        third[40].department = "Kite Research"
        third.removeAll { $0.id == "zz-new" }
        return (first, second, third)
    }

    @Test(
        "a night with few changes writes only an overlay, and every search finds what a search built from scratch finds"
    )
    func overlayNightsSearchLikeScratch() async throws {
        var nights = try Nights()
        defer { try? FileManager.default.removeItem(at: nights.root) }
        let (first, second, third) = Self.nights()
        let base = try await nights.render(first)
        #expect(!base.searchOverlay)
        let baseID = try #require(base.searchTokens?.base?.id)
        let manifest = nights.publisher.output.appendingPathComponent("search/manifest.js")
        #expect(PublishedSearchBase(publishedIn: nights.publisher.output.path)?.id == baseID)
        let manifestInode = try FileManager.default.attributesOfItem(atPath: manifest.path)[.systemFileNumber] as? Int

        for (night, users) in [second, third].enumerated() {
            let report = try await nights.render(users)
            #expect(report.searchOverlay, "night \(night + 2) keeps the base")
            #expect(report.searchTokens == nil)
            #expect(report.peopleTokenized < 10, "only the overlay's people are tokenized")
            // The base's files are the published ones, linked, never written again.
            let inode = try FileManager.default.attributesOfItem(atPath: manifest.path)[.systemFileNumber] as? Int
            #expect(inode == manifestInode)
            let scratch = try await nights.scratch(users)
            let queries = Self.queries(for: users) + ["Aaron", "Zygmunt", "Quetzalli", "7777", "4242", "kite"]
            #expect(try Self.searchesAgree(nights.publisher.output, scratch, queries: queries))
        }
        // The renamed person is found by the new name only, the newcomer (third night: gone) not at all.
        let site = try SiteSearchSimulator(folder: nights.publisher.output)
        #expect(try site.rankedRecords("Zygmunt Zed")?.map(\.[0]) == ["Zygmunt Zed"])
        #expect(try site.rankedRecords("Aardvark") == [])
        #expect(try site.rankedRecords("Quetzalli") == [])
    }

    /// The search files the site in `folder` should hold: its base's (named by the manifest) and its overlay's
    /// (named by `search/o/0.js`).
    static func expectedSearchFiles(in folder: URL) throws -> Set<String> {
        let base = try #require(PublishedSearchBase(publishedIn: folder.path)?.files)
        let text = try String(contentsOf: folder.appendingPathComponent("search/o/0.js"), encoding: .utf8)
        let overlay = try #require(try SiteSearchSimulator.payload(text) as? [String: Any])
        let people = (overlay["at"] as? [Int] ?? []).count
        let chunk = overlay["chunk"] as? Int ?? 32
        let tokenFiles = (overlay["tokens"] as? [Any] ?? []).indices.map { "search/ot/\($0).js" }
        let digitFiles = (overlay["digits"] as? Int ?? 0) > 0 ? ["search/od/0.js"] : []
        let recordFiles = (0..<((people + chunk - 1) / chunk)).map { "search/or/\($0).js" }
        return Set(base + ["search/o/0.js"] + tokenFiles + digitFiles + recordFiles)
    }

    /// The files under `search/` in `folder`.
    static func searchFiles(in folder: URL) -> Set<String> {
        let found = FileManager.default.enumerator(atPath: folder.appendingPathComponent("search").path)
        var files: Set<String> = []
        while let path = found?.nextObject() as? String {
            if path.hasSuffix(".js") { files.insert("search/" + path) }
        }
        return files
    }

    @Test("over the recycled spare, overlay nights and new bases leave exactly the search files they name")
    func recycledSpareHoldsNoStaleSearchFiles() async throws {
        var nights = try Nights(recycling: true)
        defer { try? FileManager.default.removeItem(at: nights.root) }
        let (first, second, third) = Self.nights()
        var fourth = third
        for index in stride(from: 0, to: fourth.count, by: 8) { fourth[index].jobTitle = "Moved \(index)" }
        var fifth = fourth
        fifth[3].department = "Kite Research"
        var sixth = fifth
        sixth[11].displayName = "Aaron Aardvark"
        var overlays: [Bool] = []
        var tokenized: [Int] = []
        var copiedRecords: [Int] = []
        for users in [first, second, third, fourth, fifth, sixth] {
            let report = try await nights.render(users)
            overlays.append(report.searchOverlay)
            tokenized.append(report.peopleTokenized)
            copiedRecords.append(report.searchRecordsFromBase)
            #expect(
                Self.searchFiles(in: nights.publisher.output)
                    == (try Self.expectedSearchFiles(in: nights.publisher.output)))
            let scratch = try await nights.scratch(users)
            #expect(try Self.searchesAgree(nights.publisher.output, scratch, queries: Self.queries(for: users)))
            if !report.searchOverlay {
                #expect(try Self.recordChunks(in: nights.publisher.output) == Self.recordChunks(in: scratch))
            }
        }
        #expect(overlays == [false, true, true, false, true, true])
        // The new base after two overlay nights takes the tokens of everyone unchanged since the old base from it,
        // and their records from the published base's files.
        #expect(tokenized[3] < 80, "\(tokenized)")
        #expect(copiedRecords[3] > 300, "\(copiedRecords)")
        #expect(copiedRecords.enumerated().allSatisfy { $0.offset == 3 || $0.element == 0 }, "\(copiedRecords)")
    }

    @Test("a published base missing a file is not built on: that night makes every search file, and so does the next")
    func brokenBaseIsReplaced() async throws {
        var nights = try Nights()
        defer { try? FileManager.default.removeItem(at: nights.root) }
        let (first, second, third) = Self.nights()
        _ = try await nights.render(first)
        try FileManager.default.removeItem(at: nights.publisher.output.appendingPathComponent("search/r/0.js"))
        #expect(try await nights.render(second).peopleTokenized == second.count, "every search file made again")
        #expect(PublishedSearchBase(publishedIn: nights.publisher.output.path)?.id == nil, "no base is named")
        #expect(
            FileManager.default.fileExists(atPath: nights.publisher.output.appendingPathComponent("search/r/0.js").path)
        )
        #expect(
            try Self.searchesAgree(
                nights.publisher.output, try await nights.scratch(second), queries: Self.queries(for: second)))
        let next = try await nights.render(third)
        #expect(!next.searchOverlay, "no published base to keep: a new one")
        #expect(PublishedSearchBase(publishedIn: nights.publisher.output.path)?.id == next.searchTokens?.base?.id)
        #expect(
            try Self.searchesAgree(
                nights.publisher.output, try await nights.scratch(third), queries: Self.queries(for: third)))
    }

    @Test("a night with more changes than an overlay holds makes a new base, which searches like one from scratch")
    func manyChangesMakeANewBase() async throws {
        var nights = try Nights()
        defer { try? FileManager.default.removeItem(at: nights.root) }
        let first = SiteBenchmarkDirectory.users(count: 200)
        let before = try #require(try await nights.render(first).searchTokens?.base)
        var second = first
        for index in stride(from: 0, to: 200, by: 10) { second[index].jobTitle = "Moved \(index)" }
        let report = try await nights.render(second)
        #expect(!report.searchOverlay)
        #expect(report.peopleTokenized == 20, "only the changed people are tokenized")
        let after = try #require(report.searchTokens?.base)
        #expect(after.id != before.id)
        let overlay = try String(
            contentsOf: nights.publisher.output.appendingPathComponent("search/o/0.js"), encoding: .utf8)
        #expect(overlay.contains("\"at\":[],\"gone\":[]"))
        #expect(
            !FileManager.default.fileExists(atPath: nights.publisher.output.appendingPathComponent("search/or").path))
        let scratch = try await nights.scratch(second)
        #expect(try Self.searchesAgree(nights.publisher.output, scratch, queries: Self.queries(for: second)))
        // The unchanged people's records are the old base's, copied, and every record chunk is the one a build from
        // scratch writes.
        #expect(report.searchRecordsFromBase == 180)
        #expect(try Self.recordChunks(in: nights.publisher.output) == Self.recordChunks(in: scratch))
    }

    /// A new-base night (a tenth of 200 people retitled) over a first night whose published record chunks `damage`
    /// changed: the night's report, its record chunks and those of a build from scratch.
    static func newBaseNight(
        afterDamaging damage: (URL) throws -> Void
    ) async throws -> (report: SiteReport, published: [String: String], scratch: [String: String]) {
        var nights = try Nights()
        defer { try? FileManager.default.removeItem(at: nights.root) }
        let first = SiteBenchmarkDirectory.users(count: 200)
        _ = try await nights.render(first)
        try damage(nights.publisher.output.appendingPathComponent("search/r"))
        var second = first
        for index in stride(from: 0, to: 200, by: 10) { second[index].jobTitle = "Moved \(index)" }
        let report = try await nights.render(second)
        return (
            report, try Self.recordChunks(in: nights.publisher.output),
            try Self.recordChunks(in: try await nights.scratch(second))
        )
    }

    @Test("a new base makes the records of a published chunk that is not exactly its records, and copies the rest")
    func newBaseMakesRecordsOfADamagedChunk() async throws {
        let (report, published, scratch) = try await Self.newBaseNight { chunks in
            // Chunk 1 with a record cut short and chunk 2 with a script after its records: neither is read.
            let one = try String(contentsOf: chunks.appendingPathComponent("1.js"), encoding: .utf8)
            try one.replacingOccurrences(of: "\"],[\"", with: "\"]],[\"").write(
                to: chunks.appendingPathComponent("1.js"), atomically: true, encoding: .utf8)
            let two = try String(contentsOf: chunks.appendingPathComponent("2.js"), encoding: .utf8)
            try two.replacingOccurrences(of: "]);\n", with: "]);alert(1);\n").write(
                to: chunks.appendingPathComponent("2.js"), atomically: true, encoding: .utf8)
        }
        #expect(!report.searchOverlay)
        // Chunks 1 and 2 hold 64 base people, all but the changed few of them located.
        #expect(report.searchRecordsFromBase > 60 && report.searchRecordsFromBase < 180 - 40)
        #expect(published == scratch)
        #expect(published["1.js"]?.contains("alert") == false && published["2.js"]?.contains("alert") == false)
    }

    @Test("a new base makes the records of a chunk missing from the published base, and copies the rest")
    func newBaseMakesRecordsOfAMissingChunk() async throws {
        let (report, published, scratch) = try await Self.newBaseNight { chunks in
            try FileManager.default.removeItem(at: chunks.appendingPathComponent("3.js"))
        }
        #expect(!report.searchOverlay)
        // Chunk 3 holds 32 base people, all but the changed few of them located.
        #expect(report.searchRecordsFromBase > 100 && report.searchRecordsFromBase < 180 - 20)
        #expect(published == scratch)
    }

    @Test("a record chunk is read as exactly its records, each an array of seven JSON strings, or not at all")
    func recordChunkParsing() throws {
        let directory = SiteDirectory(users: SiteBenchmarkDirectory.users(count: 40), hiding: [])
        var file: [UInt8] = []
        let chunk = SearchIndexBuilder().recordChunk(1, 32..<40, into: &file) { index, file in
            SearchIndexBuilder.appendRecord(directory.people[index], to: &file)
        }
        func records(_ text: [UInt8], chunk: Int = 1, expected: Int = 8) -> [String]? {
            text.withUnsafeBytes { bytes in
                SearchBaseRecords.records(in: bytes, chunk: chunk, expected: expected)?.map {
                    String(decoding: text[$0], as: UTF8.self)
                }
            }
        }
        let made = (32..<40).map { index in
            var record: [UInt8] = []
            SearchIndexBuilder.appendRecord(directory.people[index], to: &record)
            return String(decoding: record, as: UTF8.self)
        }
        #expect(records(chunk.bytes) == made)
        #expect(records(chunk.bytes, chunk: 2) == nil, "another chunk's file")
        #expect(records(chunk.bytes, expected: 9) == nil, "a record missing")
        let text = chunk.text
        let escapedText = #"orgdirShard("r","0",[["Zo\u00eb \"Z\" \\ Ng","","","","","z@contoso.com","zoe-ng-1a2b"]]);"#
        let escaped = Array(escapedText.utf8) + [0x0A]
        #expect(records(escaped, chunk: 0, expected: 1)?.count == 1)
        for broken in [
            text.replacingOccurrences(of: "]);\n", with: "]);alert(1);\n"),
            text.replacingOccurrences(of: "\",\"", with: "\",1,\"", options: [], range: text.range(of: "\",\"")),
            text.replacingOccurrences(of: "[[", with: "[[\"\",", options: [], range: text.range(of: "[[")),
            text.replacingOccurrences(of: "\"]]", with: "\\q\"]]"),
            text.replacingOccurrences(of: "\"]]", with: "\\u12\"]]"),
            text.replacingOccurrences(of: "\"]]", with: "\t\"]]"),
            String(text.dropLast()),
        ] {
            #expect(records(Array(broken.utf8)) == nil, "\(broken.suffix(60))")
        }
    }

    /// Every record chunk's text in `folder`'s `search/r/`, by file name.
    static func recordChunks(in folder: URL) throws -> [String: String] {
        let chunks = folder.appendingPathComponent("search/r")
        var texts: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: chunks.path) {
            texts[name] = try String(contentsOf: chunks.appendingPathComponent(name), encoding: .utf8)
        }
        return texts
    }

    /// The directory of `users` and the search tokens a build keeps for it, naming the base they make.
    static func base(of users: [User]) throws -> (directory: SiteDirectory, cache: SearchTokenCache) {
        let directory = SiteDirectory(users: users, hiding: [])
        var builder = SearchIndexBuilder()
        builder.keepsTokenCache = true
        let cache = try #require(builder.tokenShards(for: directory) { _ in }.cache)
        let base = SearchBase(keys: cache.entries.map { $0.key }, lengthened: directory.lengthenedSlugs)
        return (directory, cache.with(base: base))
    }

    @Test("no overlay over a base that is not the published one, or when the base's order no longer holds")
    func planRefusesAnotherBase() throws {
        let (directory, kept) = try Self.base(of: SiteBenchmarkDirectory.users(count: 100))
        let base = try #require(kept.base)
        let cache = kept.with(base: nil)
        #expect(SearchOverlayPlan.make(directory: directory, cache: kept, publishedBase: base.id)?.people == [])
        #expect(SearchOverlayPlan.make(directory: directory, cache: kept, publishedBase: nil) == nil)
        #expect(SearchOverlayPlan.make(directory: directory, cache: cache, publishedBase: base.id) == nil)
        // Entries in another order than the base's display order: the merged ranking could not hold.
        let shuffled = SearchTokenCache(
            table: kept.table, ids: kept.ids.reversed(), entries: kept.entries.reversed(), indexed: false, base: base)
        #expect(SearchOverlayPlan.make(directory: directory, cache: shuffled, publishedBase: base.id) == nil)
    }

    @Test("an overlay person is ranked between the base people around them; gone base numbers are listed")
    func planPlacesOverlayPeople() throws {
        let users = SiteBenchmarkDirectory.users(count: 100)
        let (directory, cache) = try Self.base(of: users)
        let base = try #require(cache.base)
        var changed = users
        let moved = try #require(changed.firstIndex { $0.id == directory.people[50].user.id })
        changed[moved].displayName = "Aaa Aaa"
        changed[moved].givenName = "Aaa"
        changed[moved].surname = "Aaa"
        let left = directory.people[70].user.id
        changed.removeAll { $0.id == left }
        let after = SiteDirectory(users: changed, hiding: [])
        let plan = try #require(
            SearchOverlayPlan.make(directory: after, cache: cache, publishedBase: base.id))
        #expect(plan.gone == [50, 70])
        #expect(plan.people == [0])
        #expect(plan.insertion == [0])
        #expect(after.people[0].user.displayName == "Aaa Aaa")
    }

    @Test("at 100,000 people with an overlay of 5 % a first search still downloads no more than 200 KB compressed")
    func overlayDownloadBudget() throws {
        let users = SiteBenchmarkDirectory.users(count: 100_000)
        let (directory, cache) = try Self.base(of: users)
        let base = try #require(cache.base)
        var files: [String: String] = [:]
        var builder = SearchIndexBuilder()
        builder.keepsTokenCache = true
        let leaves = builder.tokenShards(for: directory) { files[$0.path] = $0.text }.leaves
        let digits = builder.phoneShards(directory) { files[$0.path] = $0.text }
        builder.recordChunks(for: directory) { files[$0.path] = $0.text }
        let manifest = builder.manifest(people: users.count, leaves: leaves, digits: digits, base: base)
        files[manifest.path] = manifest.text
        var changed = users
        for index in stride(from: 0, to: changed.count, by: 21) { changed[index].jobTitle = "Moved \(index)" }
        let after = SiteDirectory(users: changed, hiding: [])
        let plan = try #require(SearchOverlayPlan.make(directory: after, cache: cache, publishedBase: base.id))
        #expect(plan.people.count > 4_500)
        builder.overlayFiles(plan, base: base, directory: after) { files[$0.path] = $0.text }
        let simulator = try SiteSearchSimulator(files: files)
        for query in ["jurgen", "müller", "0134", "Петров", "engineering", "moved", "a"] {
            let (positions, fetched) = try simulator.search(query)
            let bytes = try fetched.reduce(0) { $0 + (try Gzip.size(of: files[$1] ?? "")) }
            #expect(bytes <= 200 * 1024, "\(query): \(bytes) bytes over \(fetched.count) files")
            if query != "a" { #expect((positions?.count ?? 0) > 0, "\(query) finds someone") }
        }
    }

    @Test("a token cache keeps its base through its file")
    func baseRoundTrips() throws {
        let cache = try Self.base(of: SiteBenchmarkDirectory.users(count: 30)).cache
        let base = SearchBase(id: RenderFingerprint(high: 1, low: 2), irregularSlugs: [3, 7])
        let context = SearchTokenCache.context(hiding: [])
        let decoded = cache.with(base: base).encode(context: context).withUnsafeBytes {
            SearchTokenCache.decode($0, context: context)
        }
        #expect(decoded?.base == base)
        #expect(decoded == cache.with(base: base))
    }

    @Test("people whose slugs were lengthened by a collision are never taken from the base: their slugs may move")
    func lengthenedSlugsGoToTheOverlay() throws {
        // Two ids whose six-digit hashes are the same: the same name gives them the same ordinary slug.
        var seen: [String: String] = [:]
        var pair: (String, String)?
        for number in 0..<200_000 where pair == nil {
            let id = "collide-\(number)"
            let hash = Slug.idHash(id, length: Slug.hashLength)
            if let other = seen[hash] { pair = (other, id) } else { seen[hash] = id }
        }
        let (first, second) = try #require(pair)
        let twins = [first, second].map {
            User(id: $0, userPrincipalName: "\($0)@contoso.com", displayName: "Alex Twin", surname: "Twin")
        }
        let (directory, cache) = try Self.base(of: SiteBenchmarkDirectory.users(count: 60) + twins)
        #expect(directory.lengthenedSlugs.count == 2)
        #expect(directory.people.indices.filter(directory.hasLengthenedSlug(at:)) == directory.lengthenedSlugs)
        let base = try #require(cache.base)
        #expect(base.irregularSlugs.map(Int.init) == directory.lengthenedSlugs)
        let plan = try #require(SearchOverlayPlan.make(directory: directory, cache: cache, publishedBase: base.id))
        #expect(plan.people == directory.lengthenedSlugs, "unchanged, but in the overlay")
        #expect(plan.gone == directory.lengthenedSlugs)
    }

    @Test("a new base is expected when last night's overlay and tonight's changes come near the share an overlay holds")
    func likelyNewBaseFromLastOverlayAndTonight() {
        let overlay = SearchBaseRows.overlay
        // 1,000 people: an overlay holds 50; from 41 on (above 80 % of that) the whole cache is read early.
        #expect(!SearchOverlayPlan.likelyNewBase(previousRows: nil, changed: 10, people: 1_000))
        #expect(!SearchOverlayPlan.likelyNewBase(previousRows: nil, changed: 40, people: 1_000))
        #expect(SearchOverlayPlan.likelyNewBase(previousRows: nil, changed: 41, people: 1_000))
        let rows = { (overlaid: Int) in
            SearchBaseRows(
                base: RenderFingerprint(high: 1, low: 2),
                numbers: (0..<1_000).map { $0 < overlaid ? overlay : UInt32($0) })
        }
        #expect(!SearchOverlayPlan.likelyNewBase(previousRows: rows(30), changed: 10, people: 1_000))
        #expect(SearchOverlayPlan.likelyNewBase(previousRows: rows(30), changed: 11, people: 1_000))
        #expect(SearchOverlayPlan.likelyNewBase(previousRows: rows(60), changed: 0, people: 1_000))
        #expect(!SearchOverlayPlan.likelyNewBase(previousRows: nil, changed: 0, people: 0), "nobody: nothing to read")
    }
}

extension SearchOverlayPlan {
    /// `locate` and `make(located:)` in one, over a published base of id `publishedBase` (no files: the plan's own
    /// tests carry nothing over).
    static func make(
        directory: SiteDirectory, cache: SearchTokenCache, publishedBase: RenderFingerprint?
    ) -> SearchOverlayPlan? {
        let stored = StoredSearchTokens(cache)
        return locate(directory: directory, cache: stored).flatMap {
            make(
                located: $0, cache: stored,
                published: publishedBase.map {
                    PublishedSearchBase(id: $0, files: [], folder: "", people: cache.ids.count, recordChunk: 32)
                })
        }
    }
}
