import Foundation
import TestSupport
import Testing

@testable import OrgDirectory

/// A nightly render carries the render fingerprints of the people no change reached (`PageReach`), as the build
/// pipeline does: what it carries must be what it would have taken, so each night's fingerprints equal those of a
/// render that takes everyone's, and its site equals a build from scratch. (Debug builds, which run these tests,
/// also take every carried fingerprint again and stop at one that differs.)
@Suite("Page reach")
struct PageReachTests {
    static let generatedAt = Date(timeIntervalSince1970: 1_763_000_000)

    /// The snapshot name of night `number`.
    static func snapshot(_ number: Int) -> String {
        "2026-03-\(10 + number)T02-00-00Z.json"
    }

    /// 240 people in a tree of managers (each eighth one manages the seven after), half of the references naming
    /// the manager, with two people who will share a slug once one is renamed (`twinID`).
    static func team() throws -> (people: [User], twins: (String, String)) {
        var people = SiteBenchmarkDirectory.users(count: 240)
        for index in people.indices where index > 0 {
            let manager = people[(index / 8) * 8 == index ? 0 : (index / 8) * 8]
            people[index].manager = ManagerReference(
                id: manager.id, displayName: index.isMultiple(of: 2) ? manager.displayName : nil)
        }
        let twins = try ExportRowsTests.collidingIDs()
        for (number, id) in [twins.0, twins.1].enumerated() {
            people.append(
                User(
                    id: id, userPrincipalName: "\(id)@contoso.com", displayName: "Robin Twin \(number)",
                    surname: "Twin", jobTitle: "Twin", department: "Twins",
                    manager: ManagerReference(id: people[16].id, displayName: nil)))
        }
        // A report of each twin: their pages show the twin's slug.
        people[30].manager = ManagerReference(id: twins.0, displayName: nil)
        people[31].manager = ManagerReference(id: twins.1, displayName: "Robin Twin 1")
        return (people, twins)
    }

    /// Night `number`'s changes to `people`: a rename, a new title, a move to another manager, a manager leaving,
    /// someone joining under a manager, a new department; on night 2 the twins' names made equal (their slugs
    /// collide and are lengthened), on night 4 one twin leaves (the other's slug is ordinary again).
    static func changing(_ people: [User], night number: Int, twins: (String, String)) -> [User] {
        var people = people
        var numbers = SeededNumbers(seed: UInt64(number) &* 0x9E37_79B9_7F4A_7C15)
        // Anyone but the first person and the twins.
        func someone() -> Int {
            while true {
                let index = 1 + numbers.next(people.count - 1)
                if ![twins.0, twins.1].contains(people[index].id) { return index }
            }
        }
        people[someone()].displayName += " Jr"
        people[someone()].jobTitle = "Title \(number)"
        let mover = someone()
        people[mover].manager = ManagerReference(id: people[someone()].id, displayName: nil)
        people[someone()].department = "Department \(number)"
        // A manager leaves: their reports still name them.
        people.remove(at: 8 * (1 + numbers.next(people.count / 8 - 2)))
        people.append(
            User(
                id: "joiner-\(number)", userPrincipalName: "joiner\(number)@contoso.com",
                displayName: "Jo Iner \(number)", surname: "Iner", jobTitle: "New",
                manager: ManagerReference(id: people[someone()].id, displayName: nil)))
        if number == 2, let twin = people.firstIndex(where: { $0.id == twins.1 }) {
            people[twin].displayName = "Robin Twin 0"
        }
        if number == 4 { people.removeAll { $0.id == twins.0 } }
        return people
    }

    /// The history a run on night `number` shows: every night's diff so far, tonight's included.
    static func history(_ nights: [[User]], through number: Int) -> ChangeHistory {
        var history = ChangeHistory()
        for night in stride(from: 1, through: number, by: 1) {
            let diff = DirectoryDiff.between(nights[night - 1], nights[night])
            history = history.recording(
                DiffReport(old: side(night - 1, nights[night - 1]), new: side(night, nights[night]), diff: diff))
        }
        history.since = generatedAt
        return history
    }

    static func side(_ night: Int, _ people: [User]) -> DiffReport.Side {
        DiffReport.Side(
            name: snapshot(night), takenAt: generatedAt.addingTimeInterval(Double(night) * 86_400), people: people.count
        )
    }

