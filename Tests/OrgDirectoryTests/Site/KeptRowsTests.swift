import Foundation
import Testing

@testable import OrgDirectory

/// A run keeps everyone's list page rows in the state folder, and the next copies the unchanged people's from there
/// (`KeptRowFiles`): the site it makes must be the one made from scratch, and a kept file the table does not describe
/// must never be copied from.
@Suite("Kept list rows")
struct KeptRowsTests {
    /// A published site and the state folder beside it, with the table the last render kept.
    struct Site {
        let root: URL
        let publisher: SitePublisher
        let files: KeptRowFiles
        var table: ExportRows?
        /// The search tokens kept last (those of the search base, kept as they are over a night that wrote an
        /// overlay, as `SearchTokenCacheStore` does) and where that night's people are in the base.
        var tokens: SearchTokenCache?
        var baseRows: SearchBaseRows?

        init() throws {
            root = try SiteFixtures.temporaryFolder()
            publisher = SitePublisher(output: root.appendingPathComponent("Output"))
            let state = root.appendingPathComponent("State")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            files = KeptRowFiles(stateDirectory: state)
        }

        /// Renders and publishes `users` as a build does: copying from the table kept last (read back from its bytes,
        /// as the next run reads it) and keeping a new one. Not `publishing`, the staging folder is discarded, as
        /// when a run fails after its render (the exports the table describes stay published).
        mutating func render(_ users: [User], copying: Bool = true, publishing: Bool = true) async throws
            -> SiteReport
        {
            let staging = try publisher.makeStaging()
            let previous = copying ? table.flatMap { $0.encode().withUnsafeBytes(ExportRows.decode) } : nil
            let context = SearchTokenCache.context(hiding: [])
            let report = try await SiteRenderer(options: SiteOptions()).render(
                users, generatedAt: SiteRenderReuseTests.generatedAt, history: SiteFixtures.history,
                fingerprintsFor: publisher.output.path,
                searchTokens: tokens.flatMap {
                    $0.encode(context: context).withUnsafeBytes { SearchTokenCache.decode($0, context: context) }
                }.map { .given($0) },
                keepingSearchTokens: true, searchBaseRows: baseRows, exportRows: previous, keepingExportRows: true,
                keptRows: files, to: staging)
            guard publishing else {
                publisher.discard(staging)
                return report
            }
            try publisher.publish(staging, generatedAt: SiteRenderReuseTests.generatedAt)
            table = report.exportRows
            if report.searchOverlay {
                baseRows = report.searchBaseRows
            } else {
                (tokens, baseRows) = (report.searchTokens, nil)
            }
            return report
        }

        /// Whether the published site is, file for file, the one a render from scratch of `users` makes outside
        /// `search/`, and every search finds in it what it finds there: a night that keeps the published search base
        /// writes an overlay where a build from scratch writes a base (`SearchOverlayTests`).
        func matchesBuildFromScratch(_ users: [User]) async throws -> Bool {
            let fresh = root.appendingPathComponent("fresh-\(UUID().uuidString)")
            _ = try await SiteRenderer(options: SiteOptions()).render(
                users, generatedAt: SiteRenderReuseTests.generatedAt, history: SiteFixtures.history,
                to: DirectorySiteOutput(root: fresh))
            let outsideSearch = { (files: [String: Data]) in
                files.filter { !$0.key.hasPrefix("search/") && $0.key != SitePublisher.markerName }
            }
            let published = outsideSearch(try SiteRenderReuseTests.Nightly.files(in: publisher.output))
            let scratch = outsideSearch(try SiteRenderReuseTests.Nightly.files(in: fresh))
            let searches = try SearchOverlayTests.searchesAgree(
                publisher.output, fresh, queries: SearchOverlayTests.queries(for: users))
            return published.count > 0 && published == scratch && searches
        }
    }

    /// `ExportRowsTests.nights`, smaller: each night renders everyone's pages.
    static func nights() -> (first: [User], second: [User]) {
        ExportRowsTests.nights(count: 300)
    }

    @Test("list pages copied from the kept rows equal those made from scratch")
    func copiedRowsGiveTheSiteFromScratch() async throws {
        let (first, second) = Self.nights()
        var site = try Site()
        defer { try? FileManager.default.removeItem(at: site.root) }
        let night1 = try await site.render(first)
        #expect(night1.keptRowsCopied == 0)
        #expect(night1.warnings.isEmpty)
        let kept = try #require(site.table?.kept)
        #expect(Set(kept.keys) == Set(KeptRowKind.allCases))
        #expect(kept.values.allSatisfy { $0.spans.count == first.count })
        let night2 = try await site.render(second)
        // Everyone whose row key is unchanged. The night keeps the search base: only the people whose records changed
        // since it (three new titles, the renamed manager, the newcomer) are in the overlay and tokenized, not the
        // reports whose rows show the manager's new name.
        let remade = ExportRowsTests.remade(count: 300)
        #expect(night2.keptRowsCopied == second.count - remade)
        #expect(night2.searchOverlay)
        #expect(night2.peopleTokenized == 5)
        #expect(try await site.matchesBuildFromScratch(second))
        // The rows read in place from the kept file and written back in runs are the rows made from scratch.
        let fromScratch = ListRows(SiteDirectory(users: second, hiding: [])).bytes
        func keptRows() throws -> [UInt8] {
            Array(try Data(contentsOf: site.files.url(.listRows)).dropFirst(KeptRowFiles.headerSize))
        }
        #expect(try keptRows() == fromScratch)
        // A third night with nothing changed copies every row; its overlay still holds the five changed since the
        // base.
        let night3 = try await site.render(second)
        #expect(night3.keptRowsCopied == second.count)
        #expect(night3.peopleTokenized == 5)
        #expect(try await site.matchesBuildFromScratch(second))
        #expect(try keptRows() == fromScratch)
    }

