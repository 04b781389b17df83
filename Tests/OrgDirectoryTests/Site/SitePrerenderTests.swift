import Foundation
import Testing

@testable import OrgDirectory

/// A first build renders people while they are still arriving from Graph, on the links it can guess, and the
/// final render keeps only the pages whose fingerprint held: the published site must be byte for byte the site a
/// render from scratch gives, with no file left from a wrong guess.
@Suite("Prerendered person pages")
struct SitePrerenderTests {
    static let generatedAt = Date(timeIntervalSince1970: 1_763_000_000)

    /// Someone who arrives during the fetch but is not in the final list.
    static let leaver = User(
        id: "0a1b2c3d-0000-4000-8000-000000000078", userPrincipalName: "leaver@contoso.com",
        displayName: "Lea Leaver", givenName: "Lea", surname: "Leaver")

    /// The friendly fixture with nobody's manager named, so no page links to another.
    static var friendlyWithoutManagers: [User] {
        SiteFixtures.friendly.map { user in
            var user = user
            user.manager = nil
            return user
        }
    }

    /// Prerenders `arriving` in batches of `batch` into a staging folder, renders `final` over it, publishes.
    static func build(
        arriving: [User], final: [User], batch: Int = 7
    ) async throws -> (root: URL, output: URL, report: SiteReport, counts: (written: Int, unchanged: Int)) {
        let root = try SiteFixtures.temporaryFolder()
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        let staging = try publisher.makeStaging()
        let renderer = try SiteRenderer(options: SiteOptions())
        let (batches, feed) = AsyncStream.makeStream(of: [User].self)
        for start in stride(from: 0, to: arriving.count, by: batch) {
            feed.yield(Array(arriving[start..<min(arriving.count, start + batch)]))
        }
        feed.finish()
        let early = try await renderer.prerender(batches, generatedAt: generatedAt, to: staging)
        #expect(early.count == arriving.count)
        let report = try await renderer.render(
            final, generatedAt: generatedAt, fingerprintsFor: publisher.output.path, listingPaths: false,
            prerendered: early, to: staging)
        let counts = staging.counts
        try publisher.publish(staging, generatedAt: generatedAt)
        return (root, publisher.output, report, counts)
    }

    /// The same people rendered in one go into an empty folder.
    static func fromScratch(_ users: [User], in root: URL) async throws -> (files: [String: Data], report: SiteReport) {
        let folder = root.appendingPathComponent("scratch")
        let report = try await SiteRenderer(options: SiteOptions()).render(
            users, generatedAt: generatedAt, to: DirectorySiteOutput(root: folder))
        return (try SiteRenderReuseTests.Nightly.files(in: folder), report)
    }

    @Test("kept pages are exactly those whose links held, and the site equals a render from scratch")
    func keptWhereTheGuessHeld() async throws {
        let (twin, otherTwin) = SiteRenderReuseTests.collidingPair()
        let orphan = User(
            id: "0a1b2c3d-0000-4000-8000-000000000077", userPrincipalName: "orphan@contoso.com",
            displayName: "Olga Orphan", givenName: "Olga", surname: "Orphan",
            manager: ManagerReference(id: "0a1b2c3d-0000-4000-8000-0000000000ff", displayName: "Gone Person"))
        let hostile = SiteFixtures.hostile.enumerated().map { SiteFixtures.hostileUser($1, number: $0) }
        let final = SiteFixtures.friendly + [twin, otherTwin, orphan] + hostile
        let run = try await Self.build(arriving: final + [Self.leaver], final: final)
        defer { try? FileManager.default.removeItem(at: run.root) }

        // Kept: Иван, Gertrud, 王小明 and Νίκος. Rendered again: Søren and Jürgen (their reports appear), both
        // twins (their slugs lengthen, and their manager is named only by id), Olga (her manager is not on the
        // site, so not linked) and the hostile people (their manager reference names Jürgen otherwise than
        // his own record, so the guessed link was wrong).
        #expect(run.report.peopleRendered == final.count)
        #expect(run.report.peoplePrerendered == 4)
        let scratch = try await Self.fromScratch(final, in: run.root)
        let published = try SiteRenderReuseTests.Nightly.files(in: run.output).filter {
            $0.key != SitePublisher.markerName
        }
        #expect(published.count == scratch.files.count)
        #expect(published == scratch.files, "no stale page of a wrong guess, no missing or different file")
        #expect(!published.keys.contains { $0.contains("lea-leaver") }, "the leaver's prerendered pages are gone")
        #expect(run.counts.written == scratch.report.filesWritten, "removed files are taken off the count")
        #expect(run.report.fingerprints?.count == final.count)
    }

