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
        let ids = String(decoding: made.encoded(), as: UTF8.self).split(separator: "\n").dropFirst(6).map {
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

    /// Two random shares of `everyone`, for a site before and one now, one in `renamedOneIn` of now's people renamed
    /// since.
    private static func beforeAndNow(
        _ everyone: [User], renamedOneIn: Int, using generator: inout ByteKeyOrderTests.SplitMix
    ) -> (before: [User], now: [User]) {
        let before = everyone.filter { _ in Int.random(in: 0..<5, using: &generator) != 0 }
        var now = everyone.filter { _ in Int.random(in: 0..<5, using: &generator) != 0 }
        for index in now.indices where Int.random(in: 0..<renamedOneIn, using: &generator) == 0 {
            now[index].displayName += " Renamed"
        }
        return (before, now)
    }

    @Test("merged with a changed directory, the lines give each person's fingerprint and the stale slugs a map gives")
    func mergeAgreesWithAMap() throws {
        var generator = ByteKeyOrderTests.SplitMix(state: 5)
        let everyone = SiteBenchmarkDirectory.users(count: 400)
        for round in 0..<12 {
            // The site before: a random share of everyone, with slugs of their own; some of them renamed since.
            let (before, now) = Self.beforeAndNow(everyone, renamedOneIn: 20, using: &generator)
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
            // From the lines a render merged already: the same, whether every slug is compared or only those of
            // people whose slug nothing vouches for (here: anyone not renamed, whose line has their slug).
            let lines = try #require(read.byPosition(in: directory, idOrder: order, keepingLines: true).lines)
            #expect(read.staleSlugs(in: directory, merged: lines) { _ in false } == expected, "round \(round)")
            let renamed = Set(now.filter { $0.displayName.hasSuffix(" Renamed") }.map(\.id))
            #expect(
                read.staleSlugs(in: directory, merged: lines) { !renamed.contains(directory.people[$0].user.id) }
                    == expected, "round \(round)")
        }
    }

    @Test("lines copied from an earlier file where a fingerprint stayed are the bytes written from the render's own")
    func copiedLinesAreTheLinesWritten() throws {
        var generator = ByteKeyOrderTests.SplitMix(state: 11)
        let everyone = SiteBenchmarkDirectory.users(count: 400)
        /// As a render's: the fingerprint covers the record (id included) and the slug.
        func entries(of directory: SiteDirectory) -> [RenderFingerprints.Entry] {
            directory.people.map { person in
                var input = FingerprintInput()
                input.add(person.user.id)
                input.add(person.user.displayName)
                input.add(person.slug)
                return (person.user.id, input.fingerprint, person.slug)
            }
        }
        for round in 0..<8 {
            // The spare's site: a random share of everyone; now: another, some renamed (a new fingerprint, and some a
            // new slug), joiners with no line and leavers with a line nobody has.
            let (before, now) = Self.beforeAndNow(everyone, renamedOneIn: 10, using: &generator)
            let old = SiteDirectory(users: before, hiding: [])
            let earlier = try #require(
                decoded(
                    RenderFingerprints(
                        output: Self.output, inOrder: [entries(of: old)], idOrder: old.displayPositionsInIDOrder()
                    ).encoded()))
            let directory = SiteDirectory(users: now, hiding: [])
            let order = try #require(directory.displayPositionsInIDOrder())
            let merged = earlier.byPosition(in: directory, idOrder: order, keepingLines: true)
            let lines = try #require(merged.lines)
            #expect(merged.fingerprints == earlier.byPosition(in: directory, idOrder: order))
            let made = entries(of: directory)
            let copied = lines.lineAtPosition.indices.filter { position in
                lines.lineAtPosition[position] >= 0
                    && lines.lines.fingerprints[Int(lines.lineAtPosition[position])] == made[position].fingerprint
            }
            #expect(copied.count > made.count / 2 && copied.count < made.count, "round \(round): some lines copied")
            // In chunks as a render makes them.
            let chunks = stride(from: 0, to: made.count, by: 32).map { Array(made[$0..<min($0 + 32, made.count)]) }
            let written = RenderFingerprints(output: Self.output, inOrder: chunks, idOrder: order)
            // Read from memory, the lines keep no text: nothing is copied, every line is written from the render's.
            #expect(!lines.copies(count: made.count))
            let fromMemory = RenderFingerprints(output: Self.output, inOrder: chunks, idOrder: order, copying: lines)
            #expect(fromMemory.encoded() == written.encoded(), "round \(round)")
            // Read as a run reads the spare's file (mapped), the lines keep its text, and runs of unchanged lines are
            // copied from it whole: the same bytes, in pieces of any size, a run split across pieces.
            let earlierBytes = RenderFingerprints(
                output: Self.output, inOrder: [entries(of: old)], idOrder: old.displayPositionsInIDOrder()
            ).encoded()
            let kept = try #require(RenderFingerprints.decode(try Self.mapped(earlierBytes), output: Self.output))
            let keptLines = try #require(kept.byPosition(in: directory, idOrder: order, keepingLines: true).lines)
            #expect(keptLines.lines.text?.lineCount == kept.count, "round \(round): the text is kept")
            #expect(keptLines.lines == lines.lines, "round \(round): the same lines")
            #expect(keptLines.copies(count: made.count))
            let fromText = RenderFingerprints(output: Self.output, inOrder: chunks, idOrder: order, copying: keptLines)
            #expect(fromText.encoded() == written.encoded(), "round \(round): copied from the text")
            // As a render leaves them when it knows the lines are copied: no id for the people whose line is.
            let copiedSet = Set(copied)
            let withoutIDs = made.indices.map { copiedSet.contains($0) ? (nil, made[$0].1, made[$0].2) : made[$0] }
            let omitting = RenderFingerprints(
                output: Self.output,
                inOrder: stride(from: 0, to: made.count, by: 32).map {
                    Array(withoutIDs[$0..<min($0 + 32, made.count)])
                }, idOrder: order, copying: keptLines)
            #expect(omitting.encoded() == written.encoded(), "round \(round): ids left out")
            for size in [1, 61, 4_096] {
                var pieces: [[UInt8]] = []
                fromText.encode(pieceSize: size) { pieces.append($0) }
                #expect(pieces.flatMap { $0 } == written.encoded(), "round \(round), pieces of \(size)")
                #expect(pieces.dropLast().allSatisfy { $0.count >= size }, "every piece but the last is full")
            }
        }
    }

    /// `bytes` in a temporary file, mapped as a run maps the spare's fingerprints.
    private static func mapped(_ bytes: [UInt8]) throws -> MappedFile {
        let folder = try SiteFixtures.temporaryFolder()
        // Removed while mapped, as a run removes the spare's file before it changes the spare.
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("render-fingerprints-spare.txt")
        try Data(bytes).write(to: url)
        return try #require(MappedFile(path: url.path))
    }

    @Test("the file handed on in pieces of any size is the same bytes as the whole")
    func piecesMakeTheWhole() throws {
        let directory = SiteDirectory(users: SiteBenchmarkDirectory.users(count: 120), hiding: [])
        let order = try #require(directory.displayPositionsInIDOrder())
        let entries = directory.people.map { ($0.user.id, RenderFingerprint(high: 5, low: UInt64($0.index)), $0.slug) }
        let made = RenderFingerprints(output: Self.output, inOrder: [entries], idOrder: order)
        let whole = made.encoded()
        for size in [1, 7, 4_096, whole.count + 1] {
            var pieces: [[UInt8]] = []
            made.encode(pieceSize: size) { pieces.append($0) }
            #expect(pieces.flatMap { $0 } == whole, "pieces of \(size)")
            #expect(pieces.dropLast().allSatisfy { $0.count >= size }, "every piece but the last is full")
        }
    }

    @Test("lines are not copied from a file without slugs: every line is written from the render's own")
    func noCopiesFromAFileWithoutSlugs() throws {
        let users = SiteBenchmarkDirectory.users(count: 50)
        let directory = SiteDirectory(users: users, hiding: [])
        let order = try #require(directory.displayPositionsInIDOrder())
        let entries = directory.people.map { ($0.user.id, RenderFingerprint(high: 9, low: UInt64($0.index)), $0.slug) }
        let made = RenderFingerprints(output: Self.output, inOrder: [entries], idOrder: order)
        let withoutSlugs = try #require(decoded(made.encoded(), slugs: false))
        let lines = try #require(withoutSlugs.byPosition(in: directory, idOrder: order, keepingLines: true).lines)
        #expect(lines.lineAtPosition.allSatisfy { $0 >= 0 })
        let copying = RenderFingerprints(output: Self.output, inOrder: [entries], idOrder: order, copying: lines)
        #expect(copying.encoded() == made.encoded())
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
