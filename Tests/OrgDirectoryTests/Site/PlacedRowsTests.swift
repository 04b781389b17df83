import Foundation
import Testing

@testable import OrgDirectory

/// Rows read in place from the run before's kept file or made here (`PlacedRows`): each row reads as it was put, the
/// whole is written in runs of rows that lie one after the other, and a write that fails stops there, saying how
/// much was written.
@Suite("Rows read in place or made")
struct PlacedRowsTests {
    /// A kept file of rows "aaa", "bb", "c" (after a 4-byte header), and a copier of it noting where rows go.
    static func copier() throws -> (RowCopier, URL) {
        let folder = try SiteFixtures.temporaryFolder()
        let file = folder.appendingPathComponent("rows.bin")
        try Data("HEADaaabbc".utf8).write(to: file)
        let spans = [
            ExportRows.Span(offset: 0, length: 3), ExportRows.Span(offset: 3, length: 2),
            ExportRows.Span(offset: 5, length: 1),
        ]
        let mapped = try #require(MappedFile(path: file.path))
        let copier = RowCopier(
            keeping: true, count: 5, previous: ExportRows.File(size: 6, spans: spans), published: mapped, base: 4)
        return (copier, folder)
    }

    /// Rows: the kept "c", a made "X", the kept "aaa" and "bb" (one after the other in the file), a made "Y".
    static func rows() throws -> (PlacedRows, RowCopier, URL) {
        var (copier, folder) = try copier()
        var rows = PlacedRows(count: 5, from: copier, bytesPerRow: 8)
        for (row, made) in [(2, ""), (nil, "X"), (0, ""), (1, ""), (nil, "Y")] as [(Int?, String)] {
            rows.add(copying: &copier, row: row) { $0.raw(made) }
        }
        rows.finish(copier)
        return (rows, copier, folder)
    }

    @Test("each row reads as it was put, and the copier notes where each goes in the next file")
    func rowsReadAsPut() throws {
        let (rows, copier, folder) = try Self.rows()
        defer { try? FileManager.default.removeItem(at: folder) }
        let read = (0..<rows.count).map { position in rows.withRow(position) { String(decoding: $0, as: UTF8.self) } }
        #expect(read == ["c", "X", "aaa", "bb", "Y"])
        #expect(copier.copied == 3)
        #expect(copier.spans.map(\.offset) == [0, 1, 2, 5, 7])
        #expect(rows.bytes == Array("cXaaabbY".utf8))
    }

    @Test("the rows are written in runs: kept rows that follow each other in the file go in one piece")
    func writtenInRuns() throws {
        let (rows, _, folder) = try Self.rows()
        defer { try? FileManager.default.removeItem(at: folder) }
        var pieces: [String] = []
        let written = rows.write { piece in
            pieces.append(String(decoding: piece, as: UTF8.self))
            return nil
        }
        #expect(pieces == ["c", "X", "aaabb", "Y"])
        #expect(written.size == 8 && written.failed == nil)
    }

    @Test("a piece that cannot be written stops the write, with the bytes written before it and the error code")
    func failedPieceStops() throws {
        let (rows, _, folder) = try Self.rows()
        defer { try? FileManager.default.removeItem(at: folder) }
        var calls = 0
        let written = rows.write { _ in
            calls += 1
            return calls == 3 ? ENOSPC : nil
        }
        #expect(written.failed == ENOSPC)
        #expect(written.size == 2, "\"c\" and \"X\" were written")
        #expect(calls == 3, "nothing after the failed piece")
    }
}

/// The bytes a writer of a file's pieces hands over, one after the other.
func gatheredBytes(_ contents: FileReplacement.Contents) -> [UInt8] {
    var all: [UInt8] = []
    _ = contents { piece in
        all.append(contentsOf: piece)
        return nil
    }
    return all
}

extension PlacedRows {
    /// Every row one after the other, as `write` hands them over.
    var bytes: [UInt8] { gatheredBytes(write) }
}

extension ListRows {
    /// Everyone's rows one after the other, as `write` hands them over.
    var bytes: [UInt8] { gatheredBytes(write) }
}
