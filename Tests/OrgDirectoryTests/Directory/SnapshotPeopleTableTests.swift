import Foundation
import Testing

@testable import OrgDirectory

/// The snapshot's people kept in a binary table beside it: read back as the very people written, trusted only beside
/// the snapshot file it names, and written from the table before as the same bytes as written from scratch.
@Suite("Snapshot people table")
struct SnapshotPeopleTableTests {
    /// Every kind of value a field can hold: none, empty lists, several phones, no manager name, no account flag,
    /// `extra` empty and with keys that sort in ways a locale would not, hostile text.
    static func varied() -> [User] {
        var people = SnapshotFixtures.people(40) + [SnapshotFixtures.everyField, SnapshotFixtures.hostile()]
        people[3] = User(id: people[3].id, userPrincipalName: "bare@contoso.example", displayName: "Bare")
        people[5].manager = ManagerReference(id: "m-9", displayName: nil)
        people[6].accountEnabled = nil
        people[7].accountEnabled = false
        people[8].businessPhones = ["+1 555 0100", "", "+1 555 0102"]
        people[9].extra = [:]
        people[10].extra = ["z": "", "Z": "é", "a": "\u{0}"]
        people[11].displayName = String(repeating: "Ünïcødé ", count: 40)
        return Snapshot.canonicallySorted(people)
    }

    /// The stamp of a snapshot that is not on disk (the table's own checks only).
    static func stamp(_ count: Int, name: String = "2026-03-04T05-06-07Z.json") -> SnapshotPeopleTable.Stamp {
        SnapshotPeopleTable.Stamp(
            snapshot: name, size: 46_000_123, modifiedSeconds: 1_772_589_600, modifiedNanoseconds: 123_456_789,
            count: count)
    }

    /// The table's bytes as `write` hands them over; with `previous`, copying from that table the people
    /// `SnapshotLineReuse.plan` finds unchanged (by `unequal`, the diff's ids, else by comparing every pair).
    static func bytes(
        _ people: [User], stamp: SnapshotPeopleTable.Stamp,
        previous: (source: SnapshotPeopleTable.Source, people: [User])? = nil,
        unequal: Set<String>? = nil, chunkSize: Int = SnapshotPeopleTable.chunkSize
    ) -> [UInt8] {
        var written: [UInt8] = []
        let plan = previous.map {
            (source: $0.source, pieces: SnapshotLineReuse.plan(old: $0.people, new: people, unequal: unequal))
        }
        let (size, failed) = PieceBuffer.writing(pieceSize: 1 << 20) { bytes in
            written += bytes
            return nil
        } _: { out throws(PieceWriteFailure) in
            try SnapshotPeopleTable.write(people, stamp: stamp, previous: plan, chunkSize: chunkSize, to: &out)
        }
        #expect(size == written.count && failed == nil)
        return written
    }

    @Test("a write that fails stops there and says why, having handed over no more than it wrote")
    func failedWriteStops() {
        let people = Self.varied()
        var calls = 0
        let (size, failed) = PieceBuffer.writing(pieceSize: 1 << 20) { bytes in
            calls += 1
            return bytes.count > 0 ? ENOSPC : nil
        } _: { out throws(PieceWriteFailure) in
            try SnapshotPeopleTable.write(
                people, stamp: Self.stamp(people.count), previous: nil, chunkSize: 1, to: &out)
        }
        #expect(failed == ENOSPC && size == 0 && calls == 1)
    }

    /// `bytes` saved as a file in `folder` and read back expecting `stamp`.
    static func readBack(
        _ bytes: [UInt8], in folder: URL, expecting stamp: SnapshotPeopleTable.Stamp
    ) throws -> (people: [User], source: SnapshotPeopleTable.Source)? {
        let url = folder.appendingPathComponent("table-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        return SnapshotPeopleTable.read(path: url.path, expecting: stamp)
    }

    @Test("people read from the table are the people written, every field of every kind included, over many chunks")
    func readBackIsWhatWasWritten() throws {
        let folder = try SnapshotTestFolder()
        let people = Self.varied()
        for chunkSize in [1, 5, 7, people.count - 1, people.count, SnapshotPeopleTable.chunkSize] {
            let stamp = Self.stamp(people.count)
            let read = try #require(
                try Self.readBack(
                    Self.bytes(people, stamp: stamp, chunkSize: chunkSize), in: folder.url, expecting: stamp),
                "chunks of \(chunkSize)")
            #expect(read.people == people, "chunks of \(chunkSize)")
            #expect(read.people.map(\.extra) == people.map(\.extra))
            #expect(read.source.starts.count == people.count + 1)
        }
    }

