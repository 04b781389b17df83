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
        // Entries of 1 to 40 bytes, each followed by a check for a full piece.
        let entries = (1...40).map { length in
            [UInt8]((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ length) })
        }
        let whole = entries.flatMap { $0 }
        for pieceSize in [1, 3, 64, 1 << 20] {
            try file.replace(pieceSize: pieceSize) { out throws(StateCacheFile.WriteFailure) in
                for entry in entries {
                    out.bytes.append(contentsOf: entry)
                    try out.flushIfFull()
                }
            }
            let written = try Data(contentsOf: file.url)
            #expect([UInt8](written) == whole, "piece size \(pieceSize)")
        }
    }

    @Test("after a piece fails to be written nothing more is written, and the failure and the bytes before it are kept")
    func aFailedPieceStopsTheWriting() {
        var calls: [Int] = []
        var out = PieceBuffer<StateCacheFile.WriteFailure>(pieceSize: 4) { piece throws(StateCacheFile.WriteFailure) in
            calls.append(piece.count)
            if calls.count == 2 { throw StateCacheFile.WriteFailure(code: ENOSPC) }
        }
        var failure: StateCacheFile.WriteFailure?
        do throws(StateCacheFile.WriteFailure) {
            for entry in 0..<6 {
                out.bytes += [UInt8](repeating: UInt8(entry), count: 3)
                try out.flushIfFull()
            }
            try out.flush()
        } catch {
            failure = error
        }
        #expect(calls == [6, 6], "a piece once it holds 4 bytes or more; none after the one that failed")
        #expect(out.handedOn == 6)
        #expect(failure?.code == ENOSPC)
    }

    @Test("a long run goes to the writer as it lies, after what was gathered; a short run is gathered like any bytes")
    func longRunsHandedOnAsTheyLie() {
        let long = [UInt8](repeating: 7, count: PieceBuffer<PieceWriteFailure>.directRunMinimum)
        let short = [UInt8](repeating: 9, count: 10)
        /// `bytes` appended as a run lying elsewhere (as a mapped file's are).
        func append(_ bytes: [UInt8], to out: inout PieceBuffer<PieceWriteFailure>) throws(PieceWriteFailure) {
            let run = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            defer { run.deallocate() }
            run.copyBytes(from: bytes)
            try out.append(UnsafeRawBufferPointer(run))
        }
        var calls: [[UInt8]] = []
        let (size, failed) = PieceBuffer.writing(pieceSize: 1 << 20) { bytes in
            calls.append(Array(bytes))
            return nil
        } _: { out throws(PieceWriteFailure) in
            out.bytes += [1, 2, 3]
            try append(long, to: &out)
            try append(short, to: &out)
            #expect(out.position == 3 + long.count + short.count)
        }
        #expect(calls == [[1, 2, 3], long, short], "gathered bytes first, the long run alone, the short one gathered")
        #expect(size == 3 + long.count + short.count && failed == nil)
        // A writer that refuses the long run: nothing after it, and only what went before is counted.
        let (refusedSize, refused) = PieceBuffer.writing(pieceSize: 1 << 20) { bytes in
            bytes.count == long.count ? ENOSPC : nil
        } _: { out throws(PieceWriteFailure) in
            out.bytes += [1, 2, 3]
            try append(long, to: &out)
            try append(short, to: &out)
        }
        #expect(refused == ENOSPC && refusedSize == 3)
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
        try tokens.replace(pieceSize: 7) { out throws(StateCacheFile.WriteFailure) in
            try cache.encode(context: context, into: &out)
        }
        #expect(try [UInt8](Data(contentsOf: tokens.url)) == cache.encode(context: context))
        #expect(tokens.read { SearchTokenCache.decode($0, context: context) } == cache)

        let table = try ExportRowsTests.exports(users).table
        let rows = StateCacheFile("export-rows.bin", in: state)
        try rows.replace(pieceSize: 5) { out throws(StateCacheFile.WriteFailure) in try table.encode(into: &out) }
        #expect(try [UInt8](Data(contentsOf: rows.url)) == table.encode())
        #expect(rows.read { ExportRows.decode($0) } == table)
    }
}

/// A state cache's bytes whole, gathered from the pieces its encoder writes (the product only writes them to files).
extension SearchTokenCache {
    func encode(context: RenderFingerprint) -> [UInt8] {
        gathered { (out: inout PieceBuffer<Never>) in encode(context: context, into: &out) }
    }
}

extension ExportRows {
    func encode() -> [UInt8] {
        gathered { (out: inout PieceBuffer<Never>) in encode(into: &out) }
    }
}

/// Everything `encode` writes through a piece buffer, one piece after the other.
func gathered(_ encode: (inout PieceBuffer<Never>) -> Void) -> [UInt8] {
    var all: [UInt8] = []
    var out = PieceBuffer<Never>(pieceSize: 1 << 16) { all += $0 }
    encode(&out)
    out.flush()
    return all
}
