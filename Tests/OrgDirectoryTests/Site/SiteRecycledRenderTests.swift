import Foundation
import Testing

@testable import OrgDirectory

/// From the third run on, a nightly render updates the site before last (the publisher's spare) in place
/// instead of filling an empty folder. Whatever the nights in between did, the published site must be, byte for
/// byte and file for file, what a build from scratch of the last night's data gives.
@Suite("Nightly render into the recycled spare")
struct SiteRecycledRenderTests {
    /// Each night as the build pipeline runs it: the published site's fingerprints reused, the spare recycled
    /// when its fingerprints are known, the replaced site kept as the next spare.
    struct Nights {
        let root: URL
        let output: URL
        var reports: [SiteReport] = []
        var recycled: [Bool] = []
        /// Files each night wrote (rather than kept or linked).
        var written: [Int] = []

        init(_ nights: [[User]], history: ChangeHistory = SiteFixtures.history) async throws {
            root = try SiteFixtures.temporaryFolder()
            let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
            output = publisher.output
            let renderer = try SiteRenderer(options: SiteOptions())
            var published: RenderFingerprints?
            var spare: RenderFingerprints?
            for users in nights {
                let staging = try publisher.makeStaging(recyclingSpare: spare != nil)
                let report = try await renderer.render(
                    users, generatedAt: SiteRenderReuseTests.generatedAt, history: history,
                    fingerprintsFor: publisher.output.path, reusing: published,
                    inPlace: staging.isRecycled ? spare : nil, to: staging)
                let kept = try publisher.publish(
                    staging, generatedAt: SiteRenderReuseTests.generatedAt, keepingSpare: published != nil)
                recycled.append(staging.isRecycled)
                written.append(staging.counts.written)
                reports.append(report)
                spare = kept ? published : nil
                published = report.fingerprints
            }
        }

        func matchesBuildFromScratch(_ users: [User]) async throws -> Bool {
            let scratch = SiteRenderReuseTests.Nightly(
                root: root, output: output, first: reports[0], second: reports[reports.count - 1])
            return try await scratch.matchesBuildFromScratch(
                users, options: SiteOptions(), history: SiteFixtures.history)
        }
    }

    static let hire = User(
        id: "0a1b2c3d-0000-4000-8000-000000000099", userPrincipalName: "new@contoso.com",
        displayName: "Nora New", givenName: "Nora", surname: "New", jobTitle: "Engineer",
        manager: ManagerReference(id: SiteFixtures.strasse.id, displayName: nil))

    @Test("the third night updates the spare in place: a leaver's files go, a joiner's come, the rest stay")
    func leaverAndJoiner() async throws {
        let team = SiteRenderReuseTests.team
        let second = team.filter { $0.id != SiteFixtures.chen.id }
        let third = second + [Self.hire]
        let nights = try await Nights([team, second, third])
        defer { try? FileManager.default.removeItem(at: nights.root) }
        #expect(nights.recycled == [false, false, true])
        // Chen left on the second night (the spare still has Chen's files), Nora joined on the third.
        #expect(nights.reports[2].peopleRendered == 2, "Nora and her manager")
        #expect(try await nights.matchesBuildFromScratch(third))
        let spare = SitePublisher(output: nights.output).spare
        #expect(FileManager.default.fileExists(atPath: spare.appendingPathComponent(SitePublisher.markerName).path))
    }

    @Test("a person changed and changed back is right whichever site the files come from", arguments: [3, 4, 5])
    func changedBackAndForth(nightCount: Int) async throws {
        let team = SiteRenderReuseTests.team
        let changed = SiteRenderReuseTests.changing(team, id: SiteFixtures.ivan.id) { $0.jobTitle = "Lead Analyst" }
        let sequence = (0..<nightCount).map { $0 % 2 == 0 ? team : changed }
        let nights = try await Nights(sequence)
        defer { try? FileManager.default.removeItem(at: nights.root) }
        #expect(nights.recycled.dropFirst(2).allSatisfy { $0 })
        #expect(try await nights.matchesBuildFromScratch(sequence[sequence.count - 1]))
    }

    @Test("nothing changed for three nights: nobody is rendered, nothing is written")
    func nothingChanged() async throws {
        let team = SiteRenderReuseTests.team
        let nights = try await Nights([team, team, team])
        defer { try? FileManager.default.removeItem(at: nights.root) }
        #expect(nights.reports[2].peopleRendered == 0)
        #expect(nights.reports[2].peopleReused == team.count)
        #expect(nights.written[2] == 0)
        #expect(try await nights.matchesBuildFromScratch(team))
    }
}

@Suite("Spare fingerprint file")
struct SpareFingerprintFileTests {
    @Test("the published fingerprints become the spare's; clearing them deletes the file, so a crash renders anew")
    func retireAndTake() throws {
        let state = try SiteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let output = URL(fileURLWithPath: "/srv/Output")
        let store = RenderFingerprintStore(stateDirectory: state, output: output)
        let fingerprints = RenderFingerprints(
            output: output.path, byID: ["a": RenderFingerprint(high: 1, low: 2)])
        try store.save(fingerprints)
        store.retirePublished()
        #expect(store.load() == nil)
        #expect(store.read(spare: true).spare == fingerprints)
        #expect(store.read(spare: true).spare == fingerprints, "reading leaves the file for a run that fails")
        #expect(store.read(spare: false).spare == nil)
        store.clearSpare()  // the spare is about to change
        #expect(store.read(spare: true).spare == nil)
        try store.save(fingerprints)
        #expect(store.read(spare: true).published == fingerprints)
    }

    @Test("fingerprints read ahead of the render leave the spare's file until the spare is taken")
    func readAheadThenTake() throws {
        let state = try SiteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let output = URL(fileURLWithPath: "/srv/Output")
        let store = RenderFingerprintStore(stateDirectory: state, output: output)
        let spare = RenderFingerprints(output: output.path, byID: ["a": RenderFingerprint(high: 1, low: 2)])
        let published = RenderFingerprints(output: output.path, byID: ["a": RenderFingerprint(high: 3, low: 4)])
        try store.save(spare)
        store.retirePublished()
        try store.save(published)

        let stored = store.read(spare: true)
        #expect(stored.published == published)
        #expect(stored.spare == spare)
        #expect(store.read(spare: false).spare == nil, "a run keeping no spare does not read it")
        #expect(store.read(spare: true).spare == spare, "reading takes nothing: a failed run leaves it usable")
        store.clearSpare()
        #expect(store.read(spare: true).spare == nil, "cleared: the spare is about to change")
        #expect(store.load() == published)
    }
}