    @Test("a table written from the one before, copying unchanged people's entries, is byte for byte one from scratch")
    func copiedEntriesGiveTheSameBytes() throws {
        let folder = try SnapshotTestFolder()
        var generator = ByteKeyOrderTests.SplitMix(state: 29)
        let everyone = Snapshot.canonicallySorted(Self.varied() + SnapshotFixtures.people(200).suffix(120))
        for round in 0..<30 {
            // A random previous set, then a random share of it changed, left and joined (none, some, all); chunks of a
            // few people so that chunks begin inside copied runs, at their first entry, and in encoded people.
            let before = everyone.filter { _ in Int.random(in: 0..<4, using: &generator) != 0 }
            let chunkSize = [1, 3, 7, 64][round % 4]
            let beforeStamp = Self.stamp(before.count, name: "before.json")
            let previous = try #require(
                try Self.readBack(
                    Self.bytes(before, stamp: beforeStamp, chunkSize: chunkSize), in: folder.url,
                    expecting: beforeStamp))
            let churn = [0, 1, 5, 30, 100][round % 5]
            let next = SnapshotFixtures.night(
                after: before, among: everyone, churn: churn, round: round, using: &generator)
            let stamp = Self.stamp(next.count)
            let fromScratch = Self.bytes(next, stamp: stamp, chunkSize: chunkSize)
            var unequal: Set<String> = []
            _ = DirectoryDiff.between(before, next, unequal: &unequal)
            let copied = Self.bytes(
                next, stamp: stamp, previous: (previous.source, previous.people), unequal: unequal,
                chunkSize: chunkSize)
            #expect(copied == fromScratch, "round \(round)")
            // And without the diff's ids: every pair compared.
            #expect(
                Self.bytes(next, stamp: stamp, previous: (previous.source, previous.people), chunkSize: chunkSize)
                    == fromScratch, "round \(round), compared")
            #expect(try Self.readBack(copied, in: folder.url, expecting: stamp)?.people == next, "round \(round)")
        }
    }

    @Test("a table is read only beside the snapshot it names: its name, size, time and number of people, by this build")
    func otherSnapshotsTableIsNotRead() throws {
        let folder = try SnapshotTestFolder()
        let people = Self.varied()
        let stamp = Self.stamp(people.count)
        let bytes = Self.bytes(people, stamp: stamp)
        #expect(try Self.readBack(bytes, in: folder.url, expecting: stamp) != nil)
        var others: [SnapshotPeopleTable.Stamp] = []
        for change in 0..<5 {
            var other = stamp
            switch change {
            case 0: other.snapshot = "2026-03-05T05-06-07Z.json"
            case 1: other.size += 1
            case 2: other.modifiedSeconds += 1
            case 3: other.modifiedNanoseconds -= 1
            default: other.count -= 1
            }
            others.append(other)
        }
        for other in others {
            #expect(try Self.readBack(bytes, in: folder.url, expecting: other) == nil, "\(other)")
        }
        // Another build's table: its context differs (the bytes right after the header line).
        var otherBuild = bytes
        let contextAt = Array("orgdir-snapshot-people\n".utf8).count
        otherBuild[contextAt] ^= 0xFF
        #expect(try Self.readBack(otherBuild, in: folder.url, expecting: stamp) == nil)
    }

    @Test("a table cut short or with a damaged length reads as none, never as a crash or as other people")
    func damagedTableReadsAsNone() throws {
        let folder = try SnapshotTestFolder()
        let people = Self.varied()
        let stamp = Self.stamp(people.count)
        let bytes = Self.bytes(people, stamp: stamp, chunkSize: 8)
        for cut in [1, 8, 9, 100, bytes.count / 2, bytes.count - 9] {
            #expect(
                try Self.readBack(Array(bytes.dropLast(cut)), in: folder.url, expecting: stamp) == nil, "cut \(cut)")
        }
        // The first entry's id length made longer (its bytes then run into the next field, or past the chunk), and
        // the trailer's chunk size, chunk count and place: the entries no longer end where their chunks do.
        let entriesStart = Array("orgdir-snapshot-people\n".utf8).count + 16 + 4 + stamp.snapshot.utf8.count + 8 * 3 + 4
        let trailer = bytes.suffix(8).reversed().reduce(0) { $0 << 8 | Int($1) }
        #expect(trailer > entriesStart && trailer < bytes.count - 8)
        for offset in [entriesStart, entriesStart + 1, entriesStart + 3, trailer, trailer + 4, bytes.count - 8] {
            var damaged = bytes
            damaged[offset] = damaged[offset] &+ 1
            #expect(try Self.readBack(damaged, in: folder.url, expecting: stamp) == nil, "byte \(offset)")
        }
    }

    @Test("a snapshot is read from its table when the table names it, and decoded from its JSON once the file changed")
    func loadTakesTheTableOnlyForItsSnapshot() throws {
        let folder = try SnapshotTestFolder()
        let people = Self.varied()
        let snapshot = Snapshot(metadata: SnapshotFixtures.metadata(), people: people)
        let name = "2026-03-04T05-06-07Z.json"
        let url = folder.url.appendingPathComponent(name)
        try snapshot.canonicalData().write(to: url)
        let stamp = try #require(SnapshotPeopleTable.Stamp(file: url.path, snapshot: name, count: people.count))
        let table = folder.url.appendingPathComponent(SnapshotPeopleTable.fileName)
        try Data(Self.bytes(people, stamp: stamp)).write(to: table)

        let (fromTable, source) = try SnapshotStore.loadWithSource(at: url, peopleTable: table)
        #expect(source?.table != nil)
        #expect(fromTable == snapshot)
        // The same snapshot decoded, as without a table.
        let (decoded, plain) = try SnapshotStore.loadWithSource(at: url)
        #expect(plain?.table == nil)
        #expect(decoded == fromTable)

        // The snapshot edited by hand (one more person, so another size), or only touched: the JSON is the record.
        var edited = people
        edited.append(SnapshotFixtures.person(900))
        try Snapshot(metadata: SnapshotFixtures.metadata(), people: edited).canonicalData().write(to: url)
        let (afterEdit, editedSource) = try SnapshotStore.loadWithSource(at: url, peopleTable: table)
        #expect(editedSource?.table == nil)
        #expect(afterEdit.people == Snapshot.canonicallySorted(edited))
        try snapshot.canonicalData().write(to: url)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: url.path)
        let (_, touched) = try SnapshotStore.loadWithSource(at: url, peopleTable: table)
        #expect(touched?.table == nil)
    }

    @Test("a table that names its snapshot but whose people disagree with the snapshot's lines is not used")
    func tableDisagreeingWithTheLinesIsNotUsed() throws {
        let folder = try SnapshotTestFolder()
        func saved(_ people: [User], tablePeople: [User], named name: String) throws -> SnapshotSource? {
            let snapshot = Snapshot(metadata: SnapshotFixtures.metadata(), people: people)
            let url = folder.url.appendingPathComponent(name)
            try snapshot.canonicalData().write(to: url)
            let stamp = try #require(SnapshotPeopleTable.Stamp(file: url.path, snapshot: name, count: people.count))
            let table = folder.url.appendingPathComponent("table-\(name).bin")
            try Data(Self.bytes(tablePeople, stamp: stamp)).write(to: table)
            let (loaded, source) = try SnapshotStore.loadWithSource(at: url, peopleTable: table)
            #expect(loaded.people == snapshot.people, "the snapshot's own people either way")
            return source
        }
        let people = Self.varied()
        // One title changed in the table, the same length: every length still fits, and every line is checked.
        var wrong = people
        wrong[20].jobTitle = String((people[20].jobTitle ?? "x").reversed()) + "!"
        #expect(try saved(people, tablePeople: wrong, named: "small.json")?.table == nil)
        #expect(try saved(people, tablePeople: people, named: "small-right.json")?.table != nil)
        // A snapshot of thousands is sampled: its right table is used.
        let many = Snapshot.canonicallySorted(SnapshotFixtures.people(3_000))
        #expect(try saved(many, tablePeople: many, named: "many.json")?.table != nil)
        var shifted = many
        for index in shifted.indices { shifted[index].officeLocation = "Moved" }
        #expect(try saved(many, tablePeople: shifted, named: "many-wrong.json")?.table == nil)
    }
}
