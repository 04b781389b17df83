import Foundation
import Testing

@testable import OrgDirectory

@Suite("Change history")
struct ChangeHistoryTests {
    static let march4 = 1_772_589_600.0
    static let day = 86_400.0

    /// Five nights of a small directory: a move, a quiet night, a joiner, a leaver and a rename.
    static func nights() -> [[User]] {
        let p = SnapshotFixtures.people(5)
        var night1 = p
        night1[1].department = "Operations"
        let night2 = night1
        let night3 = night2 + [SnapshotFixtures.person(9)]
        var night4 = night3.filter { $0.id != p[3].id }
        night4[0].displayName = "Renamed"
        return [p, night1, night2, night3, night4]
    }

    @Test("built from the snapshots: one entry per night with changes, and each person's dated events")
    func build() throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(stateDirectory: folder.url, keep: nil)
        for (night, people) in Self.nights().enumerated() {
            try store.save(SnapshotFixtures.snapshot(people, at: Self.march4 + Double(night) * Self.day))
        }
        let history = try ChangeHistory.build(from: store)
        #expect(
            history.entries.map(\.new.name) == [
                "2026-03-05T02-00-00Z.json", "2026-03-07T02-00-00Z.json", "2026-03-08T02-00-00Z.json",
            ])
        #expect(history.latestSnapshot == "2026-03-08T02-00-00Z.json")
        let mover = SnapshotFixtures.person(1).id
        let events = history.events(for: mover)
        #expect(events.count == 1)
        #expect(events.first?.kind == .changed)
        #expect(events.first?.date == Date(timeIntervalSince1970: Self.march4 + Self.day))
        #expect(events.first?.moves == [FieldChange(field: "department", old: "Sales", new: "Operations")])
        #expect(history.events(for: SnapshotFixtures.person(9).id).map(\.kind) == [.joined])
        #expect(history.events(for: SnapshotFixtures.person(3).id).map(\.kind) == [.left])
        let all = history.eventsByPerson()
        for id in [mover, SnapshotFixtures.person(9).id, SnapshotFixtures.person(3).id, SnapshotFixtures.person(0).id] {
            #expect(all[id] == history.events(for: id))
        }
        #expect(all.count == 4)
        #expect(history.newestFirst.first?.new.name == "2026-03-08T02-00-00Z.json")
    }

    @Test(
        "recording each run as it happens gives the nights a rebuild gives, retention included, and keeps each dropped night's newest dates",
        arguments: [nil, 2, 3])
    func incrementalEqualsRebuild(keep: Int?) throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(stateDirectory: folder.url, keep: keep)
        let historyStore = ChangeHistoryStore(stateDirectory: folder.url)
        let appended = ChangeHistoryStore(url: folder.url.appendingPathComponent("appended.jsonl"))
        var previous: (snapshot: Snapshot, name: String)?
        for (night, people) in Self.nights().enumerated() {
            let snapshot = SnapshotFixtures.snapshot(people, at: Self.march4 + Double(night) * Self.day)
            let name = try store.save(snapshot).lastPathComponent
            let report = previous.map { DiffReport(old: $0.snapshot, named: $0.name, new: snapshot, named: name) }
            let recorded = try historyStore.record(report, newSnapshot: name, snapshots: store)
            let rebuilt = try ChangeHistory.build(from: store)
            #expect(recorded.entries == rebuilt.entries, "night \(night)")
            #expect(recorded.latestSnapshot == rebuilt.latestSnapshot, "night \(night)")
            #expect(try historyStore.load() == recorded)
            // Appended to the saved file's bytes, as a build records its night: the same file, byte for byte.
            try appended.append(report, newSnapshot: name, snapshots: store)
            #expect(
                try Data(contentsOf: appended.url) == Data(contentsOf: historyStore.url), "night \(night): appended")
            previous = (snapshot, name)
        }
        // What the dropped nights leave: the mover's night 1 once snapshot 0 goes (keep 3 and 2), and the joiner's
        // night 3 once snapshot 2 goes too (keep 2). The leaver and the renamed person's night 4 is kept either way.
        let date = { (night: Double) in Date(timeIntervalSince1970: Self.march4 + night * Self.day) }
        let expected: [String: Date] =
            switch keep {
            case 2: [SnapshotFixtures.person(1).id: date(1), SnapshotFixtures.person(9).id: date(3)]
            case 3: [SnapshotFixtures.person(1).id: date(1)]
            default: [:]
            }
        #expect(try historyStore.load()?.earlier == expected)
        #expect(try ChangeHistoryStore(url: appended.url).load()?.earlier == expected)
    }

    @Test("a dropped night's leavers leave its dates, and a later dropped night's dates win")
    func foldingDroppedNights() {
        let people = SnapshotFixtures.people(3)
        func night(_ day: Double, _ diff: DirectoryDiff) -> DiffReport {
            DiffReport(
                old: DiffReport.Side(name: "\(day - 1)", takenAt: Date(timeIntervalSince1970: day - 1), people: 3),
                new: DiffReport.Side(name: "\(day)", takenAt: Date(timeIntervalSince1970: day), people: 3),
                diff: diff)
        }
        let change = PersonChange(id: people[1].id, displayName: "", fieldChanges: [])
        let folded = [people[2].id: Date(timeIntervalSince1970: 1)].folding([
            night(10, DirectoryDiff(joiners: [people[0]], changed: [change])),
            night(20, DirectoryDiff(leavers: [people[2]], changed: [change])),
        ])
        #expect(
            folded == [people[0].id: Date(timeIntervalSince1970: 10), people[1].id: Date(timeIntervalSince1970: 20)])
    }

    @Test("a dropped night folded into the earlier lines one by one gives the bytes of folding the whole history")
    func foldsEarlierLinesInPlace() throws {
        let people = SnapshotFixtures.people(8)
        let at = { (day: Double) in Date(timeIntervalSince1970: Self.march4 + day * Self.day) }
        let side = { (day: Double) in
            DiffReport.Side(name: "night-\(Int(day)).json", takenAt: at(day), people: people.count)
        }
        let change = { (index: Int) in
            PersonChange(
                id: people[index].id, displayName: people[index].displayName,
                fieldChanges: [FieldChange(field: "jobTitle", old: "a", new: "b")])
        }
        // Earlier: people 0–2 and an id that needs escaping on day 1, 3–5 on day 2. Night 3 (dropped) changes 1,
        // lets 4 leave and 6 join; night 4 (kept) changes 7; tonight (night 5) changes 0.
        let saved = ChangeHistory(
            entries: [
                DiffReport(
                    old: side(2), new: side(3),
                    diff: DirectoryDiff(joiners: [people[6]], leavers: [people[4]], changed: [change(1)])),
                DiffReport(old: side(3), new: side(4), diff: DirectoryDiff(changed: [change(7)])),
            ], latestSnapshot: "night-4.json", since: at(0),
            earlier: Dictionary(uniqueKeysWithValues: (0..<6).map { (people[$0].id, at($0 < 3 ? 1 : 2)) })
                .merging(["quote\"d\\id": at(1)]) { first, _ in first })
        let tonight = DiffReport(old: side(4), new: side(5), diff: DirectoryDiff(changed: [change(0)]))
        let retained: Set<String> = ["night-3.json", "night-4.json", "night-5.json"]
        let file = try ChangeHistoryFile.encode(saved)
        let appended = try #require(ChangeHistoryFile.appending(tonight, to: file, retained: retained, since: nil))
        let expected = saved.recording(tonight).retaining(names: retained)
        #expect(expected.earlier[people[1].id] == at(3) && expected.earlier[people[4].id] == nil)
        #expect(expected.earlier[people[6].id] == at(3) && expected.earlier[people[3].id] == at(2))
        #expect(expected.earlier["quote\"d\\id"] == at(1))
        #expect(
            String(decoding: appended, as: UTF8.self)
                == String(decoding: try ChangeHistoryFile.encode(expected), as: UTF8.self))
        #expect(try ChangeHistoryFile.decode(appended, path: "") == expected)
        // A dropped night no newer than an earlier line is folded through the decoded history, to the same bytes.
        var stale = saved
        stale.earlier[people[5].id] = at(3)
        let folded = try #require(
            ChangeHistoryFile.appending(
                tonight, to: try ChangeHistoryFile.encode(stale), retained: retained, since: nil))
        #expect(folded == (try ChangeHistoryFile.encode(stale.recording(tonight).retaining(names: retained))))
    }

    @Test("since and the earlier dates round-trip through the file, ids that need escaping included")
    func earlierRoundTrip() throws {
        let folder = try SnapshotTestFolder()
        let historyStore = ChangeHistoryStore(stateDirectory: folder.url)
        let history = ChangeHistory(
            entries: [DiffFormatterTests.report()], latestSnapshot: "x.json",
            since: Date(timeIntervalSince1970: Self.march4),
            earlier: [
                "plain": Date(timeIntervalSince1970: Self.march4 + Self.day),
                "quote\"back\\slash\nline": Date(timeIntervalSince1970: Self.march4 + Self.day),
                "ümlaut": Date(timeIntervalSince1970: Self.march4 + 2 * Self.day),
            ])
        try historyStore.save(history)
        #expect(try historyStore.load() == history)
        let lines = try String(decoding: Data(contentsOf: historyStore.url), as: UTF8.self).split(separator: "\n")
        #expect(lines.first?.contains("\"earlier\":2") == true && lines.first?.contains("\"since\":") == true)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
        #expect(lines.last?.hasPrefix("[\"2026-03-06T") == true, "one line per date, oldest first: \(lines)")
        // Without either, the header says nothing of them, as before they existed.
        try historyStore.save(ChangeHistory(entries: [DiffFormatterTests.report()], latestSnapshot: "x.json"))
        let header = try String(decoding: Data(contentsOf: historyStore.url), as: UTF8.self).prefix { $0 != "\n" }
        #expect(!header.contains("earlier") && !header.contains("since"))
        // A header counting more earlier lines than the file has is damage.
        let text = try String(decoding: Data(contentsOf: historyStore.url), as: UTF8.self)
        try Data(text.replacingOccurrences(of: "{\"latestSnapshot\"", with: "{\"earlier\":1,\"latestSnapshot\"").utf8)
            .write(to: historyStore.url)
        #expect(throws: SnapshotError.self) { try historyStore.load() }
    }

    @Test("a missing, damaged or out-of-step history file is rebuilt from the snapshots")
    func rebuildsWhenOutOfStep() throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(stateDirectory: folder.url, keep: nil)
        let historyStore = ChangeHistoryStore(stateDirectory: folder.url)
        var names: [String] = []
        var snapshots: [Snapshot] = []
        for (night, people) in Self.nights().enumerated() {
            let snapshot = SnapshotFixtures.snapshot(people, at: Self.march4 + Double(night) * Self.day)
            names.append(try store.save(snapshot).lastPathComponent)
            snapshots.append(snapshot)
        }
        let expected = try ChangeHistory.build(from: store)
        let last = DiffReport(old: snapshots[3], named: names[3], new: snapshots[4], named: names[4])
        // Missing: read as the rebuild, and no file is written by reading.
        #expect(try historyStore.current(snapshots: store) == expected)
        #expect(!FileManager.default.fileExists(atPath: historyStore.url.path), "reading writes no history file")
        #expect(try historyStore.record(last, newSnapshot: names[4], snapshots: store) == expected)
        // Damaged.
        try Data("{".utf8).write(to: historyStore.url)
        #expect(try historyStore.record(last, newSnapshot: names[4], snapshots: store) == expected)
        // Out of step: it stops two nights back (a run crashed after its snapshot, before its history).
        try historyStore.save(ChangeHistory(entries: [], latestSnapshot: names[2]))
        #expect(try historyStore.record(last, newSnapshot: names[4], snapshots: store) == expected)
        // Appended to, the same file out of step is rebuilt rather than added to.
        try historyStore.save(ChangeHistory(entries: [], latestSnapshot: names[2]))
        try historyStore.append(last, newSnapshot: names[4], snapshots: store)
        #expect(try historyStore.load() == expected)
        #expect(try historyStore.current(snapshots: store) == expected)
    }

    @Test(
        "a history whose people do not read back is rebuilt and saved by the run's read, so the night appended after it reads back whole"
    )
    func appendsAfterARepair() throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(stateDirectory: folder.url, keep: nil)
        let historyStore = ChangeHistoryStore(stateDirectory: folder.url)
        let nights = Self.nights()
        var previous: (snapshot: Snapshot, name: String)?
        for (night, people) in nights.enumerated() {
            let snapshot = SnapshotFixtures.snapshot(people, at: Self.march4 + Double(night) * Self.day)
            if night == nights.count - 1 {
                // Before the last night, a person line of the file is damaged. The run reads the history before it
                // saves its snapshot (as a build does): the file is rebuilt from the snapshots and saved.
                var lines = try String(decoding: Data(contentsOf: historyStore.url), as: UTF8.self)
                    .split(separator: "\n").map(String.init)
                #expect(lines.count > 2)
                lines[lines.count - 1] = "{"
                try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: historyStore.url)
                #expect(throws: SnapshotError.self) { try historyStore.load() }
                let read = try historyStore.current(snapshots: store)
                #expect(read == (try ChangeHistory.build(from: store)))
                #expect(try historyStore.load() == read, "the rebuilt history is saved")
            }
            let name = try store.save(snapshot).lastPathComponent
            let report = previous.map { DiffReport(old: $0.snapshot, named: $0.name, new: snapshot, named: name) }
            try historyStore.append(report, newSnapshot: name, snapshots: store)
            previous = (snapshot, name)
        }
        #expect(try historyStore.load() == ChangeHistory.build(from: store))
    }

    @Test("the history file is stable JSON that round-trips")
    func fileRoundTrip() throws {
        let folder = try SnapshotTestFolder()
        let historyStore = ChangeHistoryStore(stateDirectory: folder.url)
        let report = DiffFormatterTests.report()
        let history = ChangeHistory(entries: [report], latestSnapshot: report.new.name)
        try historyStore.save(history)
        let first = try Data(contentsOf: historyStore.url)
        try historyStore.save(history)
        #expect(try Data(contentsOf: historyStore.url) == first)
        #expect(try historyStore.load() == history)
        #expect(folder.names() == [ChangeHistoryStore.fileName])
    }

    @Test("changes are written exactly as JSONEncoder with sorted keys writes them, and read back")
    func changeCodec() throws {
        let report = DiffFormatterTests.report()
        var hostile = PersonChange(
            id: "x", displayName: SnapshotFixtures.hostile().displayName,
            fieldChanges: [FieldChange(field: "department", old: nil, new: SnapshotFixtures.hostile().displayName)])
        hostile.fieldChanges.append(FieldChange(field: "\u{0}weird", old: "a", new: nil))
        let encoder = Snapshot.canonicalEncoder()
        for change in report.diff.changed + [hostile] {
            var fast: [UInt8] = []
            SnapshotUserCodec.append(change, to: &fast)
            #expect(Data(fast) == (try encoder.encode(change)))
            let back = fast.withUnsafeBytes { try? SnapshotUserCodec.readChanges($0, range: 0..<fast.count) }
            #expect(back == [change])
        }
        let change = try #require(report.diff.changed.first)
        #expect(Mirror(reflecting: change).children.compactMap(\.label).sorted() == SnapshotUserCodec.changeKeys)
        let field = try #require(change.fieldChanges.first)
        #expect(Mirror(reflecting: field).children.compactMap(\.label).sorted() == SnapshotUserCodec.fieldChangeKeys)
    }

    @Test("the history file is one JSON record per line and reads back equal, hostile values included")
    func fileLayout() throws {
        let report = DiffFormatterTests.report()
        let quiet = DiffReport(
            old: report.new, new: DiffReport.Side(name: "c.json", takenAt: report.new.takenAt, people: 0),
            diff: DirectoryDiff(leavers: [SnapshotFixtures.hostile()]))
        let history = ChangeHistory(entries: [report, quiet], latestSnapshot: "c.json")
        let data = try ChangeHistoryFile.encode(history)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        // header, report 1 (header, 1 joiner, 1 leaver, 2 changes), report 2 (header, 1 leaver)
        #expect(lines.count == 1 + 5 + 2)
        for line in lines { #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any]) }
        #expect(try ChangeHistoryFile.decode(data, path: "h") == history)
    }

    @Test("a damaged or newer history file is an error, which record() answers by rebuilding")
    func damagedHistory() throws {
        let history = ChangeHistory(entries: [DiffFormatterTests.report()], latestSnapshot: "x")
        let data = try ChangeHistoryFile.encode(history)
        #expect(throws: SnapshotError.self) { try ChangeHistoryFile.decode(data.prefix(data.count - 40), path: "h") }
        #expect(throws: SnapshotError.self) { try ChangeHistoryFile.decode(data + Data("{}\n".utf8), path: "h") }
        // A report counting fewer than no joiners, its total of people lines unchanged: damage, not a crash.
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        var night = try #require(JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        let joiners = try #require(night["joiners"] as? Int)
        let leavers = try #require(night["leavers"] as? Int)
        night["joiners"] = -1
        night["leavers"] = joiners + leavers + 1
        lines[1] = String(
            decoding: try JSONSerialization.data(withJSONObject: night, options: .sortedKeys), as: UTF8.self)
        #expect(throws: SnapshotError.self) {
            try ChangeHistoryFile.decode(Data((lines.joined(separator: "\n") + "\n").utf8), path: "h")
        }
        let newer = Data(#"{"reports":0,"schemaVersion":99}"#.utf8)
        #expect(throws: SnapshotError.newerSchema(path: "h", found: 99, supported: 1)) {
            try ChangeHistoryFile.decode(newer, path: "h")
        }
    }
}
