import Foundation
import Testing

@testable import OrgDirectory

/// A night reads the kept search tokens only as far as it needs them: the keys, the base and a few ids for an overlay,
/// the whole cache only to number tokens. What it reads must be what the whole file says, and a file that does not fit
/// must never be used.
@Suite("Stored search tokens")
struct StoredSearchTokensTests {
    /// Two hundred people's tokens as a run keeps them, made into a base of their own.
    static func cache() throws -> SearchTokenCache {
        let users = Array(SearchTokenCacheTests.nights().first.prefix(200))
        let made = try #require(SearchTokenCacheTests.tokens(users, reusing: nil).cache)
        let base = SearchBase(keys: made.entries.lazy.map(\.key), lengthened: [3, 17])
        return made.with(base: base)
    }

    /// `bytes`, the encoded `cache`, with its table's second token spelled as its first: a token twice, damage only the
    /// whole decode sees.
    static func tokenTwice(_ bytes: [UInt8], of cache: SearchTokenCache) -> [UInt8] {
        let tableStart = SearchTokenCache.magic.count + 16 + 4
        let firstLength = 4 + cache.table.strings[0].utf8.count
        let secondLength = 4 + cache.table.strings[1].utf8.count
        var twice = bytes
        twice.replaceSubrange(
            (tableStart + firstLength)..<(tableStart + firstLength + secondLength),
            with: Array(bytes[tableStart..<(tableStart + firstLength)]))
        return twice
    }

    /// `bytes` as a run reads them: from a file in the state folder, mapped.
    static func read(_ bytes: [UInt8], in folder: URL, context: RenderFingerprint = SearchTokenCacheTests.context)
        throws -> StoredSearchTokens?
    {
        let file = folder.appendingPathComponent("search-tokens-\(UUID().uuidString).bin")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return MappedFile(path: file.path).flatMap { StoredSearchTokens.read($0, context: context) }
    }

    @Test("read from the file, the keys, base and ids are the whole cache's, and the whole cache decodes equal to it")
    func readsWhatTheWholeFileSays() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try Self.cache()
        let stored = try #require(try Self.read(cache.encode(context: SearchTokenCacheTests.context), in: folder))
        #expect(stored.count == 200)
        #expect(stored.keys == cache.entries.map(\.key))
        #expect(stored.base == cache.base)
        #expect(stored.base?.irregularSlugs == [3, 17])
        #expect((0..<stored.count).map { stored.id(at: $0) } == cache.ids)
        #expect(stored.id(at: stored.count) == nil, "past the end")
        #expect(stored.id(at: -1) == nil)
        #expect(stored.whole() == cache)
        #expect(stored.whole() == cache, "asked again")
        // A cache in memory is read the same way.
        let given = StoredSearchTokens(cache)
        #expect(given.keys == stored.keys && given.base == stored.base)
        #expect((0..<given.count).map { given.id(at: $0) } == cache.ids)
        #expect(given.whole() == cache)
    }

    @Test("a file cut short, lengthened or made in another context is not read at all")
    func refusesWhatDoesNotFit() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Self.cache().encode(context: SearchTokenCacheTests.context)
        #expect(try Self.read(bytes, in: folder) != nil)
        #expect(try Self.read(bytes, in: folder, context: SearchTokenCache.context(hiding: ["mail"])) == nil)
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) + [bytes.count - 1] {
            #expect(try Self.read(Array(bytes.prefix(cut)), in: folder) == nil, "cut at \(cut) of \(bytes.count)")
        }
        #expect(try Self.read(bytes + [0], in: folder) == nil)
    }

    @Test("damage only the whole decode sees leaves the keys to an overlay night and the whole cache unused")
    func damageInsideTheEntries() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try Self.cache()
        let bytes = cache.encode(context: SearchTokenCacheTests.context)
        // The first person's first token pointing past the table: found after their id and key.
        let tableEnd = SearchTokenCache.magic.count + 16 + 4 + cache.table.strings.reduce(0) { $0 + 4 + $1.utf8.count }
        let firstToken = tableEnd + 4 + 4 + cache.ids[0].utf8.count + 16 + 4
        var damaged = bytes
        damaged.replaceSubrange(firstToken..<(firstToken + 4), with: [0xFF, 0xFF, 0xFF, 0x0F])
        let pastTheTable = try #require(try Self.read(damaged, in: folder))
        #expect(pastTheTable.keys == cache.entries.map(\.key))
        #expect(pastTheTable.whole() == nil)
        // The table's second token spelled as its first: a token twice.
        let repeated = try #require(try Self.read(Self.tokenTwice(bytes, of: cache), in: folder))
        #expect(repeated.base == cache.base)
        #expect(repeated.whole() == nil)
    }

    @Test("asked for from several tasks at once, the whole cache is decoded and handed to each the same")
    func wholeFromManyTasks() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try Self.cache()
        let stored = try #require(try Self.read(cache.encode(context: SearchTokenCacheTests.context), in: folder))
        let all = await withTaskGroup(of: SearchTokenCache?.self) { group in
            for _ in 0..<8 { group.addTask { stored.whole() } }
            return await group.reduce(into: [SearchTokenCache?]()) { $0.append($1) }
        }
        #expect(all.count == 8)
        #expect(all.allSatisfy { $0 == cache })
    }
}
