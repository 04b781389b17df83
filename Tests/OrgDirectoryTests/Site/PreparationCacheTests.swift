import Foundation
import Synchronization
import Testing

@testable import OrgDirectory

/// A nightly run takes unchanged people's preparation from the run before: the directory it makes must be the one a
/// run preparing everyone makes, a changed person must never keep theirs, and a file that does not fit is never read.
@Suite("Preparation cache")
struct PreparationCacheTests {
    static let context = PreparationCache.context(hiding: [])

    /// Night one's people (in id order, as a build lists them), and night two's: three changed, two gone, one new.
    static func nights(count: Int = 20_000) -> (first: [User], second: [User]) {
        var first = SiteBenchmarkDirectory.users(count: count)
        first.sortByID()
        var second = first
        second[5].jobTitle = "Chief Kite Flyer"
        second[count / 4].department = "Kites"
        second[count / 2].businessPhones = ["+1 (425) 555-0199 x12"]
        second.remove(at: count - 10)
        second.remove(at: count / 3)
        second.append(User(id: "zz-new", userPrincipalName: "new@contoso.com", displayName: "Quetzalli Newcomb"))
        return (first, second)
    }

    /// The cache `made` as the next run reads it, from a file in `folder`.
    static func stored(_ made: PreparationCache.Made?, in folder: URL, snapshot: String = "night.json") throws
        -> PreparationCache
    {
        let made = try #require(made)
        let file = folder.appendingPathComponent("preparations.bin")
        try Data(PreparationCache.encode(made, context: context, snapshot: snapshot)).write(to: file)
        return try #require(PreparationCache(path: file.path, context: context))
    }

    /// Everything the render reads from a directory that its preparation shapes.
    static func expectSame(_ directory: SiteDirectory, _ fresh: SiteDirectory) {
        #expect(directory.people.map(\.user) == fresh.people.map(\.user))
        #expect(directory.people.map(\.slug) == fresh.people.map(\.slug))
        #expect(directory.people.map(\.letter) == fresh.people.map(\.letter))
        #expect(directory.people.map(\.departmentFile) == fresh.people.map(\.departmentFile))
        #expect(directory.people.map { $0.phones.map(\.label) } == fresh.people.map { $0.phones.map(\.label) })
        #expect(directory.people.map { $0.phones.map(\.link) } == fresh.people.map { $0.phones.map(\.link) })
        #expect(directory.recordDigests == fresh.recordDigests)
        #expect(directory.departments.map(\.file) == fresh.departments.map(\.file))
        #expect(directory.departments.map(\.people) == fresh.departments.map(\.people))
        #expect(directory.letters.map(\.people) == fresh.letters.map(\.people))
    }

