import Foundation
import Testing

@testable import OrgDirectory

/// A snapshot written from the one before copies the lines of unchanged people from that file, and its bytes are
/// exactly those of the same snapshot encoded from scratch.
@Suite("Snapshot line reuse")
struct SnapshotLineReuseTests {
    /// `people` as this orgdir's snapshot, saved to a file and read back with its source.
    private func saved(
        _ people: [User], in folder: URL, version: String = OrgDirVersion.current
    ) throws -> SnapshotSource {
        var metadata = SnapshotFixtures.metadata()
        metadata.orgdirVersion = version
        let url = folder.appendingPathComponent("previous-\(UUID().uuidString).json")
        try Snapshot(metadata: metadata, people: people).canonicalData().write(to: url)
        let (_, source) = try SnapshotStore.loadWithSource(at: url)
        return try #require(source)
    }

    /// The bytes of `snapshot` written reusing `previous`.
    private func written(_ snapshot: Snapshot, reusing previous: SnapshotSource) throws -> Data {
        var data = Data()
        try snapshot.writeCanonical(reusing: previous) { (piece: Data) throws(SnapshotError) in data.append(piece) }
        return data
    }

    @Test("the plan copies unchanged people in runs, encodes joiners and changed people, and skips leavers")
    func planCopiesRunsAndEncodesTheRest() {
        let old = SnapshotFixtures.people(6)
        var new = old
        new[2].jobTitle = "Director"  // changed
        new.remove(at: 4)  // left
        new.append(SnapshotFixtures.person(9))  // joined, sorts last
        #expect(
            SnapshotLineReuse.plan(old: old, new: new) == [
                .copied(0..<2), .encoded(2), .copied(3..<4), .copied(5..<6), .encoded(5),
            ])
        #expect(SnapshotLineReuse.plan(old: old, new: old) == [.copied(0..<6)])
        #expect(SnapshotLineReuse.plan(old: [], new: Array(old.prefix(2))) == [.encoded(0), .encoded(1)])
        #expect(SnapshotLineReuse.plan(old: old, new: []) == [])
        // With the ids the diff found unequal, nobody is compared again, and the plan is the same.
        var unequal: Set<String> = []
        _ = DirectoryDiff.between(old, new, unequal: &unequal)
        #expect(unequal == [new[2].id])
        #expect(
            SnapshotLineReuse.plan(old: old, new: new, unequal: unequal) == SnapshotLineReuse.plan(old: old, new: new))
        // A list out of id order: whoever comes after a later id is encoded, the changed person never copied.
        let outOfOrder = [new[3], new[2], new[0], new[1]]
        #expect(
            SnapshotLineReuse.plan(old: old, new: outOfOrder, unequal: unequal) == [
                .copied(3..<4), .encoded(1), .encoded(2), .encoded(3),
            ])
    }

    @Test("written from the snapshot before, the file is byte for byte the one encoded from scratch")
    func reusedLinesGiveTheCanonicalBytes() throws {
        let folder = try SnapshotTestFolder()
        var generator = ByteKeyOrderTests.SplitMix(state: 23)
        let everyone = SnapshotFixtures.people(120) + [SnapshotFixtures.hostile()]
        for round in 0..<40 {
            // Each round: a random previous set, then a random share of it changed, left and joined, sometimes
            // none and sometimes all; the first and last people are among those that change now and then.
            let previousPeople = everyone.filter { _ in Int.random(in: 0..<4, using: &generator) != 0 }
            let previous = try saved(previousPeople, in: folder.url)
            let churn = [0, 1, 5, 30, 100][round % 5]
            let next = SnapshotFixtures.night(
                after: previousPeople, among: everyone, churn: churn, round: round, using: &generator)
            let snapshot = Snapshot(metadata: SnapshotFixtures.metadata(), people: next)
            #expect(try written(snapshot, reusing: previous) == snapshot.canonicalData(), "round \(round)")
            // The same with the ids a run's diff finds unequal, as a build hands them over.
            var knowing = previous
            knowing.unequal = []
            _ = DirectoryDiff.between(previous.snapshot.people, snapshot.people, unequal: &knowing.unequal!)
            #expect(try written(snapshot, reusing: knowing) == snapshot.canonicalData(), "round \(round), diff known")
        }
    }

    /// `people` saved as written by `version`, with `edit` applied to the people lines (valid JSON, other bytes),
    /// read back with its source.
    private func savedEdited(
        _ people: [User], version: String, in folder: URL, edit: (inout [String]) -> Void
    ) throws -> SnapshotSource {
        var metadata = SnapshotFixtures.metadata()
        metadata.orgdirVersion = version
        let canonical = try Snapshot(metadata: metadata, people: people).canonicalData()
        var lines = String(decoding: canonical, as: UTF8.self).components(separatedBy: "\n")
        var body = Array(lines[1..<(lines.count - 2)])
        edit(&body)
        lines.replaceSubrange(1..<(lines.count - 2), with: body)
        let url = folder.appendingPathComponent("\(UUID().uuidString).json")
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        let (_, loaded) = try SnapshotStore.loadWithSource(at: url)
        return try #require(loaded)
    }

    /// A line laid out as another encoder might: the same person, other bytes.
    private static func relaid(_ line: inout String) {
        line = line.replacingOccurrences(of: #""accountEnabled":true,"#, with: #""accountEnabled" : true,"#)
    }

    @Test("lines of a file this orgdir wrote are copied as they are, not encoded again")
    func linesAreCopiedAsTheyAre() throws {
        let folder = try SnapshotTestFolder()
        let people = SnapshotFixtures.people(130)
        // Line 1 is not among the lines `encodesAlike` samples (every second of 130): copied, its odd layout stays.
        let previous = try savedEdited(people, version: OrgDirVersion.current, in: folder.url) { Self.relaid(&$0[1]) }
        #expect(SnapshotLineReuse.sampleSize < 130 && 130 / SnapshotLineReuse.sampleSize == 2)
        let again = Snapshot(metadata: SnapshotFixtures.metadata(), people: people)
        let text = String(decoding: try written(again, reusing: previous), as: UTF8.self)
        #expect(text.contains(#""accountEnabled" : true,"#), "the line was copied")
        #expect(text != String(decoding: try again.canonicalData(), as: UTF8.self))
    }

    @Test("nothing is copied from another orgdir version's file, or from one whose lines this build encodes otherwise")
    func otherEncodersLinesAreNotCopied() throws {
        let folder = try SnapshotTestFolder()
        let people = SnapshotFixtures.people(130)
        let again = Snapshot(metadata: SnapshotFixtures.metadata(), people: people)
        let older = try savedEdited(people, version: "0.0.1-older", in: folder.url) { Self.relaid(&$0[1]) }
        #expect(!older.isReusable)
        #expect(try written(again, reusing: older) == again.canonicalData())
        // The same version, but every line laid out otherwise (a development build's encoder): the sample sees it.
        let otherBuild = try savedEdited(people, version: OrgDirVersion.current, in: folder.url) { lines in
            for index in lines.indices { Self.relaid(&lines[index]) }
        }
        #expect(otherBuild.isReusable)
        #expect(try written(again, reusing: otherBuild) == again.canonicalData())
    }

    @Test("object ranges are refused when the file's lines do not match its people one for one")
    func objectRangesNeedOneLinePerPerson() throws {
        let folder = try SnapshotTestFolder()
        let source = try saved(SnapshotFixtures.people(4), in: folder.url)
        let ranges = try #require(source.objectRanges())
        #expect(ranges.count == 4)
        #expect(source.objectRanges(count: 5) == nil)
        #expect(source.objectRanges(count: 3) == nil)
    }
}
