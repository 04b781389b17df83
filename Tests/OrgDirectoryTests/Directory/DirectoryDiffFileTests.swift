import Foundation
import Testing

@testable import OrgDirectory

@Suite("Directory diff of snapshot files")
struct DirectoryDiffFileTests {
    /// A deterministic generator (SplitMix64), so a failing seed can be replayed.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Random joiners, leavers and edits (moves, phones, renames, extra properties, hostile values).
    static func mutate(_ people: [User], using random: inout Random) -> [User] {
        var result: [User] = []
        for var user in people {
            switch Int.random(in: 0..<20, using: &random) {
            case 0: continue  // leaves
            case 1: user.department = "Dept \(Int.random(in: 0..<5, using: &random))"
            case 2: user.businessPhones.reverse()
            case 3:
                user.manager = ManagerReference(
                    id: "manager-\(Int.random(in: 0..<9, using: &random))", displayName: nil)
            case 4: user.displayName += " \u{202e}\u{1b}"
            case 5: user.extra["city"] = nil
            case 6: user.mobilePhone = nil
            default: break
            }
            result.append(user)
        }
        for index in 0..<Int.random(in: 0..<8, using: &random) {
            result.append(SnapshotFixtures.person(10_000 + index * 7 + Int.random(in: 0..<7, using: &random)))
        }
        return result
    }

    @Test("file against file gives the same report as decoding both in full", arguments: 1...12)
    func matchesInMemory(seed: UInt64) throws {
        var random = Random(state: seed)
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(folder: folder.url, keep: nil)
        let old = SnapshotFixtures.snapshot(
            SnapshotFixtures.people(300) + [SnapshotFixtures.hostile()], at: 1_772_589_600)
        let new = SnapshotFixtures.snapshot(Self.mutate(old.people, using: &random), at: 1_772_676_000)
        let oldURL = try store.save(old)
        let newURL = try store.save(new)
        let fromFiles = try DiffReport.between(oldFile: oldURL, newFile: newURL)
        let inMemory = DiffReport(old: old, named: oldURL.lastPathComponent, new: new, named: newURL.lastPathComponent)
        #expect(fromFiles == inMemory)
        #expect(!fromFiles.diff.isEmpty)
    }

    @Test("identical files and empty files compare equal")
    func equalFiles() throws {
        let folder = try SnapshotTestFolder()
        let store = SnapshotStore(folder: folder.url, keep: nil)
        for people in [SnapshotFixtures.people(50), []] {
            let first = try store.save(SnapshotFixtures.snapshot(people, at: 1_772_589_600))
            let second = try store.save(SnapshotFixtures.snapshot(people, at: 1_772_676_000))
            #expect(try DiffReport.between(oldFile: first, newFile: second).diff.isEmpty)
        }
    }

    @Test("a pretty-printed file is compared after a full read")
    func nonCanonicalFile() throws {
        let folder = try SnapshotTestFolder()
        let old = SnapshotFixtures.snapshot(SnapshotFixtures.people(5))
        var people = old.people
        people[2].department = "Legal"
        let new = SnapshotFixtures.snapshot(people)
        let encoder = Snapshot.canonicalEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let oldURL = folder.url.appendingPathComponent("old.json")
        let newURL = folder.url.appendingPathComponent("new.json")
        try encoder.encode(old).write(to: oldURL)
        try new.canonicalData().write(to: newURL)
        let report = try DiffReport.between(oldFile: oldURL, newFile: newURL)
        #expect(report.diff.changed.map(\.id) == [people[2].id])
        #expect(report.diff.joiners.isEmpty && report.diff.leavers.isEmpty)
    }

    @Test("a canonical-looking file out of id order is noticed and read in full")
    func outOfOrder() throws {
        let folder = try SnapshotTestFolder()
        let old = SnapshotFixtures.snapshot(SnapshotFixtures.people(6))
        var people = old.people
        people[1].jobTitle = "Changed"
        people[4].jobTitle = "Changed too"
        let new = SnapshotFixtures.snapshot(people)
        // Swap two lines of the new file by hand: still valid JSON in the canonical layout, but not sorted.
        var lines = String(decoding: try new.canonicalData(), as: UTF8.self).components(separatedBy: "\n")
        lines.swapAt(2, 5)  // people[1] and people[4], both followed by a comma (line 0 is the header)
        let oldURL = folder.url.appendingPathComponent("old.json")
        let newURL = folder.url.appendingPathComponent("new.json")
        try old.canonicalData().write(to: oldURL)
        try Data(lines.joined(separator: "\n").utf8).write(to: newURL)
        let report = try DiffReport.between(oldFile: oldURL, newFile: newURL)
        #expect(Set(report.diff.changed.map(\.id)) == [people[1].id, people[4].id])
        #expect(report.diff.joiners.isEmpty && report.diff.leavers.isEmpty)
    }

    @Test("a file whose count disagrees with its people is an error, not a smaller directory")
    func countMismatch() throws {
        let folder = try SnapshotTestFolder()
        let old = SnapshotFixtures.snapshot(SnapshotFixtures.people(3))
        var metadata = old.metadata
        metadata.counts.people = 4
        var text = String(decoding: try old.canonicalData(), as: UTF8.self)
        text = text.replacingOccurrences(of: #""people":3"#, with: #""people":4"#)
        let oldURL = folder.url.appendingPathComponent("old.json")
        try Data(text.utf8).write(to: oldURL)
        let newURL = folder.url.appendingPathComponent("new.json")
        try old.canonicalData().write(to: newURL)
        #expect(throws: SnapshotError.self) { try DiffReport.between(oldFile: oldURL, newFile: newURL) }
    }
}
