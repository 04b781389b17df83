import Foundation
import Testing

@testable import OrgDirectory

/// A nightly run copies unchanged people's export rows from the published exports: the files it makes must be the
/// ones made from scratch, and a table or file that does not fit must never be copied from.
@Suite("Export rows")
struct ExportRowsTests {
    /// The three exports of `users`, made with `previous` (the table and files of the night before) to copy from.
    static func exports(
        _ users: [User], hiding hidden: Set<String> = [], copyingFrom previous: (ExportRows, [SiteExport: Data])? = nil
    ) throws -> (files: [SiteExport: Data], table: ExportRows, copied: Int) {
        var files: [SiteExport: Data] = [:]
        let made = try SiteExports.write(
            SiteExport.allCases, of: SiteDirectory(users: users, hiding: hidden), hidden: hidden, keepingTable: true,
            previous: previous?.0, published: { export in previous?.1[export].flatMap(Self.mapped) }
        ) { export, produce in
            var bytes: [UInt8] = []
            try produce { bytes += $0 }
            files[export] = Data(bytes)
        }
        let table = try #require(made)
        return (files, table.table, table.copied)
    }

    /// `bytes` as a published file, mapped (the file itself is gone once mapped; the mapping keeps its pages).
    static func mapped(_ bytes: Data) -> MappedFile? {
        let path = NSTemporaryDirectory() + "orgdir-export-\(UUID().uuidString)"
        guard (try? bytes.write(to: URL(fileURLWithPath: path))) != nil else { return nil }
        defer { try? FileManager.default.removeItem(atPath: path) }
        return MappedFile(path: path)
    }

    /// What a write that cannot open its file throws.
    struct CannotOpen: Error {}

