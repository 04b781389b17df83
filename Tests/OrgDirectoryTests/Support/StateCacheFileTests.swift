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

    @Test("after a piece fails to be written nothing more is written, and the failure and the bytes before it are kept")
    func aFailedPieceStopsTheWriting() {
        var calls: [Int] = []
        let writer = StateCacheFile.PieceWriter(size: 4) { piece in
            calls.append(piece.count)
            return calls.count == 2 ? ENOSPC : nil
        }
        var buffer: [UInt8] = []
        for entry in 0..<6 {
            buffer += [UInt8](repeating: UInt8(entry), count: 3)
            writer.flush(&buffer, whole: false)
        }
        writer.flush(&buffer, whole: true)
        #expect(calls == [6, 6], "a piece once it holds 4 bytes or more; none after the one that failed")
        #expect(writer.written == 6)
        #expect(writer.failed == ENOSPC)
        #expect(buffer.isEmpty, "the buffer is emptied all the same, so the encoder's memory stays one piece")
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
