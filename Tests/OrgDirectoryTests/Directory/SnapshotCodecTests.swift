import Foundation
import Testing

@testable import OrgDirectory

@Suite("Snapshot canonical form")
struct SnapshotCodecTests {
    @Test("identical input gives byte-identical files, whatever order people came in")
    func byteIdentical() throws {
        let people = SnapshotFixtures.people(50) + [SnapshotFixtures.hostile()]
        let first = try SnapshotFixtures.snapshot(people).canonicalData()
        let second = try SnapshotFixtures.snapshot(people.reversed()).canonicalData()
        let third = try SnapshotFixtures.snapshot(people.shuffled()).canonicalData()
        #expect(first == second)
        #expect(first == third)
    }

    @Test("people are sorted by id and counted in the metadata")
    func sortedAndCounted() {
        let snapshot = SnapshotFixtures.snapshot([SnapshotFixtures.person(3), SnapshotFixtures.person(1)])
        #expect(snapshot.people.map(\.id) == [SnapshotFixtures.person(1).id, SnapshotFixtures.person(3).id])
        #expect(snapshot.metadata.counts.people == 2)
    }

    @Test("the layout: metadata on the first line, one person per line, sorted keys, no escaped slashes")
    func layout() throws {
        let snapshot = SnapshotFixtures.snapshot(SnapshotFixtures.people(3))
        let text = String(decoding: try snapshot.canonicalData(), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 6)  // header, 3 people, footer, "" after the final newline
        #expect(lines[0].hasPrefix(#"{"metadata":{"counts":{"fetched":10,"people":3,"removedByRule":{"#))
        #expect(lines[0].contains(#""takenAt":"2026-03-04T02:00:00Z""#))
        #expect(lines[0].hasSuffix(#","people":["#))
        #expect(lines[1].hasPrefix(#"{"accountEnabled":true,"businessPhones":["+1 425 555 0000"]"#))
        #expect(lines[1].hasSuffix("},"))
        #expect(lines[3].hasSuffix("}"))
        #expect(lines[4] == "]}")
        #expect(lines[5].isEmpty)
        // Plain JSON as far as any other tool is concerned.
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
    }

    @Test("an empty directory is a valid snapshot that reads back empty")
    func emptySnapshot() throws {
        let snapshot = SnapshotFixtures.snapshot([])
        let data = try snapshot.canonicalData()
        #expect(try Snapshot.decode(data, path: "empty.json") == snapshot)
        #expect(try JSONSerialization.jsonObject(with: data) is [String: Any])
    }

    @Test("every person is written exactly as JSONEncoder with sorted keys writes it")
    func matchesJSONEncoder() throws {
        let encoder = Snapshot.canonicalEncoder()
        var sparse = User(id: "sparse", userPrincipalName: "s@x", displayName: "S")
        sparse.manager = ManagerReference(id: "m", displayName: nil)
        for user in SnapshotFixtures.people(5) + [SnapshotFixtures.hostile(), sparse] {
            var fast: [UInt8] = []
            SnapshotUserCodec.append(user, to: &fast)
            let reference = try encoder.encode(user)
            #expect(Data(fast) == reference, "\(String(decoding: reference, as: UTF8.self))")
        }
    }

    @Test("hostile strings survive the round trip unchanged")
    func hostileRoundTrip() throws {
        let snapshot = SnapshotFixtures.snapshot([SnapshotFixtures.hostile()] + SnapshotFixtures.people(3))
        let decoded = try Snapshot.decode(snapshot.canonicalData(), path: "x.json")
        #expect(decoded == snapshot)
    }

    @Test("the fast reader finds a string's end, escapes and control characters wherever they fall in a 16-byte run")
    func stringsReadWhereverTheirSpecialBytesFall() throws {
        for special in ["\"", "\\", "\n", "\u{1}", "é", "/", "€uro", ""] {
            for position in 0..<40 {
                var user = SnapshotFixtures.people(1)[0]
                user.displayName = String(repeating: "a", count: position) + special + String(repeating: "b", count: 20)
                user.jobTitle = String(repeating: "c", count: position) + special
                var line: [UInt8] = []
                SnapshotUserCodec.append(user, to: &line)
                // Through the codec's own reader, not the JSONDecoder it falls back to.
                let read = try line.withUnsafeBytes { try SnapshotUserCodec.readUsers($0, range: 0..<line.count) }
                #expect(read == [user], "\(special.debugDescription) after \(position) bytes")
            }
        }
    }

