import Foundation
import Testing

@testable import OrgDirectory

/// A nightly run takes unchanged people's search tokens from the run before: the index it makes must be the one a
/// run tokenizing everyone makes, and a cache that does not fit must never be used.
@Suite("Search token cache")
struct SearchTokenCacheTests {
    static let context = SearchTokenCache.context(hiding: [])

    /// Night one's people, and night two's: three with a new title, two gone, one new.
    static func nights() -> (first: [User], second: [User]) {
        let first = SiteBenchmarkDirectory.users(count: 3_000)
        var second = first
        for index in [5, 500, 2_500] { second[index].jobTitle = "Chief Kite Flyer \(index)" }
        second.remove(at: 2_000)
        second.remove(at: 1_000)
        second.append(
            User(
                id: "zz-new", userPrincipalName: "new@contoso.com", displayName: "Quetzalli Newcomb", surname: "Newcomb"
            ))
        return (first, second)
    }

    static func tokens(
        _ users: [User], reusing cache: SearchTokenCache?
    ) -> (postings: [String: [[Int]]], cache: SearchTokenCache?, tokenized: Int) {
        var builder = SearchIndexBuilder()
        builder.tokenCache = cache
        builder.keepsTokenCache = true
        let made = builder.numberedPostings(SiteDirectory(users: users, hiding: []))
        return (made.postings.byToken, made.cache, made.tokenized)
    }

    @Test("packed tokens are a person's tokens with their best class, and an address's own part is never cached")
    func packedTokensMatchTokens() {
        var table = SearchTokenTable()
        var cache: [String: [UInt32]] = [:]
        var packed: [UInt32] = []
        var numbered = 0
        var cachedValues: Set<String> = []
        for user in SiteBenchmarkDirectory.users(count: 200) + SiteFixtures.all {
            SearchIndexBuilder.packTokens(of: user, cache: &cache, into: &packed) { tokens in
                numbered += tokens.count
                return tokens.map { table.number($0) }
            }
            let unpacked = packed.map { entry in
                let (number, matchClass) = SearchTokenTable.unpack(entry)
                return "\(table.strings[number]) \(matchClass)"
            }
            let expected = SearchIndexBuilder.tokens(of: user).map { "\($0.0) \($0.1.rawValue)" }
            #expect(unpacked.sorted() == expected.sorted(), "\(user.displayName)")
            // Unless the same text is also one of the cached values (a name word, a title...) of anyone so far.
            cachedValues.formUnion(
                user.displayName.split(separator: " ").map(String.init)
                    + [user.displayName, user.givenName, user.surname, user.jobTitle, user.department]
                    .compactMap { $0 } + [user.officeLocation, user.companyName].compactMap { $0 })
            for address in [user.mail, user.userPrincipalName] {
                guard let address, address.contains("@"), let local = address.split(separator: "@").first,
                    !cachedValues.contains(String(local))
                else { continue }
                #expect(cache[String(local)] == nil, "\(local) cached")
            }
            if let department = user.department, !department.isEmpty {
                #expect(cache[department] != nil, "\(department) not cached")
            }
        }
        #expect(numbered > table.count, "uncached local parts are numbered again, each time in the same table")
    }

    @Test("only changed and new people are tokenized, and the postings equal those of tokenizing everyone")
    func reusesUnchanged() throws {
        let (first, second) = Self.nights()
        let night1 = Self.tokens(first, reusing: nil)
        #expect(night1.tokenized == first.count)
        let stored = try #require(night1.cache)
        let read = try #require(decoded(stored.encode(context: Self.context), context: Self.context))
        #expect(read == stored)
        let night2 = Self.tokens(second, reusing: read)
        #expect(night2.tokenized == 4)
        #expect(night2.postings == SearchIndexBuilder().tokenPostings(SiteDirectory(users: second, hiding: [])))
        let next = try #require(night2.cache)
        #expect(next.entries.count == second.count)
        // Few tokens are nobody's now: the table is kept as it was, numbers and all, with the new tokens after.
        #expect(Array(next.table.strings.prefix(read.table.count)) == read.table.strings)
        let used = Set(next.entries.flatMap { $0.tokens.map { SearchTokenTable.unpack($0).number } })
        #expect(used.count < next.table.count)
        #expect(Set(used.map { next.table.strings[$0] }) == Set(night2.postings.keys))
        for (index, id) in next.ids.enumerated() {
            guard let before = read.ids.firstIndex(of: id), read.entries[before].key == next.entries[index].key
            else { continue }
            #expect(next.entries[index].tokens == read.entries[before].tokens, "\(id)'s numbers kept")
        }
    }

    @Test("a table whose tokens are more than a quarter nobody's is compacted: every token kept is someone's")
    func compactsDeadTokens() throws {
        let (first, _) = Self.nights()
        let stored = try #require(Self.tokens(first, reusing: nil).cache)
        let remaining = Array(first.prefix(first.count / 2))
        let night = Self.tokens(remaining, reusing: stored)
        #expect(night.tokenized == 0)
        #expect(night.postings == SearchIndexBuilder().tokenPostings(SiteDirectory(users: remaining, hiding: [])))
        let next = try #require(night.cache)
        let used = Set(next.entries.flatMap { $0.tokens.map { SearchTokenTable.unpack($0).number } })
        #expect(used.count == next.table.count)
        #expect(next.table.count < stored.table.count)
        #expect(Set(next.table.strings) == Set(night.postings.keys))
        let again = Self.tokens(remaining, reusing: next)
        #expect(again.tokenized == 0)
        #expect(again.postings == night.postings)
    }