    @Test("a leaver's prerendered pages go even when a record that arrived twice makes the counts match")
    func leaverGoesBesideARepeatedRecord() async throws {
        let people = Self.friendlyWithoutManagers
        // As many people prerendered as the final list has, and every final person was prerendered: only the ids
        // tell that the leaver is not among them.
        let final = people + [people[0]]
        let run = try await Self.build(arriving: people + [Self.leaver], final: final, batch: 3)
        defer { try? FileManager.default.removeItem(at: run.root) }
        let published = try SiteRenderReuseTests.Nightly.files(in: run.output)
        #expect(!published.keys.contains { $0.contains("lea-leaver") }, "the leaver's prerendered pages are gone")
        #expect(published.keys.filter { $0.hasPrefix("people/") }.count == final.count * 3)
    }

    @Test("with nobody linked to anyone, every prerendered page is kept and nothing is written twice")
    func everyoneKept() async throws {
        let people = Self.friendlyWithoutManagers
        let run = try await Self.build(arriving: people, final: people, batch: 2)
        defer { try? FileManager.default.removeItem(at: run.root) }
        #expect(run.report.peoplePrerendered == people.count)
        let scratch = try await Self.fromScratch(people, in: run.root)
        #expect(run.counts.written == scratch.report.filesWritten)
    }

    @Test("past the prerender limit the preparations go, those handed back before and after, and all are indexed")
    func droppedPreparationsAreIndexedWithout() {
        var folds = FoldCache()
        var input = FingerprintInput()
        func written(_ id: String, night: UInt64 = 1) -> PrerenderedPeople.Written {
            let user = User(id: id, userPrincipalName: "\(id)@contoso.com", displayName: "Person \(id)")
            let preparation = EarlyPreparation(user, folds: &folds, input: &input)
            return .init(
                id: id,
                person: .init(
                    slug: Slug.ordinary(namePart: preparation.slugName, id: id),
                    fingerprint: RenderFingerprint(high: night, low: 1), early: preparation))
        }
        var people = PrerenderedPeople()
        people.add([written("a"), written("b")])
        people.add([written("c")])
        people.dropPreparations()
        people.add([written("d"), written("a", night: 2)])  // "a" handed back again: the last one counts
        people.index()
        #expect(!people.keepsPreparations)
        #expect(people.count == 4)
        #expect(Set(people.indexed.map(\.id)) == ["a", "b", "c", "d"])
        #expect(people.indexed.allSatisfy { $0.person.early == nil })
        #expect(people["a"]?.fingerprint == RenderFingerprint(high: 2, low: 1))
        #expect(people["b"]?.fingerprint == RenderFingerprint(high: 1, low: 1))
        #expect(people["e"] == nil)
    }

