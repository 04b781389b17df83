import Foundation
import Testing

@testable import OrgDirectory

@Suite("Snapshot store")
struct SnapshotStoreTests {
    /// 2026-03-04T02:00:00Z.
    static let march4 = 1_772_589_600.0
    static let day = 86_400.0

    @Test("save names the file from the UTC time, leaves no temporary file, and reads back equal")
    func saveAndLoad() throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(stateDirectory: folder.url, keep: nil)
        let snapshot = SnapshotFixtures.snapshot(SnapshotFixtures.people(10), at: Self.march4)
        let url = try store.save(snapshot)
        #expect(url.lastPathComponent == "2026-03-04T02-00-00Z.json")
        #expect(url.deletingLastPathComponent().lastPathComponent == "snapshots")
        #expect(folder.names(in: "snapshots") == ["2026-03-04T02-00-00Z.json"])
        #expect(try Data(contentsOf: url) == snapshot.canonicalData())
        #expect(try store.load("latest") == snapshot)
        #expect(try store.latest() == snapshot)
    }

    @Test("a failure while saving leaves the earlier snapshots exactly as they were and nothing new")
    func failedSaveLeavesPrevious() throws {
        let folder = try SnapshotTestFolder()
        var store = SnapshotStore(folder: folder.url, keep: 1)
        let first = try store.save(SnapshotFixtures.snapshot(SnapshotFixtures.people(3), at: Self.march4))
        let before = try Data(contentsOf: first)
        store.writer.beforeRename = { temporary in
            // The temporary file is complete at this point: the failure is the rename that never happens.
            #expect(FileManager.default.fileExists(atPath: temporary.path))
            throw CocoaError(.fileWriteOutOfSpace)
        }
        #expect(throws: SnapshotError.self) {
            try store.save(SnapshotFixtures.snapshot(SnapshotFixtures.people(1), at: Self.march4 + Self.day))
        }
        #expect(folder.names() == ["2026-03-04T02-00-00Z.json"])  // no temporary file, retention did not run
        #expect(try Data(contentsOf: first) == before)
    }

    @Test(
        "a snapshot prepared while the site renders is not the latest until committed, and discarding it leaves nothing"
    )
    func preparedSnapshot() throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(folder: folder.url, keep: 1)
        let first = SnapshotFixtures.snapshot(SnapshotFixtures.people(3), at: Self.march4)
        try store.save(first)
        let second = SnapshotFixtures.snapshot(SnapshotFixtures.people(2), at: Self.march4 + Self.day)

        let discarded = try store.prepareSave(second)
        #expect(try store.latest() == first)
        #expect(folder.names().count == 2)  // the complete temporary file beside the snapshot
        discarded.discard()
        #expect(folder.names() == ["2026-03-04T02-00-00Z.json"])
        #expect(try store.latest() == first)

        let committed = try store.prepareSave(second).commit()
        #expect(committed.lastPathComponent == "2026-03-05T02-00-00Z.json")
        #expect(try store.latest() == second)
        #expect(folder.names() == ["2026-03-05T02-00-00Z.json"])  // retention ran on commit
    }

    @Test("a folder that cannot be created is a clear error")
    func folderUnavailable() throws {
        let folder = try SnapshotTestFolder()
        let blocker = folder.url.appendingPathComponent("state")
        try Data("not a folder".utf8).write(to: blocker)
        let store = SnapshotStore(stateDirectory: blocker, keep: nil)
        #expect(throws: SnapshotError.self) { try store.save(SnapshotFixtures.snapshot([], at: Self.march4)) }
        #expect(try String(contentsOf: blocker, encoding: .utf8) == "not a folder")
    }

    @Test("two snapshots in the same second get distinct names and keep their order")
    func sameSecond() throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(folder: folder.url, keep: nil)
        let first = SnapshotFixtures.snapshot(SnapshotFixtures.people(1), at: Self.march4)
        let second = SnapshotFixtures.snapshot(SnapshotFixtures.people(2), at: Self.march4)
        let third = SnapshotFixtures.snapshot(SnapshotFixtures.people(3), at: Self.march4)
        try store.save(first)
        try store.save(second)
        try store.save(third)
        #expect(
            try store.list().map(\.name) == [
                "2026-03-04T02-00-00Z.json", "2026-03-04T02-00-00Z-2.json", "2026-03-04T02-00-00Z-3.json",
            ])
        #expect(try store.load("latest") == third)
        #expect(try store.load("previous") == second)
    }

    /// The newest snapshot is found by name: a clock set back must not name tonight's before last night's, or the
    /// next run would build on last night's with tonight's delta link.
    @Test("with the clock behind the newest snapshot, the next name still sorts after it, even past pruned names")
    func clockSetBack() throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(folder: folder.url, keep: nil)
        let later = Self.march4 + 3_600
        // The newest kept is the third of its second; the first two are gone, as retention removes them.
        for people in 1...3 { try store.save(SnapshotFixtures.snapshot(SnapshotFixtures.people(people), at: later)) }
        for gone in ["2026-03-04T03-00-00Z.json", "2026-03-04T03-00-00Z-2.json"] {
            try FileManager.default.removeItem(at: folder.url.appendingPathComponent(gone))
        }
        let latest = try #require(try store.list().last)
        #expect(latest.name == "2026-03-04T03-00-00Z-3.json")

        let behind = Date(timeIntervalSince1970: Self.march4)
        #expect(store.nextName(takenAt: behind) == "2026-03-04T02-00-00Z.json", "by its own time it sorts first")
        let named = store.nextName(takenAt: behind, after: latest)
        #expect(named == "2026-03-04T03-00-00Z-4.json")
        let parsed = try #require(SnapshotName.parse(named))
        #expect((parsed.date, parsed.sequence) > (latest.takenAt, latest.sequence))
        // The same second as the newest, a free name that would sort before it is passed over too.
        #expect(store.nextName(takenAt: Date(timeIntervalSince1970: later + 0.5), after: latest) == named)
        // A clock that is right names the snapshot from its own time, as before.
        #expect(
            store.nextName(takenAt: Date(timeIntervalSince1970: later + 60), after: latest)
                == "2026-03-04T03-01-00Z.json")
    }

    @Test("retention keeps the newest keepSnapshots and deletes the rest", arguments: [1, 2, 5])
    func retention(keep: Int) throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(folder: folder.url, keep: keep)
        var names: [String] = []
        for night in 0..<5 {
            let url = try store.save(
                SnapshotFixtures.snapshot(
                    SnapshotFixtures.people(night + 1), at: Self.march4 + Double(night) * Self.day))
            names.append(url.lastPathComponent)
        }
        #expect(try store.list().map(\.name) == Array(names.suffix(keep)))
        #expect(folder.names() == Array(names.suffix(keep)))
    }

    @Test("without keepSnapshots every snapshot is kept")
    func keepAll() throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(folder: folder.url, keep: nil)
        for night in 0..<4 {
            try store.save(SnapshotFixtures.snapshot([], at: Self.march4 + Double(night) * Self.day))
        }
        #expect(try store.list().count == 4)
    }

    @Test("list is oldest first with counts from the header, ignores other files, and survives a damaged file")
    func listing() throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(folder: folder.url, keep: nil)
        try store.save(SnapshotFixtures.snapshot(SnapshotFixtures.people(2), at: Self.march4 + Self.day))
        try store.save(SnapshotFixtures.snapshot(SnapshotFixtures.people(7), at: Self.march4))
        try Data("junk".utf8).write(to: folder.url.appendingPathComponent("2026-03-06T02-00-00Z.json"))
        try Data("notes".utf8).write(to: folder.url.appendingPathComponent("README.txt"))
        try Data().write(to: folder.url.appendingPathComponent(".2026-03-07T02-00-00Z.json.1.abc.tmp"))
        let entries = try store.list()
        #expect(
            entries.map(\.name) == [
                "2026-03-04T02-00-00Z.json", "2026-03-05T02-00-00Z.json", "2026-03-06T02-00-00Z.json",
            ])
        #expect(entries.map(\.peopleCount) == [7, 2, nil])
        #expect(entries[0].metadata?.tenant == "contoso.example")
        #expect(entries[2].problem != nil)
        #expect(entries[0].byteCount > 0)
    }

    @Test("a missing folder lists as empty, and latest is nil on a first run")
    func firstRun() throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(stateDirectory: folder.url.appendingPathComponent("never-made"), keep: 3)
        #expect(try store.list().isEmpty)
        #expect(try store.latest() == nil)
        #expect(throws: SnapshotError.notEnoughSnapshots(reference: "latest", folder: store.folder.path, count: 0)) {
            try store.load("latest")
        }
    }

    /// Three nights (4th, 5th, 5th later, 6th) for the reference table.
    private func threeNights(_ folder: borrowing SnapshotTestFolder) throws -> (SnapshotStore, [Snapshot]) {
        let store = SnapshotStore(folder: folder.url, keep: nil)
        let snapshots = [
            SnapshotFixtures.snapshot(SnapshotFixtures.people(1), at: Self.march4),
            SnapshotFixtures.snapshot(SnapshotFixtures.people(2), at: Self.march4 + Self.day),
            SnapshotFixtures.snapshot(SnapshotFixtures.people(3), at: Self.march4 + Self.day + 3_600),
            SnapshotFixtures.snapshot(SnapshotFixtures.people(4), at: Self.march4 + 2 * Self.day),
        ]
        for snapshot in snapshots { try store.save(snapshot) }
        return (store, snapshots)
    }

    @Test(
        "references name the right snapshot",
        arguments: [
            ("latest", 3), ("previous", 2), ("2026-03-05", 2), ("2026-03-04", 0),
            ("2026-03-05T02-00-00Z.json", 1), ("2026-03-05T02-00-00Z", 1),
        ])
    func references(reference: String, expected: Int) throws {
        let folder = try SnapshotTestFolder()
        let (store, snapshots) = try threeNights(folder)
        #expect(try store.load(reference) == snapshots[expected])
    }

    @Test("a path to a snapshot file anywhere loads it")
    func loadByPath() throws {
        let folder = try SnapshotTestFolder()
        let (store, snapshots) = try threeNights(folder)
        let elsewhere = folder.url.appendingPathComponent("copy.json")
        try FileManager.default.copyItem(at: try store.resolve("previous"), to: elsewhere)
        #expect(try store.load(elsewhere.path) == snapshots[2])
    }

    @Test("an unknown reference lists what is available")
    func unknownReference() throws {
        let folder = try SnapshotTestFolder()
        let (store, _) = try threeNights(folder)
        do {
            _ = try store.load("2026-03-09")
            Issue.record("expected an error")
        } catch {
            guard case .notFound(let reference, _, let available) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(reference == "2026-03-09")
            #expect(available.count == 4)
            #expect(error.errorDescription?.contains("2026-03-06T02-00-00Z.json") == true)
        }
    }

    @Test("previous needs two snapshots")
    func previousNeedsTwo() throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(folder: folder.url, keep: nil)
        try store.save(SnapshotFixtures.snapshot([], at: Self.march4))
        #expect(throws: SnapshotError.notEnoughSnapshots(reference: "previous", folder: folder.url.path, count: 1)) {
            try store.load("previous")
        }
    }

    @Test("leftover temporary files from a crashed run are removed when old, kept when fresh")
    func leftoverTemporaryFiles() throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(folder: folder.url, keep: nil)
        let stale = folder.url.appendingPathComponent(".2026-03-01T02-00-00Z.json.99.dead.tmp")
        let fresh = folder.url.appendingPathComponent(".2026-03-01T02-00-00Z.json.98.live.tmp")
        try Data("partial".utf8).write(to: stale)
        try Data("partial".utf8).write(to: fresh)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-7_200)], ofItemAtPath: stale.path)
        try store.save(SnapshotFixtures.snapshot([], at: Self.march4))
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
    }

    @Test("snapshot names parse back to their time and sequence, and other names are rejected")
    func names() {
        let date = Date(timeIntervalSince1970: Self.march4)
        #expect(SnapshotName.make(for: date) == "2026-03-04T02-00-00Z.json")
        #expect(SnapshotName.parse("2026-03-04T02-00-00Z.json")?.date == date)
        #expect(SnapshotName.parse("2026-03-04T02-00-00Z-12.json")?.sequence == 12)
        for bad in [
            "2026-13-04T02-00-00Z.json", "2026-03-04T02-00-00Z.txt", "2026-03-04.json", "x.json",
            "2026-03-04T02-00-00Z-1.json", "2026-03-04T02-00-00Z-x.json",
        ] {
            #expect(SnapshotName.parse(bad) == nil, "\(bad)")
        }
    }
}
