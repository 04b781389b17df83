import Foundation
import Testing

@testable import OrgDirectory

/// A run writes its render fingerprints in id order, and the next run merges that file with its people instead of
/// mapping every id: the fingerprints it finds and the stale slugs it names must be the ones a map finds.
@Suite("Render fingerprints in id order")
struct RenderFingerprintIDOrderTests {
    private static let output = "/srv/Output"

    /// `RenderFingerprints.decode` of bytes held in an array.
    private func decoded(_ bytes: [UInt8], slugs: Bool = true) -> RenderFingerprints? {
        bytes.withUnsafeBytes { RenderFingerprints.decode($0, output: Self.output, slugs: slugs) }
    }

    @Test("a render's fingerprints are written in its directory's id order and read back without a map of ids")
    func writtenInIDOrderAndReadAsLines() throws {
        let users = SiteBenchmarkDirectory.users(count: 300)
        let directory = SiteDirectory(users: users, hiding: [])
        let order = try #require(directory.displayPositionsInIDOrder())
        #expect(order.map { directory.people[$0].user.id } == users.map(\.id))
        // One entry per display position, in display order, in chunks as the render makes them.
        let entries = directory.people.enumerated().map { position, person in
            (person.user.id, RenderFingerprint(high: UInt64(position), low: 7), person.slug)
        }
        let made = RenderFingerprints(
            output: Self.output,
            inOrder: stride(from: 0, to: entries.count, by: 64).map {
                Array(entries[$0..<min($0 + 64, entries.count)])
            }, idOrder: order)
        let ids = String(decoding: made.encoded(), as: UTF8.self).split(separator: "\n").dropFirst(4).map {
            String($0.split(separator: "/", maxSplits: 1)[1])
        }
        #expect(ids == users.map(\.id), "lines in id order")
        let read = try #require(decoded(made.encoded()))
        #expect(read.idOrdered != nil, "ids ascending: kept as lines")
        #expect(read == made.indexed())
        let found = read.byPosition(in: directory, idOrder: order)
        #expect(found == entries.map { Optional($0.1) })
        #expect(read.staleSlugs(in: directory, idOrder: order) == [])
    }

    @Test("merged with a changed directory, the lines give each person's fingerprint and the stale slugs a map gives")
    func mergeAgreesWithAMap() throws {
        var generator = ByteKeyOrderTests.SplitMix(state: 5)
        let everyone = SiteBenchmarkDirectory.users(count: 400)
        for round in 0..<12 {
            // The site before: a random share of everyone, with slugs of their own; some of them renamed since.
            let before = everyone.filter { _ in Int.random(in: 0..<5, using: &generator) != 0 }
            var now = everyone.filter { _ in Int.random(in: 0..<5, using: &generator) != 0 }
            for index in now.indices where Int.random(in: 0..<20, using: &generator) == 0 {
                now[index].displayName += " Renamed"
            }
            let old = SiteDirectory(users: before, hiding: [])
            let directory = SiteDirectory(users: now, hiding: [])
            let oldEntries = old.people.map { person in
                (person.user.id, RenderFingerprint(high: UInt64(person.index), low: UInt64(round)), person.slug)
            }
            let made = RenderFingerprints(
                output: Self.output, inOrder: [oldEntries], idOrder: old.displayPositionsInIDOrder())
            let read = try #require(decoded(made.encoded()))
            #expect(read.idOrdered != nil)
            let order = try #require(directory.displayPositionsInIDOrder())
            let byID = Dictionary(uniqueKeysWithValues: oldEntries.map { ($0.0, $0.1) })
            #expect(
                read.byPosition(in: directory, idOrder: order) == directory.people.map { byID[$0.user.id] },
                "round \(round)")
            let expected = Set(oldEntries.map(\.2)).subtracting(directory.people.map(\.slug))
            #expect(read.staleSlugs(in: directory, idOrder: order) == expected, "round \(round)")
            #expect(read.staleSlugs(in: directory) == expected, "the order worked out when not given")
        }
    }

    @Test("a file in another order, as older runs wrote, is still read, through a map of ids")
    func otherOrderIsReadThroughAMap() throws {
        let fingerprint = RenderFingerprint(high: 1, low: 1)
        let made = RenderFingerprints(
            output: Self.output, inOrder: [[("z", fingerprint, "zed-1"), ("a", fingerprint, "a-1")]])
        let read = try #require(decoded(made.encoded()))
        #expect(read.idOrdered == nil)
        #expect(read.fingerprint(of: "z") == fingerprint)
        #expect(read.count == 2)
    }

    @Test("a directory of users not sorted by id has no id order, and fingerprints are found by id")
    func unsortedDirectoryHasNoIDOrder() throws {
        let users = Array(SiteBenchmarkDirectory.users(count: 20).reversed())
        let directory = SiteDirectory(users: users, hiding: [])
        #expect(directory.displayPositionsInIDOrder() == nil)
        let entries = directory.people.map { ($0.user.id, RenderFingerprint(high: 2, low: 3), $0.slug) }
        let read = try #require(
            decoded(RenderFingerprints(output: Self.output, inOrder: [entries]).encoded()))
        #expect(read.byPosition(in: directory, idOrder: nil).allSatisfy { $0 == RenderFingerprint(high: 2, low: 3) })
    }
}