    @Test("a cached entry whose record digest differs is tokenized again, not used")
    func staleEntryIgnored() throws {
        let (first, _) = Self.nights()
        let stored = try #require(Self.tokens(first, reusing: nil).cache)
        var changed = first
        changed[42].department = "Kites"
        changed[43].mail = nil
        let night = Self.tokens(changed, reusing: stored)
        #expect(night.tokenized == 2)
        #expect(night.postings == SearchIndexBuilder().tokenPostings(SiteDirectory(users: changed, hiding: [])))
    }

    @Test("found by export row, an entry is used only for the record it was made of: a shifted cache tokenizes again")
    func entriesByRowCheckTheRecord() throws {
        let (first, _) = Self.nights()
        let stored = try #require(Self.tokens(first, reusing: nil).cache)
        #expect(stored.entry(at: 3) == stored.entries[3])
        #expect(stored.entry(at: stored.ids.count) == nil, "past the end")
        // Rows matched against a table of the same people, while the cache lost its first person: every row points
        // one entry off, and nobody takes a neighbour's tokens.
        let directory = SiteDirectory(users: first, hiding: [])
        let table = try #require(
            try SiteExports.write(
                [.csv], of: directory, hidden: [], keepingTable: true, previous: nil, published: { _ in nil }
            ) { _, produce in try produce { _ in } })
        let shifted = SearchTokenCache(
            table: stored.table, ids: Array(stored.ids.dropFirst()), entries: Array(stored.entries.dropFirst()),
            indexed: false)
        var builder = SearchIndexBuilder()
        builder.tokenCache = shifted
        builder.rowMatch = RowMatch.make(directory, previous: table.table, hiding: [], parallel: false)
        let night = builder.numberedPostings(directory)
        #expect(night.tokenized == first.count)
        #expect(night.postings.byToken == SearchIndexBuilder().tokenPostings(directory))
    }

    @Test("a cache made in another context, cut short or damaged is not read")
    func refusesWhatDoesNotFit() throws {
        let stored = try #require(Self.tokens(Array(Self.nights().first.prefix(200)), reusing: nil).cache)
        let bytes = stored.encode(context: Self.context)
        #expect(decoded(bytes, context: Self.context) == stored)
        #expect(decoded(bytes, context: SearchTokenCache.context(hiding: ["mail"])) == nil)
        for cut in [0, 10, bytes.count / 2, bytes.count - 1] {
            #expect(decoded(Array(bytes.prefix(cut)), context: Self.context) == nil)
        }
        #expect(decoded(bytes + [0], context: Self.context) == nil)
        // A person's token pointing past the table.
        var damaged = bytes
        damaged.replaceSubrange((damaged.count - 4)..., with: [0xFF, 0xFF, 0xFF, 0x0F])
        #expect(decoded(damaged, context: Self.context) == nil)
    }

    /// Night one of `nights()` rendered into `root/one`, keeping its tokens: the renderer, the stamp, night two's people
    /// and the tokens night one kept.
    static func firstNight(in root: URL) async throws -> (
        renderer: SiteRenderer, when: Date, second: [User], cache: SearchTokenCache
    ) {
        let (first, second) = nights()
        let renderer = try SiteRenderer(options: SiteOptions())
        let when = Date(timeIntervalSince1970: 1_763_000_000)
        let night1 = try await renderer.render(
            first, generatedAt: when, keepingSearchTokens: true,
            to: DirectorySiteOutput(root: root.appendingPathComponent("one")))
        return (renderer, when, second, try #require(night1.searchTokens))
    }

    @Test(
        "a render reusing the run before's tokens, handed over or loaded during the render, writes the same search files as one tokenizing everyone"
    )
    func renderWithCacheEqualsWithout() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("token-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let (renderer, when, second, cache) = try await Self.firstNight(in: root)
        var folders: [URL] = []
        for (name, reused) in [("cached", cache), ("fresh", nil)] as [(String, SearchTokenCache?)] {
            let folder = root.appendingPathComponent(name)
            let report = try await renderer.render(
                second, generatedAt: when, searchTokens: reused.map { .given($0) }, keepingSearchTokens: true,
                to: DirectorySiteOutput(root: folder))
            #expect(report.peopleTokenized == (reused == nil ? second.count : 4))
            folders.append(folder.appendingPathComponent("search"))
        }
        // As a run hands them over: read from the state folder while the directory is made (keys first, the whole
        // cache when the render numbers tokens).
        let store = SearchTokenCacheStore(stateDirectory: root.appendingPathComponent("state"))
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("state"), withIntermediateDirectories: true)
        try store.save(cache, context: Self.context)
        let loadedFolder = root.appendingPathComponent("loaded")
        let loaded = try await renderer.render(
            second, generatedAt: when, searchTokens: .loading { store.load(context: Self.context) },
            keepingSearchTokens: true,
            to: DirectorySiteOutput(root: loadedFolder))
        #expect(loaded.peopleTokenized == 4)
        folders.append(loadedFolder.appendingPathComponent("search"))
        let cached = try SiteRenderReuseTests.Nightly.files(in: folders[0])
        #expect(cached.count > 10)
        #expect(cached == (try SiteRenderReuseTests.Nightly.files(in: folders[1])))
        #expect(cached == (try SiteRenderReuseTests.Nightly.files(in: folders[2])))
    }

    @Test("a kept token file whose entries are damaged where only the whole decode looks costs the render time only")
    func renderOverDamagedEntries() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("token-damage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let (renderer, when, second, cache) = try await Self.firstNight(in: root)
        // A token twice in the table: the keys still read, the whole cache does not.
        let bytes = StoredSearchTokensTests.tokenTwice(cache.encode(context: Self.context), of: cache)
        let state = root.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let store = SearchTokenCacheStore(stateDirectory: state)
        try Data(bytes).write(to: store.file)
        let stored = try #require(store.load(context: Self.context))
        #expect(stored.whole() == nil)
        var folders: [URL] = []
        for (name, source) in [
            ("damaged", SearchTokenSource.loading { store.load(context: Self.context) }), ("fresh", nil),
        ] {
            let folder = root.appendingPathComponent(name)
            let report = try await renderer.render(
                second, generatedAt: when, searchTokens: source, keepingSearchTokens: true,
                to: DirectorySiteOutput(root: folder))
            #expect(report.peopleTokenized == second.count, "everyone tokenized (\(name))")
            folders.append(folder.appendingPathComponent("search"))
        }
        #expect(
            try SiteRenderReuseTests.Nightly.files(in: folders[0])
                == (try SiteRenderReuseTests.Nightly.files(in: folders[1])))
    }
}