    @Test("a chunk's lines are its line breaks, plus one for a last line without one")
    func linesCounted() {
        for text in ["", "\n", "a", "a\n", "a\nb", "a\nb\n", "\n\n\n", String(repeating: "xy\n", count: 1_000) + "z"] {
            let bytes = Array(text.utf8)
            let expected = bytes.filter { $0 == 0x0A }.count + (bytes.last.map { $0 != 0x0A } == true ? 1 : 0)
            #expect(bytes.withUnsafeBytes { Snapshot.lineCount($0) } == expected, "\(text.prefix(8).debugDescription)")
        }
    }

    @Test("a large snapshot is read in parallel chunks into the same people")
    func largeRoundTrip() throws {
        let snapshot = SnapshotFixtures.snapshot(SnapshotFixtures.people(3_000))
        let data = try snapshot.canonicalData()
        #expect(data.count > 4 * 65_536)  // enough for several chunks
        #expect(try Snapshot.decode(data, path: "big.json") == snapshot)
    }

    @Test("people not one to a line (two on one, a blank line) are still all read, through the general path")
    func unevenLines() throws {
        let snapshot = SnapshotFixtures.snapshot(SnapshotFixtures.people(3_000))
        let text = String(decoding: try snapshot.canonicalData(), as: UTF8.self)
        var lines = text.components(separatedBy: "\n")
        lines[10] += lines[11]  // two people on one line
        lines.remove(at: 11)
        lines.insert("", at: 2_000)  // and a blank line further on
        let uneven = Data(lines.joined(separator: "\n").utf8)
        #expect(try Snapshot.decode(uneven, path: "uneven.json") == snapshot)
    }

    @Test("the codec knows every stored property of User (a new field must be added to it)")
    func codecCoversUser() {
        let labels = Mirror(reflecting: SnapshotFixtures.person(1)).children.compactMap(\.label)
        #expect(labels.sorted() == SnapshotUserCodec.keys)
    }

    @Test("a file another tool pretty-printed still loads, through the slow path")
    func prettyPrintedLoads() throws {
        let snapshot = SnapshotFixtures.snapshot(SnapshotFixtures.people(4) + [SnapshotFixtures.hostile()])
        let encoder = Snapshot.canonicalEncoder()
        encoder.outputFormatting = [.prettyPrinted]
        let pretty = try encoder.encode(snapshot)
        #expect(try Snapshot.decode(pretty, path: "pretty.json") == snapshot)
    }

    @Test("unknown keys in a person fall back to JSONDecoder instead of failing")
    func unknownKeyFallsBack() throws {
        let snapshot = SnapshotFixtures.snapshot(SnapshotFixtures.people(2))
        var text = String(decoding: try snapshot.canonicalData(), as: UTF8.self)
        text = text.replacingOccurrences(of: #"{"accountEnabled":true,"#, with: #"{"accountEnabled":true,"zzz":1,"#)
        #expect(try Snapshot.decode(Data(text.utf8), path: "x.json") == snapshot)
    }

    @Test("a newer schema version is refused with a message naming both versions")
    func newerSchemaRefused() throws {
        var metadata = SnapshotFixtures.metadata()
        metadata.schemaVersion = Snapshot.currentSchemaVersion + 1
        let data = try Snapshot(metadata: metadata, people: SnapshotFixtures.people(2)).canonicalData()
        #expect(throws: SnapshotError.newerSchema(path: "new.json", found: 2, supported: 1)) {
            try Snapshot.decode(data, path: "new.json")
        }
        // Even when the rest of the file is in a shape this version does not understand.
        let alien = Data(#"{"metadata":{"schemaVersion":7,"shape":"unknown"},"everyone":{}}"#.utf8)
        #expect(throws: SnapshotError.newerSchema(path: "alien.json", found: 7, supported: 1)) {
            try Snapshot.decode(alien, path: "alien.json")
        }
        let message = SnapshotError.newerSchema(path: "p", found: 7, supported: 1).errorDescription ?? ""
        #expect(message.contains("version 7") && message.contains("upgrade orgdir"))
    }