    @Test("an export that cannot be opened stops the exports opened before it: the error comes out, nothing is written")
    func failedOpenStopsTheExportsOpenBefore() throws {
        let directory = SiteDirectory(users: SiteBenchmarkDirectory.users(count: 50), hiding: [])
        var opened: [SiteExport] = []
        var emitted: [SiteExport: Int] = [:]
        var finished: [SiteExport] = []
        #expect(throws: CannotOpen.self) {
            try SiteExports.write(
                SiteExport.allCases, of: directory, hidden: [], keepingTable: true, previous: nil,
                published: { _ in nil }
            ) { export, produce in
                opened.append(export)
                if export == .json { throw CannotOpen() }
                try produce { emitted[export, default: 0] += $0.count }
                finished.append(export)
            }
        }
        // The files are opened one inside the other before any row is made: the CSV, open first, gets no byte
        // and is not finished, and the vCards are never opened.
        #expect(opened == [.csv, .json])
        #expect(emitted.isEmpty)
        #expect(finished.isEmpty)
    }

    /// Night one's `count` people (every tenth reporting to the first, by id only), and night two's: three with a
    /// new title, the manager renamed, two gone and one new.
    static func nights(count: Int = 2_000) -> (first: [User], second: [User]) {
        var first = SiteBenchmarkDirectory.users(count: count)
        for index in stride(from: 10, to: first.count, by: 10) {
            first[index].manager = ManagerReference(id: first[0].id, displayName: nil)
        }
        var second = first
        for index in [5, count / 4 + 1, count * 3 / 4 + 3] { second[index].jobTitle = "Chief Kite Flyer \(index)" }
        second[0].displayName = "Renamed Manager"
        second.remove(at: count - 1)
        second.remove(at: count / 2 + 1)
        second.append(
            User(
                id: "zz-new", userPrincipalName: "new@contoso.com", displayName: "Quetzalli Newcomb", surname: "Newcomb"
            ))
        return (first, second)
    }

    /// Rows of `nights(count:)` made again on the second night: three new titles, the renamed manager, the reports
    /// showing the manager's name, and the newcomer.
    static func remade(count: Int = 2_000) -> Int {
        3 + 1 + (count - 1) / 10 + 1
    }

    @Test("exports made by copying unchanged rows equal exports made from scratch, in every format")
    func copiedExportsEqualFreshOnes() throws {
        let (first, second) = Self.nights()
        let night1 = try Self.exports(first)
        #expect(night1.copied == 0)
        let stored = try #require(decoded(night1.table.encode()))
        #expect(stored == night1.table)
        let night2 = try Self.exports(second, copyingFrom: (stored, night1.files))
        let fresh = try Self.exports(second)
        for export in SiteExport.allCases {
            #expect(night2.files[export] == fresh.files[export], "\(export.fileName) differs from a fresh one")
        }
        #expect(night2.table == fresh.table)
        // Made again in each of the three exports.
        #expect(night2.copied == 3 * (second.count - Self.remade()))
    }

    /// Two ids whose slugs collide when the two people have the same name (`Slug.assign` lengthens both).
    static func collidingIDs() throws -> (String, String) {
        var seen: [String: String] = [:]
        for number in 0..<200_000 {
            let id = "collide-\(number)"
            let hash = Slug.idHash(id, length: Slug.hashLength)
            if let other = seen[hash] { return (other, id) }
            seen[hash] = id
        }
        throw CannotOpen()
    }

    @Test(
        "rows whose slug a collision lengthened, or whose manager's name came from the manager joining, are made again"
    )
    func rowsBeyondTheRecordAreMadeAgain() throws {
        let (one, two) = try Self.collidingIDs()
        let twin = { (id: String) in
            User(id: id, userPrincipalName: "\(id)@contoso.com", displayName: "Alex Twin", surname: "Twin")
        }
        var first = SiteBenchmarkDirectory.users(count: 60) + [twin(one)]
        // A report of a manager not on the site yet, named by id only.
        first[3].manager = ManagerReference(id: "zz-manager", displayName: nil)
        var second = first + [twin(two)]
        second.append(
            User(id: "zz-manager", userPrincipalName: "boss@contoso.com", displayName: "Bea Boss", surname: "Boss"))
        let night1 = try Self.exports(first)
        let night2 = try Self.exports(second, copyingFrom: (night1.table, night1.files))
        let fresh = try Self.exports(second)
        for export in SiteExport.allCases {
            #expect(night2.files[export] == fresh.files[export], "\(export.fileName) differs from a fresh one")
        }
        #expect(String(decoding: fresh.files[.csv] ?? Data(), as: UTF8.self).contains("Bea Boss"))
        // Everyone's rows copied but the first twin's (lengthened), the report's (now showing the manager's name)
        // and the two newcomers'.
        #expect(night2.copied == 3 * (first.count - 2))
    }

    @Test("nothing is copied from a table made with other hidden fields or extra columns, or from a file resized")
    func refusesWhatDoesNotFit() throws {
        let users = Array(Self.nights().first.prefix(300))
        let night1 = try Self.exports(users)
        #expect(try Self.exports(users, copyingFrom: (night1.table, night1.files)).copied == 3 * 300)
        #expect(try Self.exports(users, hiding: ["mail"], copyingFrom: (night1.table, night1.files)).copied == 0)
        var extra = users
        extra[7].extra["employeeType"] = "Contractor"
        let withExtra = try Self.exports(extra, copyingFrom: (night1.table, night1.files))
        #expect(withExtra.copied == 0, "an extra column changes every row")
        #expect(withExtra.files == (try Self.exports(extra)).files)
        var files = night1.files
        files[.csv] = (files[.csv] ?? Data()) + Data("x".utf8)
        files[.vcf] = files[.vcf]?.dropLast()
        #expect(try Self.exports(users, copyingFrom: (night1.table, files)).copied == 300, "only the JSON fits")
    }

    @Test("rows copied after their pages were handed back, in order and not, are the published rows")
    func copiesAfterPagesAreHandedBack() throws {
        // Thirty rows of 1,000 bytes: every fourth page handed back as the copying moves past it.
        let rows = (0..<30).map { number in Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ number) }) }
        let file = try #require(Self.mapped(rows.reduce(Data(), +)))
        let spans = rows.indices.map { ExportRows.Span(offset: UInt64($0 * 1_000), length: 1_000) }
        var copier = RowCopier(
            keeping: true, count: rows.count, previous: ExportRows.File(size: 30_000, spans: spans), published: file,
            releaseStep: 4_096)
        var out: [UInt8] = []
        for number in Array(rows.indices) + [0, 12, 3] {
            out.removeAll()
            #expect(copier.copy(row: number, to: &out))
            #expect(out == Array(rows[number]), "row \(number)")
        }
        #expect(copier.copied == 33)
        #expect(!copier.copy(row: nil, to: &out), "a person the table has no row for")
        #expect(!copier.copy(row: 30, to: &out), "a row number past the table's")
    }

    @Test("the table keeps one key per row, in row order, and a span per row in every export")
    func keysAndSpansAreInRowOrder() throws {
        let users = Array(Self.nights().first.prefix(40))
        let made = try Self.exports(users)
        let directory = SiteDirectory(users: users, hiding: [])
        var input = FingerprintInput()
        let keys = directory.people.indices.map { ExportRows.rowKey(at: $0, in: directory, input: &input) }
        #expect(made.table.keys == keys)
        for export in SiteExport.allCases {
            let file = try #require(made.table.files[export])
            let bytes = try #require(made.files[export])
            #expect(file.spans.count == users.count)
            #expect(file.size == UInt64(bytes.count))
            // Rows follow one another: each starts at or after the end of the one before.
            for (before, after) in zip(file.spans, file.spans.dropFirst()) {
                #expect(after.offset >= before.offset + UInt64(before.length))
            }
        }
        #expect(RowNumbers(made.table.keys)[made.table.keys[17]] == 17)
    }

    @Test("row numbers find every key's first row, keys sharing their low bits included, and no other key")
    func rowNumbersFindFirstRows() {
        // Low words repeat (every fourth key shares one with the key before), so keys collide in the slots.
        let keys = (0..<1_000).map { RenderFingerprint(high: UInt64($0), low: UInt64($0 / 4 * 4)) }
        let numbers = RowNumbers(keys + [keys[10], keys[999]])
        for (row, key) in keys.enumerated() { #expect(numbers[key] == row) }
        #expect(numbers[RenderFingerprint(high: 5_000, low: 8)] == nil, "a key not in the table")
        #expect(RowNumbers([])[keys[0]] == nil)
    }

    @Test("a table cut short, padded or pointing past its file is not read")
    func refusesDamagedTables() throws {
        var table = try Self.exports(Array(Self.nights().first.prefix(50))).table
        // Kept files' entries come last: the damaged length below is the last kept row's.
        let spans = (0..<50).map { ExportRows.Span(offset: UInt64($0 * 10), length: 10) }
        table.kept[.listRows] = ExportRows.File(size: 500, spans: spans)
        table.stamp = RenderFingerprint(high: 7, low: 9)
        let bytes = table.encode()
        #expect(decoded(bytes) == table)
        for cut in [0, 10, bytes.count / 2, bytes.count - 1] {
            #expect(decoded(Array(bytes.prefix(cut))) == nil)
        }
        #expect(decoded(bytes + [0]) == nil)
        // The last row's length made larger than its file.
        var damaged = bytes
        damaged.replaceSubrange((damaged.count - 4)..., with: [0xFF, 0xFF, 0xFF, 0x7F])
        #expect(decoded(damaged) == nil)
    }
}