    @Test(
        "nights of renames, moves, leavers, joiners and a slug collision carry most fingerprints and equal full renders"
    )
    func carriedFingerprintsAreTheOnesTaken() async throws {
        let (team, twins) = try Self.team()
        var nights = [Snapshot.canonicallySorted(team)]
        for number in 1...5 {
            nights.append(Snapshot.canonicallySorted(Self.changing(nights[number - 1], night: number, twins: twins)))
        }
        let root = try SiteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        let renderer = try SiteRenderer(options: SiteOptions())
        var kept: RenderFingerprints?
        var changePagesCarried = 0
        for (number, people) in nights.enumerated() {
            let history = Self.history(nights, through: number)
            let reach: PageReach
            if number == 0 {
                reach = PageReach(recording: Self.snapshot(0))
            } else {
                var unequal: Set<String> = []
                let diff = DirectoryDiff.between(canonical: nights[number - 1], people, unequal: &unequal)
                reach = PageReach(
                    recording: Self.snapshot(number), baseline: Self.snapshot(number - 1),
                    previous: nights[number - 1], current: people, diff: diff, unequal: unequal)
            }
            let staging = try publisher.makeStaging()
            let report = try await renderer.render(
                people, generatedAt: Self.generatedAt, history: history, fingerprintsFor: publisher.output.path,
                reusing: kept, reach: reach, to: staging)
            try publisher.publish(staging, generatedAt: Self.generatedAt)
            // Everyone's fingerprint taken, for the same people and history.
            let everyone = try await renderer.render(
                people, generatedAt: Self.generatedAt, history: history, fingerprintsFor: publisher.output.path,
                to: DirectorySiteOutput(root: root.appendingPathComponent("full-\(number)")))
            let made = try #require(report.fingerprints)
            #expect(made == everyone.fingerprints, "night \(number)")
            #expect(
                try SiteRenderReuseTests.Nightly.files(in: publisher.output).filter {
                    $0.key != SitePublisher.markerName
                }
                    == SiteRenderReuseTests.Nightly.files(in: root.appendingPathComponent("full-\(number)")),
                "night \(number)")
            if number > 0 {
                #expect(report.fingerprintsCarried > people.count / 2, "night \(number): \(report.fingerprintsCarried)")
                #expect(report.fingerprintsCarried + report.peopleRendered <= people.count)
            }
            changePagesCarried += report.changePagesCarried
            #expect(report.changePagesCarried < max(1, number), "night \(number): tonight's page is new")
            // Kept as the pipeline keeps them: through the state file.
            kept = made.encoded().withUnsafeBytes { RenderFingerprints.decode($0, output: publisher.output.path) }
            let context = try #require(kept?.context, "night \(number): the context is kept with the fingerprints")
            #expect(context.snapshot == Self.snapshot(number))
            #expect(context.lengthened?.count == ((2...3).contains(number) ? 2 : 0), "night \(number)")
        }
        #expect(changePagesCarried > 0, "some night's page was carried over, and the site still equals a full render")
    }

    @Test("nothing is carried from fingerprints made with another snapshot, options or history")
    func carriesOnlyFromTheSameContext() async throws {
        let (team, twins) = try Self.team()
        let first = Snapshot.canonicallySorted(team)
        let second = Snapshot.canonicallySorted(Self.changing(first, night: 1, twins: twins))
        var unequal: Set<String> = []
        let diff = DirectoryDiff.between(canonical: first, second, unequal: &unequal)
        let root = try SiteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("Output").path
        func night(
            _ people: [User], reach: PageReach, reusing kept: RenderFingerprints? = nil,
            options: SiteOptions = SiteOptions(), history: ChangeHistory = ChangeHistory()
        ) async throws -> SiteReport {
            try await SiteRenderer(options: options).render(
                people, generatedAt: Self.generatedAt, history: history, fingerprintsFor: output, reusing: kept,
                reach: reach, to: DirectorySiteOutput(root: root.appendingPathComponent(UUID().uuidString)))
        }
        let made = try #require(try await night(first, reach: PageReach(recording: Self.snapshot(0))).fingerprints)
        func reach(baseline: String) -> PageReach {
            PageReach(
                recording: Self.snapshot(1), baseline: baseline, previous: first, current: second, diff: diff,
                unequal: unequal)
        }
        #expect(
            try await night(second, reach: reach(baseline: Self.snapshot(0)), reusing: made).fingerprintsCarried > 0)
        #expect(try await night(second, reach: reach(baseline: "another.json"), reusing: made).fingerprintsCarried == 0)
        var title = SiteOptions()
        title.title = "Another phone book"
        #expect(
            try await night(second, reach: reach(baseline: Self.snapshot(0)), reusing: made, options: title)
                .fingerprintsCarried == 0)
        let retained = ChangeHistory(
            entries: [DiffReport(old: Self.side(-1, first), new: Self.side(0, first), diff: DirectoryDiff())])
        #expect(
            try await night(second, reach: reach(baseline: Self.snapshot(0)), reusing: made, history: retained)
                .fingerprintsCarried == 0,
            "a night of the history that the fingerprints' run did not show")
        var unknown = made
        unknown.context = nil
        #expect(
            try await night(second, reach: reach(baseline: Self.snapshot(0)), reusing: unknown).fingerprintsCarried == 0
        )
    }

    @Test("the context's two lines read back as written; anything else reads as none")
    func contextLines() throws {
        let digest = RenderFingerprint(high: 0x0123_4567_89AB_CDEF, low: 42)
        let context = PageContext(
            snapshot: "2026-03-10T02-00-00Z 2.json", site: digest, history: digest, departments: digest,
            lengthened: ["b", "a-1"])
        let lines = context.lines.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(PageContext(line: lines[0], lengthenedLine: lines[1]) == context)
        var none = context
        none.lengthened = []
        let noneLines = none.lines.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(PageContext(line: noneLines[0], lengthenedLine: noneLines[1]) == none)
        var spaced = context
        spaced.lengthened = ["an id with spaces"]
        let spacedLines = spaced.lines.split(separator: "\n")
        #expect(spacedLines[1] == "lengthened unknown")
        #expect(PageContext(line: spacedLines[0], lengthenedLine: spacedLines[1])?.lengthened == nil)
        for broken in [
            "context unknown", "context 12 34 56 x.json", "contexts \(digest.hex) \(digest.hex) \(digest.hex) x",
        ] {
            #expect(PageContext(line: broken[...], lengthenedLine: "lengthened") == nil, "\(broken)")
        }
    }
}