    @Test("a prerendered person's record digest is kept while their manager is the one it saw, else made again")
    func earlyDigestFollowsTheManager() {
        let boss = User(id: "boss", userPrincipalName: "boss@contoso.com", displayName: "Ines Boss")
        var kept = User(id: "kept", userPrincipalName: "kept@contoso.com", displayName: "Kai Kept")
        kept.manager = ManagerReference(id: "boss", displayName: "Ines Boss")
        var named = User(id: "named", userPrincipalName: "named@contoso.com", displayName: "Noa Named")
        named.manager = ManagerReference(id: "boss", displayName: nil)  // the fetch fills the name in after
        var early = PrerenderedPeople()
        var folds = FoldCache()
        var input = FingerprintInput()
        let marker = RenderFingerprint(high: 7, low: 7)
        for user in [boss, kept, named] {
            var preparation = EarlyPreparation(user, folds: &folds, input: &input)
            #expect(preparation.recordDigest == user.recordDigest)
            preparation.recordDigest = marker  // to tell a kept digest from one made again
            early.add([
                .init(
                    id: user.id,
                    person: .init(
                        slug: Slug.ordinary(namePart: preparation.slugName, id: user.id), fingerprint: marker,
                        early: preparation))
            ])
        }
        early.index()
        named.manager?.displayName = "Ines Boss"
        let directory = SiteDirectory(users: [boss, kept, named], hiding: [], early: early)
        func digest(_ id: String) -> RenderFingerprint? {
            directory.positionByID[id].map { directory.recordDigest(at: $0) }
        }
        #expect(digest("boss") == marker)
        #expect(digest("kept") == marker)
        #expect(digest("named") == named.recordDigest)
    }

    @Test("a record's early hash ignores the manager and changes with every other field")
    func recordHashIgnoresTheManager() {
        var input = FingerprintInput()
        func hash(_ user: User) -> Int { EarlyPreparation.recordHash(of: user, input: &input) }
        var user = SiteFixtures.ivan
        user.extra = ["extensionAttribute1": "A-12"]
        let original = hash(user)
        var managed = user
        managed.manager = ManagerReference(id: "someone-else", displayName: "Someone Else")
        #expect(hash(managed) == original)
        managed.manager = nil
        #expect(hash(managed) == original)
        let changes: [(String, (inout User) -> Void)] = [
            ("id", { $0.id += "x" }), ("upn", { $0.userPrincipalName += "x" }), ("name", { $0.displayName += "x" }),
            ("given name", { $0.givenName = nil }), ("surname", { $0.surname = "x" }), ("mail", { $0.mail = nil }),
            ("phones", { $0.businessPhones.append("1") }), ("mobile", { $0.mobilePhone = "1" }),
            ("title", { $0.jobTitle = nil }), ("department", { $0.department = "x" }),
            ("office", { $0.officeLocation = "x" }), ("company", { $0.companyName = "x" }),
            ("enabled", { $0.accountEnabled = false }), ("type", { $0.userType = "Guest" }),
            ("employee id", { $0.employeeId = "1" }), ("language", { $0.preferredLanguage = "de" }),
            ("extra", { $0.extra["extensionAttribute1"] = "B-12" }),
        ]
        for (name, change) in changes {
            var changed = user
            change(&changed)
            #expect(hash(changed) != original, "\(name)")
        }
    }

    @Test("a task gets the caches a finished task gave back, tasks at once get their own, none once closed")
    func cachesOutliveTasks() {
        // Every task numbers search tokens in one shared table, until the caches are closed.
        let caches = PrerenderCaches()
        var (folds, tokens) = caches.take()
        #expect(folds.base("Jürgen Müller") == "jurgen muller")
        tokens["Müller"] = caches.number(["mueller", "muller"])
        caches.give((folds, tokens))
        let (_, kept) = caches.take()
        #expect(kept["Müller"] == [0, 1])
        #expect(caches.tokenTable.strings == ["mueller", "muller"])
        let (_, other) = caches.take()  // the only pair is taken: a fresh one
        #expect(other.isEmpty)
        #expect(caches.numbersTokens)
        caches.close()  // past the prerender limit: what is given back is let go
        caches.give((folds, kept))
        #expect(caches.take().1.isEmpty)
        #expect(!caches.numbersTokens)
        #expect(caches.tokenTable.count == 0)
    }
}