    @Test(
        "damaged files are refused, never read as a smaller directory",
        arguments: [
            "truncated mid-person", "truncated after a line", "count mismatch", "not JSON", "empty file",
        ])
    func damagedRefused(damage: String) throws {
        let data = try SnapshotFixtures.snapshot(SnapshotFixtures.people(5)).canonicalData()
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let damaged: String
        switch damage {
        case "truncated mid-person": damaged = String(text.prefix(text.count / 2))
        case "truncated after a line": damaged = lines.prefix(4).joined(separator: "\n") + "\n"
        case "count mismatch":
            damaged = (lines.prefix(3) + ["]}", ""]).joined(separator: "\n").replacingOccurrences(
                of: "},\n]}", with: "}\n]}")
        case "not JSON": damaged = "hello"
        default: damaged = ""
        }
        #expect(throws: SnapshotError.self) { try Snapshot.decode(Data(damaged.utf8), path: "bad.json") }
    }

    @Test("takenAt keeps whole seconds, so a snapshot read back equals the one written")
    func wholeSeconds() throws {
        var metadata = SnapshotFixtures.metadata()
        metadata = SnapshotMetadata(
            tenant: metadata.tenant, graphHost: metadata.graphHost,
            takenAt: Date(timeIntervalSince1970: 1_772_589_600.75))
        #expect(metadata.takenAt == Date(timeIntervalSince1970: 1_772_589_600))
        let snapshot = Snapshot(metadata: metadata, people: [])
        #expect(try Snapshot.decode(snapshot.canonicalData(), path: "x") == snapshot)
    }

    @Test("the people section is the same bytes whatever the metadata, and is the file minus header and footer")
    func peopleSection() throws {
        let people = SnapshotFixtures.people(20) + [SnapshotFixtures.hostile()]
        let full = SnapshotFixtures.snapshot(people, at: 1_772_589_600)
        var delta = Snapshot(metadata: SnapshotFixtures.metadata(at: 1_772_676_000, syncKind: .delta), people: people)
        delta.metadata.fingerprint = "other"
        #expect(full.canonicalPeopleData() == delta.canonicalPeopleData())
        let file = try full.canonicalData()
        let body = full.canonicalPeopleData()
        let headerEnd = try #require(file.firstIndex(of: UInt8(ascii: "\n")))
        #expect(file[(headerEnd + 1)..<(file.endIndex - 3)] == body)
    }

    @Test("more people than one encoding batch come out in order")
    func severalBatches() throws {
        let people = SnapshotFixtures.people(4_096 * ProcessInfo.processInfo.activeProcessorCount + 7)
        let snapshot = SnapshotFixtures.snapshot(people)
        let data = try snapshot.canonicalData()
        #expect(try Snapshot.decode(data, path: "batches.json").people == snapshot.people)
        // The same bytes as one person at a time through JSONEncoder would give.
        let encoder = Snapshot.canonicalEncoder()
        let sample = try people.suffix(3).map { try encoder.encode($0) }
        let text = String(decoding: data, as: UTF8.self)
        for line in sample { #expect(text.contains(String(decoding: line, as: UTF8.self))) }
    }

    @Test("lastFullSync is takenAt for a full sync and carried over by a delta run")
    func lastFullSync() {
        let full = SnapshotMetadata(tenant: "t", graphHost: "h", takenAt: Date(timeIntervalSince1970: 100.5))
        #expect(full.lastFullSync == Date(timeIntervalSince1970: 100))
        let delta = SnapshotMetadata(
            tenant: "t", graphHost: "h", takenAt: Date(timeIntervalSince1970: 200), syncKind: .delta,
            lastFullSync: full.lastFullSync)
        #expect(delta.lastFullSync == Date(timeIntervalSince1970: 100))
        #expect(
            SnapshotMetadata(tenant: "t", graphHost: "h", takenAt: Date(), syncKind: .delta).lastFullSync == nil)
    }
}