    @Test("a kept file written under another table, cut short or missing is not copied from; the site is still whole")
    func refusesKeptFilesTheTableDoesNotDescribe() async throws {
        let (first, second) = Self.nights()
        var site = try Site()
        defer { try? FileManager.default.removeItem(at: site.root) }
        _ = try await site.render(first)
        let table = site.table
        // A run with one title reversed writes kept files of the very sizes the table gives, one row's bytes
        // different, and fails before its table is saved.
        var reversed = first
        reversed[7].jobTitle = first[7].jobTitle.map { String($0.reversed()) }
        #expect(reversed[7].jobTitle != first[7].jobTitle)
        let failed = try await site.render(reversed, copying: false, publishing: false)
        #expect(failed.exportRows?.kept == table?.kept, "same sizes, same spans")
        #expect(try await site.render(first).keptRowsCopied == 0, "the files carry the other run's stamp")
        #expect(try await site.matchesBuildFromScratch(first))

        // The rows cut short by one byte, then gone.
        let rows = site.files.url(.listRows)
        try Data(try Data(contentsOf: rows).dropLast()).write(to: rows)
        #expect(try await site.render(second).keptRowsCopied == 0)
        #expect(try await site.matchesBuildFromScratch(second))
        try FileManager.default.removeItem(at: rows)
        #expect(try await site.render(second).keptRowsCopied == 0)
        #expect(try await site.matchesBuildFromScratch(second))
        // The file written whole again, the next run copies everyone's rows.
        #expect(try await site.render(second).keptRowsCopied == second.count)
    }

    @Test("a kept file that cannot be written is left out of the table, with a warning, and out of the way")
    func unwritableKeptFileWarns() async throws {
        let users = Array(Self.nights().first.prefix(100))
        var site = try Site()
        defer { try? FileManager.default.removeItem(at: site.root) }
        // A folder where the list rows go: nothing can be renamed over it.
        let blocked = site.files.url(.listRows)
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
        try Data("in the way".utf8).write(to: blocked.appendingPathComponent("file"))
        let report = try await site.render(users)
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.hasPrefix("the list page rows could not be kept (cannot write ") == true)
        #expect(report.warnings.first?.hasSuffix("); the next run makes them all") == true)
        #expect(site.table?.kept[.listRows] == nil)
        #expect(!FileManager.default.fileExists(atPath: blocked.path), "the next run can write it")
        let next = try await site.render(users)
        #expect(next.warnings.isEmpty)
        #expect(next.keptRowsCopied == 0, "nothing was kept")
        #expect(try await site.render(users).keptRowsCopied == users.count)
    }

    @Test("rows kept whole: the file holds the header with the stamp, then the rows; the entry counts the rows' bytes")
    func keptWhole() throws {
        let site = try Site()
        defer { try? FileManager.default.removeItem(at: site.root) }
        let stamp = RenderFingerprint(high: 1, low: 2)
        let spans = [ExportRows.Span(offset: 0, length: 3), ExportRows.Span(offset: 3, length: 2)]
        let rows = Array("aaabb".utf8)
        let kept = site.files.keep(.listRows, spans: spans, stamp: stamp) { write in
            (rows.count, rows.withUnsafeBytes(write))
        }
        #expect(try kept.get() == ExportRows.File(size: UInt64(rows.count), spans: spans))
        let file = try #require(MappedFile(path: site.files.url(.listRows).path))
        #expect(KeptRowFiles.header(of: file.bytes) == stamp)
        #expect(Array(file.bytes.dropFirst(KeptRowFiles.headerSize)) == rows)
    }

    @Test("rows whose writing fails partway leave no file, so the next run makes them all")
    func failedWriteLeavesNothing() throws {
        let site = try Site()
        defer { try? FileManager.default.removeItem(at: site.root) }
        let piece = Array("aaa".utf8)
        let kept = site.files.keep(.listRows, spans: [], stamp: RenderFingerprint(high: 1, low: 2)) { write in
            (piece.count, piece.withUnsafeBytes(write) ?? ENOSPC)
        }
        guard case .failure(let failure) = kept else {
            Issue.record("a failed write was kept")
            return
        }
        #expect(failure.reason.contains(String(cString: strerror(ENOSPC))))
        #expect(!FileManager.default.fileExists(atPath: site.files.url(.listRows).path))
    }
}