@Suite("Export row store")
struct ExportRowStoreTests {
    @Test("the state folder's table reads back as saved; a failed save leaves none")
    func storeRoundTripAndFailure() throws {
        let state = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let store = ExportRowStore(stateDirectory: state)
        #expect(store.load() == nil, "no file: no table")
        let table = try ExportRowsTests.exports(Array(ExportRowsTests.nights().first.prefix(50))).table
        try store.save(table)
        #expect(store.load() == table)
        store.clear()
        #expect(store.load() == nil, "cleared before a publish: no table")
        // A save that cannot replace the file (a folder holding something sits at its name) throws and leaves no
        // table behind.
        try FileManager.default.createDirectory(at: store.file, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: store.file.appendingPathComponent("in-the-way"))
        #expect(throws: (any Error).self) { try store.save(table) }
        #expect(!FileManager.default.fileExists(atPath: store.file.path))
    }

    @Test(
        "a table cleared before a publish is gone, and the next save writes over its file; saving none leaves nothing")
    func clearedTableWrittenOver() throws {
        let state = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let store = ExportRowStore(stateDirectory: state)
        let nights = ExportRowsTests.nights()
        let first = try ExportRowsTests.exports(Array(nights.first.prefix(50))).table
        let second = try ExportRowsTests.exports(Array(nights.second.prefix(40))).table
        try store.save(first)
        let reader = try FileHandle(forReadingFrom: store.file)
        defer { try? reader.close() }
        store.clear()
        #expect(store.load() == nil, "cleared: no table, though its file waits to be written over")
        try store.save(second)
        #expect(store.load() == second)
        // The handle opened on the first table's file now reads the second: written over, not made anew.
        try reader.seek(toOffset: 0)
        #expect(try reader.readToEnd() == Data(contentsOf: store.file))
        try store.save(nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty)
    }

    @Test("saving a table keeps the kept rows it describes and removes the rest, an earlier version's too")
    func keptRowsFollowTheSavedTable() throws {
        let state = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let store = ExportRowStore(stateDirectory: state)
        let exists = { (kind: KeptRowKind) in FileManager.default.fileExists(atPath: store.keptRows.url(kind).path) }
        let retired = KeptRowFiles.retiredFiles.map { state.appendingPathComponent($0) }
        #expect(retired.map(\.lastPathComponent) == ["search-records.bin"])
        func writeAll() throws {
            for kind in KeptRowKind.allCases { try Data("rows".utf8).write(to: store.keptRows.url(kind)) }
            for file in retired { try Data("rows".utf8).write(to: file) }
        }
        try writeAll()
        var table = try ExportRowsTests.exports(Array(ExportRowsTests.nights().first.prefix(20))).table
        let spans = table.keys.indices.map { _ in ExportRows.Span(offset: 0, length: 4) }
        table.kept = [.listRows: ExportRows.File(size: 4, spans: spans)]
        try store.save(table)
        #expect(store.load() == table)
        #expect(exists(.listRows), "described by the table")
        #expect(retired.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) }, "no kind of this version")
        try writeAll()
        table.kept = [:]
        try store.save(table)
        #expect(!exists(.listRows), "not described: removed")
        #expect(retired.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
        try writeAll()
        try store.save(nil)
        #expect(store.load() == nil)
        #expect(KeptRowKind.allCases.allSatisfy { !exists($0) })
        #expect(retired.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
    }
}

/// `ExportRows.decode` of bytes held in an array (a run decodes the mapped file).
private func decoded(_ bytes: [UInt8]) -> ExportRows? {
    bytes.withUnsafeBytes { ExportRows.decode($0) }
}
