import Foundation
import Testing

@testable import OrgDirectory

/// A state cache written a piece at a time must hold exactly the bytes its encoder made, whatever the piece size, and
/// the caches that write this way must read back as they were.
@Suite("State cache file written in pieces")
struct StateCacheFileTests {
    @Test("pieces smaller than an entry, or larger than the file, write the encoder's bytes and nothing else")
    func piecesWriteTheEncodersBytes() throws {
        let state = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let file = StateCacheFile("pieces.bin", in: state)
        // Entries of 1 to 40 bytes, each flushed after it is appended.
        let entries = (1...40).map { length in
            [UInt8]((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ length) })
        }
        let whole = entries.flatMap { $0 }
        for pieceSize in [1, 3, 64, 1 << 20] {
            var flushes = 0
            try file.replace(pieceSize: pieceSize) { out, flush in
                for entry in entries {
                    out.append(contentsOf: entry)
                    flush(&out)
                    flushes += 1
                }
            }
            let written = try Data(contentsOf: file.url)
            #expect([UInt8](written) == whole, "piece size \(pieceSize)")
            #expect(flushes == entries.count)
        }
    }

    @Test("the search token cache and the export row table read back as they were saved, in pieces of a few bytes")
    func cachesRoundTripInSmallPieces() throws {
        let state = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        var builder = SearchIndexBuilder()
        builder.keepsTokenCache = true
        let users = Array(SearchTokenCacheTests.nights().first.prefix(80))
        let cache = try #require(builder.numberedPostings(SiteDirectory(users: users, hiding: [])).cache)
        let context = SearchTokenCacheTests.context
        let tokens = StateCacheFile("search-tokens.bin", in: state)
        try tokens.replace(pieceSize: 7) { out, flush in cache.encode(context: context, into: &out, flush: flush) }
        #expect(try [UInt8](Data(contentsOf: tokens.url)) == cache.encode(context: context))
        #expect(tokens.read { SearchTokenCache.decode($0, context: context) } == cache)

        let table = try ExportRowsTests.exports(users).table
        let rows = StateCacheFile("export-rows.bin", in: state)
        try rows.replace(pieceSize: 5) { out, flush in table.encode(into: &out, flush: flush) }
        #expect(try [UInt8](Data(contentsOf: rows.url)) == table.encode())
        #expect(rows.read { ExportRows.decode($0) } == table)
    }
}