@Suite("Search token cache store")
struct SearchTokenCacheStoreTests {
    @Test("the state folder's cache reads back only in the context it was saved in; a failed save leaves none")
    func storeRoundTripAndFailure() throws {
        let state = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let store = SearchTokenCacheStore(stateDirectory: state)
        let context = SearchTokenCacheTests.context
        #expect(store.load(context: context) == nil, "no file: no cache")
        var builder = SearchIndexBuilder()
        builder.keepsTokenCache = true
        let users = Array(SearchTokenCacheTests.nights().first.prefix(50))
        let cache = try #require(builder.numberedPostings(SiteDirectory(users: users, hiding: [])).cache)
        try store.save(cache, context: context)
        #expect(store.load(context: context)?.whole() == cache)
        #expect(store.load(context: SearchTokenCache.context(hiding: ["jobTitle"])) == nil)
        // A save that cannot replace the file (here a folder holding something sits at its name) throws and
        // leaves no cache behind, so the next run tokenizes everyone rather than trusting an old file.
        try FileManager.default.removeItem(at: store.file)
        try FileManager.default.createDirectory(at: store.file, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: store.file.appendingPathComponent("in-the-way"))
        #expect(throws: (any Error).self) { try store.save(cache, context: context) }
        #expect(!FileManager.default.fileExists(atPath: store.file.path))
        #expect(store.load(context: context) == nil)
    }

    @Test("an overlay night's base rows read back whole or not at all, and go when the tokens are saved or cleared")
    func baseRowsRoundTrip() throws {
        let state = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let store = SearchTokenCacheStore(stateDirectory: state)
        #expect(store.baseRows() == nil, "no overlay night before")
        let rows = SearchBaseRows(base: RenderFingerprint(high: 7, low: 9), numbers: [0, 2, SearchBaseRows.overlay, 3])
        store.keepForOverlay(rows)
        #expect(store.baseRows() == rows)
        // Cut short: nil, so the next run takes rows as base numbers and checks every entry's key (then looks by id).
        let file = state.appendingPathComponent("search-overlay.bin")
        let bytes = try Data(contentsOf: file)
        try bytes.dropLast(2).write(to: file)
        #expect(store.baseRows() == nil)
        store.keepForOverlay(rows)
        let users = Array(SearchTokenCacheTests.nights().first.prefix(20))
        var builder = SearchIndexBuilder()
        builder.keepsTokenCache = true
        let cache = try #require(builder.numberedPostings(SiteDirectory(users: users, hiding: [])).cache)
        try store.save(cache, context: SearchTokenCacheTests.context)
        #expect(store.baseRows() == nil, "a run that saved its tokens wrote no overlay")
        store.keepForOverlay(rows)
        store.clear()
        #expect(store.baseRows() == nil)
    }
}

/// `SearchTokenCache.decode` of bytes held in an array (a run decodes the mapped file).
private func decoded(_ bytes: [UInt8], context: RenderFingerprint) -> SearchTokenCache? {
    bytes.withUnsafeBytes { SearchTokenCache.decode($0, context: context) }
}