    @Test(
        "only changed and new people are prepared, the directory equals one preparing everyone, and the next file too")
    func reusesUnchanged() async throws {
        let folder = try SnapshotTestFolder()
        let (first, second) = Self.nights()
        let night1 = await SiteDirectory.build(users: first, hiding: [], keepingPreparations: true)
        #expect(night1.preparedBefore == 0)
        let cache = try Self.stored(night1.preparations, in: folder.url)
        #expect(cache.count == first.count && cache.snapshot == "night.json")

        var unequal: Set<String> = []
        _ = DirectoryDiff.between(first, second, unequal: &unequal)
        #expect(unequal.count == 3)
        let kept = KeptPreparations(cache: cache, unequal: unequal)
        let night2 = await SiteDirectory.build(users: second, hiding: [], kept: kept, keepingPreparations: true)
        #expect(night2.preparedBefore == second.count - 4, "three changed and one new are prepared")
        let fresh = await SiteDirectory.build(users: second, hiding: [], keepingPreparations: true)
        Self.expectSame(night2, fresh)
        // The next file, kept entries copied from this one, is byte for byte the one preparing everyone writes.
        let copied = try #require(night2.preparations)
        #expect(copied.pieces.contains { if case .kept = $0 { true } else { false } })
        let made = try #require(fresh.preparations)
        #expect(
            PreparationCache.encode(copied, context: Self.context, snapshot: "2")
                == PreparationCache.encode(made, context: Self.context, snapshot: "2"))
    }

    @Test("kept people read their phone links from the file when asked; a link whose bytes are not UTF-8 is not kept")
    func keptPhoneLinksReadWhenAsked() async throws {
        let folder = try SnapshotTestFolder()
        // Person 40 is the same person on both nights (the removals and the change come later in id order).
        var (first, second) = Self.nights(count: 3_000)
        let marked = "+1 (425) 555-7777"
        for index in [40, 41] {
            first[index].businessPhones = index == 40 ? [marked, "+44 20 7946 0000"] : []
            first[index].mobilePhone = index == 40 ? nil : "+1 (206) 555-0142"
            second[index] = first[index]
        }
        let night1 = await SiteDirectory.build(users: first, hiding: [], keepingPreparations: true)
        let cache = try Self.stored(night1.preparations, in: folder.url)
        var unequal: Set<String> = []
        _ = DirectoryDiff.between(first, second, unequal: &unequal)
        let kept = KeptPreparations(cache: cache, unequal: unequal)
        let night2 = await SiteDirectory.build(users: second, hiding: [], kept: kept, keepingPreparations: true)
        let fresh = await SiteDirectory.build(users: second, hiding: [], keepingPreparations: true)
        Self.expectSame(night2, fresh)
        #expect(night2.people.filter(\.readsKeptPhones).count == night2.preparedBefore)
        #expect(fresh.people.allSatisfy { !$0.readsKeptPhones })
        let person = try #require(night2.people.first { $0.user.id == second[40].id })
        #expect(person.readsKeptPhones)
        #expect(person.phones.map(\.link.written) == [marked, "+44 20 7946 0000"])
        #expect(person.phones.map(\.label) == ["Work phone 1", "Work phone 2"])

        // The marked number's last byte made a lone continuation byte: that entry no longer reads, so its person is
        // prepared again (and everyone else still keeps theirs).
        let file = folder.url.appendingPathComponent("preparations.bin")
        var bytes = try [UInt8](Data(contentsOf: file))
        let needle = Array(marked.utf8)
        let at = try #require(
            (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
        bytes[at + needle.count - 1] = 0x80
        try Data(bytes).write(to: file)
        let damaged = try #require(PreparationCache(path: file.path, context: Self.context))
        let again = await SiteDirectory.build(
            users: second, hiding: [], kept: KeptPreparations(cache: damaged, unequal: unequal))
        Self.expectSame(again, fresh)
        #expect(again.preparedBefore == night2.preparedBefore - 1)
        #expect(again.people.first { $0.user.id == second[40].id }?.readsKeptPhones == false)
    }

    @Test("a person whose record differs from the kept one is prepared again, whatever the file holds for their id")
    func changedPeoplePreparedAgain() async throws {
        let folder = try SnapshotTestFolder()
        let (first, _) = Self.nights(count: 300)
        let cache = try Self.stored(
            SiteDirectory(users: first, hiding: [], keepingPreparations: true).preparations, in: folder.url)
        var changed = first
        changed[7].displayName = "Zebulon Renamed"
        changed[7].surname = "Renamed"
        changed[8].mobilePhone = "+44 20 7946 0000"
        var unequal: Set<String> = []
        _ = DirectoryDiff.between(first, changed, unequal: &unequal)
        // On one core (a small directory) and in chunks.
        let serial = SiteDirectory(users: changed, hiding: [], kept: KeptPreparations(cache: cache, unequal: unequal))
        #expect(serial.preparedBefore == first.count - 2)
        Self.expectSame(serial, SiteDirectory(users: changed, hiding: []))
        let renamed = try #require(serial.people.first { $0.user.id == changed[7].id })
        #expect(renamed.slug.hasPrefix("zebulon-renamed"))
        #expect(renamed.letter == "r")
    }

    @Test("people listed out of id order are prepared again when missed, never given another person's entry")
    func outOfOrderNeverMismatched() async throws {
        let folder = try SnapshotTestFolder()
        let (first, _) = Self.nights()
        let cache = try Self.stored(
            await SiteDirectory.build(users: first, hiding: [], keepingPreparations: true).preparations, in: folder.url)
        let reversed = Array(first.reversed())
        let directory = await SiteDirectory.build(
            users: reversed, hiding: [], kept: KeptPreparations(cache: cache, unequal: []))
        #expect(directory.preparedBefore < first.count / 10, "a reversed list meets few entries in order")
        Self.expectSame(directory, await SiteDirectory.build(users: reversed, hiding: []))
    }

    @Test("a render given a saver hands it the preparations once, the bytes a report would carry, and its warning")
    func renderHandsPreparationsToTheSaver() async throws {
        let (first, _) = Self.nights(count: 300)
        let root = try SiteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let renderer = try SiteRenderer(options: SiteOptions())
        let when = Date(timeIntervalSince1970: 1_763_000_000)
        let held = try await renderer.render(
            first, generatedAt: when, keepingPreparations: true,
            to: DirectorySiteOutput(root: root.appendingPathComponent("held")))
        let heldBytes = PreparationCache.encode(try #require(held.preparations), context: Self.context, snapshot: "n")
        #expect(held.warnings.isEmpty)

        let handed = HandedPreparations()
        let saved = try await renderer.render(
            first, generatedAt: when, keepingPreparations: true,
            savingPreparations: PreparationSaving { made in
                handed.add(made.map { PreparationCache.encode($0, context: Self.context, snapshot: "n") })
                return "could not save them"
            }, to: DirectorySiteOutput(root: root.appendingPathComponent("saved")))
        #expect(saved.preparations == nil, "handed over, not held to the end")
        #expect(handed.calls == [heldBytes])
        #expect(saved.warnings == ["could not save them"])

        // A render keeping none (not asked to) still tells the saver, which then forgets the stored file.
        let none = HandedPreparations()
        _ = try await renderer.render(
            first, generatedAt: when,
            savingPreparations: PreparationSaving { made in
                none.add(made.map { PreparationCache.encode($0, context: Self.context, snapshot: "n") })
                return nil
            }, to: DirectorySiteOutput(root: root.appendingPathComponent("none")))
        #expect(none.calls == [nil])
    }

    /// What a test's `PreparationSaving` was given, call by call.
    final class HandedPreparations: Sendable {
        private let given = Mutex<[[UInt8]?]>([])
        var calls: [[UInt8]?] { given.withLock { $0 } }
        func add(_ bytes: [UInt8]?) { given.withLock { $0.append(bytes) } }
    }

    @Test("the walk over changed ids finds them in id order and counts anyone met out of order as changed")
    func unequalWalk() {
        var walk = KeptPreparations.Unequal(["b", "d"], from: "a")
        let met = ["a", "b", "c", "b", "a"].map { walk.contains($0) }
        // "b" met again, and "a" after it, are out of order: their entries are never trusted.
        #expect(met == [false, true, false, true, true])
        var late = KeptPreparations.Unequal(["b", "d"], from: "c")
        #expect(["d", "e"].map { late.contains($0) } == [true, false])
    }

    @Test("a file made with other hidden fields, beside another snapshot, cut short or damaged is not read")
    func refusesWhatDoesNotFit() throws {
        let folder = try SnapshotTestFolder()
        let (first, _) = Self.nights(count: 200)
        let made = try #require(SiteDirectory(users: first, hiding: [], keepingPreparations: true).preparations)
        let bytes = PreparationCache.encode(made, context: Self.context, snapshot: "a.json")
        let file = folder.url.appendingPathComponent("preparations.bin")
        func read(_ bytes: [UInt8], context: RenderFingerprint = Self.context) throws -> PreparationCache? {
            try Data(bytes).write(to: file)
            return PreparationCache(path: file.path, context: context)
        }
        #expect(try read(bytes)?.count == first.count)
        #expect(try read(bytes, context: PreparationCache.context(hiding: ["mobilePhone"])) == nil)
        for cut in [0, 10, bytes.count / 2, bytes.count - 1] {
            #expect(try read(Array(bytes.prefix(cut))) == nil, "cut at \(cut)")
        }
        #expect(try read(bytes + [0]) == nil)
        // The first person's id length pointing past the end of the file (after the header line, the context, the
        // snapshot's name and the count).
        var damaged = bytes
        let firstEntry = "orgdir-preparations\n".utf8.count + 16 + 4 + "a.json".utf8.count + 4
        damaged.replaceSubrange(firstEntry..<(firstEntry + 4), with: [0xFF, 0xFF, 0xFF, 0x0F])
        #expect(try read(damaged) == nil)

        let store = PreparationCacheStore(stateDirectory: folder.url)
        try store.save(made, context: Self.context, snapshot: "a.json")
        #expect(store.load(context: Self.context, snapshot: "a.json")?.count == first.count)
        #expect(store.load(context: Self.context, snapshot: "b.json") == nil, "beside another snapshot")
        store.clear()
        #expect(store.load(context: Self.context, snapshot: "a.json") == nil)
    }

    @Test("a cache that cannot be saved (a folder in the way) is an error, and nothing is left to be read")
    func saveFailureLeavesNothing() throws {
        let folder = try SnapshotTestFolder()
        let (first, _) = Self.nights(count: 50)
        let made = try #require(SiteDirectory(users: first, hiding: [], keepingPreparations: true).preparations)
        let store = PreparationCacheStore(stateDirectory: folder.url)
        try FileManager.default.createDirectory(at: store.file, withIntermediateDirectories: false)
        #expect(throws: FileReplacement.Failure.self) {
            try store.save(made, context: Self.context, snapshot: "a.json")
        }
        #expect(store.load(context: Self.context, snapshot: "a.json") == nil)
        #expect(!FileManager.default.fileExists(atPath: store.file.path), "the folder in the way is removed")
        try store.save(made, context: Self.context, snapshot: "a.json")
        #expect(store.load(context: Self.context, snapshot: "a.json")?.count == first.count, "the next save works")
    }

    /// Night after night, the display order started from the night before's (most people kept, a few renamed, some
    /// to names others have, some gone, some new) is the order a sort of everyone gives.
    @Test("the display order started from the night before's is the one sorting everyone gives, night after night")
    func keptDisplayOrderIsTheSortedOne() async throws {
        let folder = try SnapshotTestFolder()
        var generator = ByteKeyOrderTests.SplitMix(state: 31)
        var people = SiteBenchmarkDirectory.users(count: 9_000)
        people.sortByID()
        var directory = await SiteDirectory.build(users: people, hiding: [], keepingPreparations: true)
        let names = ["Ada Lovelace", "Zed Zulu", "Aaron Aardvark", people[100].displayName]
        for night in 0..<6 {
            let cache = try Self.stored(directory.preparations, in: folder.url)
            #expect(cache.rank(of: 0) != nil, "night \(night): the ranks are kept")
            var next: [User] = []
            for person in people {
                let roll = Int.random(in: 0..<1_000, using: &generator)
                if roll < 5 { continue }  // left
                var person = person
                if roll < 40 {
                    person.displayName = names[roll % names.count]
                    person.surname = nil
                }
                next.append(person)
            }
            for joiner in 0..<(night * 20) {
                next.append(
                    User(
                        id: "zz-\(night)-\(joiner)", userPrincipalName: "j\(joiner)@contoso.com",
                        displayName: names[joiner % names.count]))
            }
            next.sortByID()  // as a build lists them
            var unequal: Set<String> = []
            _ = DirectoryDiff.between(people, next, unequal: &unequal)
            let kept = KeptPreparations(cache: cache, unequal: unequal)
            directory = await SiteDirectory.build(users: next, hiding: [], kept: kept, keepingPreparations: true)
            #expect(directory.preparedBefore > next.count / 2, "night \(night)")
            let fresh = await SiteDirectory.build(users: next, hiding: [])
            #expect(directory.people.map(\.user.id) == fresh.people.map(\.user.id), "night \(night)")
            people = next
        }
    }

    @Test("kept ranks that are not each a different place, or a file without them, give the order of a whole sort")
    func damagedRanksAreNotTrusted() throws {
        let folder = try SnapshotTestFolder()
        let (first, second) = Self.nights(count: 500)
        let made = try #require(SiteDirectory(users: first, hiding: [], keepingPreparations: true).preparations)
        var unequal: Set<String> = []
        _ = DirectoryDiff.between(first, second, unequal: &unequal)
        let fresh = SiteDirectory(users: second, hiding: []).people.map(\.user.id)
        var twice = made
        let firstRank = try #require(made.ranks?[0])
        twice.ranks?[1] = firstRank
        var none = made
        none.ranks = nil
        var beyond = made
        beyond.ranks?[3] = UInt32(first.count)
        /// The preparations of `second` with `cache` kept, as the directory makes them.
        func prepared(keeping cache: PreparationCache) -> [PreparedPerson] {
            var prepared: [PreparedPerson] = []
            var writer: PreparationWriter?
            SiteDirectory.prepare(
                second[...], hiding: [], early: nil, kept: KeptPreparations(cache: cache, unequal: unequal),
                digests: true, longLived: true, writer: &writer
            ) { prepared.append($1) }
            return prepared
        }
        // Whole, the ranks give the kept people's order: everyone but the three changed and the one new.
        let whole = try Self.stored(made, in: folder.url)
        #expect(
            SiteDirectory.keptOrder(prepared(keeping: whole), previousCount: whole.count)?.kept.count == second.count
                - 4)
        for (name, ranks) in [("repeated", twice), ("none", none), ("out of range", beyond)] {
            let cache = try Self.stored(ranks, in: folder.url)
            #expect((cache.rank(of: 0) == nil) == (name == "none"))
            #expect(SiteDirectory.keptOrder(prepared(keeping: cache), previousCount: cache.count) == nil, "\(name)")
            let directory = SiteDirectory(
                users: second, hiding: [], kept: KeptPreparations(cache: cache, unequal: unequal))
            #expect(directory.preparedBefore == second.count - 4, "\(name)")
            #expect(directory.people.map(\.user.id) == fresh, "\(name)")
        }
    }

    @Test("a directory not asked to keep preparations makes none for the next run")
    func keptOnlyWhenAsked() async {
        let (first, _) = Self.nights(count: 300)
        #expect(SiteDirectory(users: first, hiding: []).preparations == nil)
        #expect(await SiteDirectory.build(users: first, hiding: []).preparations == nil)
        #expect(SiteDirectory(users: first, hiding: [], keepingPreparations: true).preparations?.count == first.count)
    }
}

extension PreparationCache {
    /// The whole file: `header` and the entries (tests).
    static func encode(_ made: Made, context: RenderFingerprint, snapshot: String) -> [UInt8] {
        var out = header(made, context: context, snapshot: snapshot)
        _ = made.write { bytes in
            out.append(contentsOf: bytes)
            return nil
        }
        return out
    }
}
