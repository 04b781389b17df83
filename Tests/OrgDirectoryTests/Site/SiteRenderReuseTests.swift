import Crypto
import Foundation
import Testing

@testable import OrgDirectory

/// A nightly render that carries unchanged people over must give the very bytes a full build from scratch of the
/// same data gives, and must not render the people it carried over.
@Suite("Nightly render reuse")
struct SiteRenderReuseTests {
    static let generatedAt = Date(timeIntervalSince1970: 1_763_000_000)

    /// Two nights and a build from scratch of the second night's data.
    struct Nightly {
        let root: URL
        let output: URL
        let first: SiteReport
        let second: SiteReport

        /// Every file of the published site (the marker aside) equals the build from scratch, and no file is
        /// missing or extra.
        func matchesBuildFromScratch(
            _ users: [User], options: SiteOptions, history: ChangeHistory
        ) async throws -> Bool {
            let fresh = root.appendingPathComponent("fresh")
            let renderer = try SiteRenderer(options: options)
            _ = try await renderer.render(
                users, generatedAt: SiteRenderReuseTests.generatedAt, history: history,
                to: DirectorySiteOutput(root: fresh))
            let published = try Self.files(in: output).filter { $0.key != SitePublisher.markerName }
            let scratch = try Self.files(in: fresh)
            return published.count > 0 && published == scratch
        }

        static func files(in folder: URL) throws -> [String: Data] {
            var files: [String: Data] = [:]
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = enumerator?.nextObject() as? URL {
                guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
                let relative = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
                files[relative] = try Data(contentsOf: url)
            }
            return files
        }
    }

    /// Publishes `before` with `options`, then `after` with `afterOptions` reusing the first run's fingerprints,
    /// as the build pipeline does; `between` may touch the published site in between.
    static func nightly(
        _ before: [User], _ after: [User], options: SiteOptions = SiteOptions(), afterOptions: SiteOptions? = nil,
        history: ChangeHistory = SiteFixtures.history, between: (URL) throws -> Void = { _ in }
    ) async throws -> Nightly {
        let root = try SiteFixtures.temporaryFolder()
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        var staging = try publisher.makeStaging()
        let first = try await SiteRenderer(options: options).render(
            before, generatedAt: generatedAt, history: history, fingerprintsFor: publisher.output.path,
            to: staging)
        try publisher.publish(staging, generatedAt: generatedAt)
        try between(publisher.output)
        staging = try publisher.makeStaging()
        let second = try await SiteRenderer(options: afterOptions ?? options).render(
            after, generatedAt: generatedAt, history: history, fingerprintsFor: publisher.output.path,
            reusing: first.fingerprints, to: staging)
        try publisher.publish(staging, generatedAt: generatedAt)
        return Nightly(root: root, output: publisher.output, first: first, second: second)
    }

    /// Managers are named only by their id here, so a report's page shows the name resolved from the directory.
    static var team: [User] {
        SiteFixtures.friendly.map { user in
            var user = user
            if let manager = user.manager { user.manager = ManagerReference(id: manager.id, displayName: nil) }
            return user
        }
    }

    static func changing(_ users: [User], id: String, _ change: (inout User) -> Void) -> [User] {
        users.map { user in
            var user = user
            if user.id == id { change(&user) }
            return user
        }
    }

    @Test("with nothing changed, nobody is rendered and the site equals a build from scratch")
    func nothingChanged() async throws {
        let run = try await Self.nightly(Self.team, Self.team)
        defer { try? FileManager.default.removeItem(at: run.root) }
        #expect(run.first.peopleRendered == Self.team.count)
        #expect(run.second.peopleRendered == 0)
        #expect(run.second.peopleReused == Self.team.count)
        #expect(try await run.matchesBuildFromScratch(Self.team, options: SiteOptions(), history: SiteFixtures.history))
    }

    @Test("a changed job title renders that person and their manager (whose page lists it), nobody else")
    func changedJobTitle() async throws {
        let after = Self.changing(Self.team, id: SiteFixtures.ivan.id) { $0.jobTitle = "Lead Analyst" }
        let run = try await Self.nightly(Self.team, after)
        defer { try? FileManager.default.removeItem(at: run.root) }
        #expect(run.second.peopleRendered == 2)
        #expect(run.second.peopleReused == Self.team.count - 2)
        #expect(try await run.matchesBuildFromScratch(after, options: SiteOptions(), history: SiteFixtures.history))
    }

    @Test(
        "a renamed manager re-renders their reports, whose pages show the manager's name (and slug)",
        arguments: ["Søren Nørgaard", "SØREN ØSTERGAARD"])
    func renamedManager(name: String) async throws {
        let after = Self.changing(Self.team, id: SiteFixtures.boss.id) { $0.displayName = name }
        #expect(
            (Slug.assign(after) == Slug.assign(Self.team)) == (name == "SØREN ØSTERGAARD"),
            "the upper-case rename keeps every slug, so only the name tells the reports' pages apart")
        let run = try await Self.nightly(Self.team, after)
        defer { try? FileManager.default.removeItem(at: run.root) }
        // The manager, and Jürgen and Иван who report to them.
        #expect(run.second.peopleRendered == 3)
        #expect(try await run.matchesBuildFromScratch(after, options: SiteOptions(), history: SiteFixtures.history))
    }

    @Test("a new report re-renders the manager's page; a leaver's files disappear")
    func newReportAndLeaver() async throws {
        let hire = User(
            id: "0a1b2c3d-0000-4000-8000-000000000099", userPrincipalName: "new@contoso.com",
            displayName: "Nora New", givenName: "Nora", surname: "New", jobTitle: "Engineer",
            manager: ManagerReference(id: SiteFixtures.strasse.id, displayName: nil))
        let after = Self.team.filter { $0.id != SiteFixtures.chen.id } + [hire]
        let run = try await Self.nightly(Self.team, after)
        defer { try? FileManager.default.removeItem(at: run.root) }
        #expect(run.second.peopleRendered == 2)
        #expect(try await run.matchesBuildFromScratch(after, options: SiteOptions(), history: SiteFixtures.history))
    }

    /// Two people with the same name whose ids' short hashes collide (found by a birthday search over ids).
    static func collidingPair() -> (User, User) {
        var seen: [String: User] = [:]
        for number in 0..<1_000_000 {
            let user = User(
                id: "twin-\(number)", userPrincipalName: "twin\(number)@contoso.com", displayName: "Tove Twin",
                givenName: "Tove", surname: "Twin",
                manager: ManagerReference(id: SiteFixtures.boss.id, displayName: nil))
            let slug = Slug.make(for: user)
            if let earlier = seen[slug] { return (earlier, user) }
            seen[slug] = user
        }
        return (seen.values.first ?? SiteFixtures.greek, SiteFixtures.greek)
    }

    @Test("a joiner whose slug collides with someone's moves that person's files and their manager's link")
    func slugCollision() async throws {
        let (existing, joiner) = Self.collidingPair()
        #expect(Slug.make(for: existing) == Slug.make(for: joiner), "the fixture must make the slugs collide")
        let before = Self.team + [existing]
        let after = before + [joiner]
        let run = try await Self.nightly(before, after)
        defer { try? FileManager.default.removeItem(at: run.root) }
        // The existing twin (longer slug now), the joiner, and Søren whose reports list links the twin's page.
        #expect(run.second.peopleRendered == 3)
        #expect(try await run.matchesBuildFromScratch(after, options: SiteOptions(), history: SiteFixtures.history))
    }

    @Test("a changed title, hidden field or exports list renders everyone", arguments: [0, 1, 2])
    func changedOptions(variant: Int) async throws {
        var changed = SiteOptions()
        switch variant {
        case 0: changed.title = "Phone book"
        case 1: changed.hideFields = ["mobilePhone"]
        default: changed.exports = [.csv]
        }
        let run = try await Self.nightly(Self.team, Self.team, afterOptions: changed)
        defer { try? FileManager.default.removeItem(at: run.root) }
        #expect(run.second.peopleReused == 0)
        #expect(try await run.matchesBuildFromScratch(Self.team, options: changed, history: SiteFixtures.history))
    }

    @Test("a templates folder that overrides one partial or one asset renders everyone", arguments: [false, true])
    func changedTemplates(asset: Bool) async throws {
        let folder = try SiteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        if asset {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("assets"), withIntermediateDirectories: true)
            try "body { color: teal }\n".write(
                to: folder.appendingPathComponent("assets/site.css"), atomically: true, encoding: .utf8)
        } else {
            try "{{#manager}}Boss: {{name}}{{/manager}}\n".write(
                to: folder.appendingPathComponent("person.mustache"), atomically: true, encoding: .utf8)
        }
        var changed = SiteOptions()
        changed.templatesDirectory = folder
        let run = try await Self.nightly(Self.team, Self.team, afterOptions: changed)
        defer { try? FileManager.default.removeItem(at: run.root) }
        #expect(run.second.peopleReused == 0)
        #expect(try await run.matchesBuildFromScratch(Self.team, options: changed, history: SiteFixtures.history))
    }

    @Test("a person whose published file was deleted is rendered again instead of carried over")
    func missingPublishedFile() async throws {
        let slug = Slug.assign(Self.team)[0]
        let run = try await Self.nightly(Self.team, Self.team) { output in
            try FileManager.default.removeItem(at: output.appendingPathComponent("people/\(slug).vcf"))
        }
        defer { try? FileManager.default.removeItem(at: run.root) }
        #expect(run.second.peopleRendered == 1)
        #expect(try await run.matchesBuildFromScratch(Self.team, options: SiteOptions(), history: SiteFixtures.history))
    }

    @Test("without a history every run's stamp is new, so everyone is rendered again")
    func newStampWithoutHistory() async throws {
        let run = try await Self.nightly(Self.team, Self.team, history: ChangeHistory())
        defer { try? FileManager.default.removeItem(at: run.root) }
        // Same generatedAt here, so the stamp is the same and everyone is reused; a later run is tested below.
        #expect(run.second.peopleReused == Self.team.count)
        let later = try await SiteRenderer(options: SiteOptions()).render(
            Self.team, generatedAt: Self.generatedAt + 3_600, history: ChangeHistory(),
            fingerprintsFor: run.output.path, reusing: run.second.fingerprints,
            to: DirectorySiteOutput(root: run.root.appendingPathComponent("later")))
        #expect(later.peopleReused == 0)
    }

    @Test("fingerprints kept for another output folder are not used")
    func otherOutputFolder() async throws {
        let run = try await Self.nightly(Self.team, Self.team)
        defer { try? FileManager.default.removeItem(at: run.root) }
        let elsewhere = SitePublisher(output: run.root.appendingPathComponent("Elsewhere"))
        let staging = try elsewhere.makeStaging()
        let report = try await SiteRenderer(options: SiteOptions()).render(
            Self.team, generatedAt: Self.generatedAt, history: SiteFixtures.history,
            fingerprintsFor: elsewhere.output.path, reusing: run.second.fingerprints, to: staging)
        elsewhere.discard(staging)
        #expect(report.peopleReused == 0)
    }
}

@Suite("Render fingerprint file")
struct RenderFingerprintFileTests {
    static let fingerprints = RenderFingerprints(
        output: "/srv/Output",
        byID: [
            "a": RenderFingerprint(high: 1, low: 2), "b-ü": RenderFingerprint(high: .max, low: 0),
            "bad\nid": RenderFingerprint(high: 3, low: 4),
        ])

    @Test("a render's fingerprints are written in the order it made them; read back, they are the same")
    func renderOrder() throws {
        let made = RenderFingerprints(
            output: "/srv/Output",
            inOrder: [
                [
                    ("z", RenderFingerprint(high: 1, low: 1), "zed-1"),
                    ("bad\nid", RenderFingerprint(high: 2, low: 2), "bad-2"),
                ],
                [("a", RenderFingerprint(high: 3, low: 3), "a-3"), ("z", RenderFingerprint(high: 4, low: 4), "zed-4")],
            ])
        let lines = String(decoding: made.encoded(), as: UTF8.self).split(separator: "\n").dropFirst(6)
        #expect(lines.map { $0.split(separator: " ").last.map(String.init) } == ["zed-1/z", "a-3/a", "zed-4/z"])
        let decoded = try #require(decodeFingerprints(made.encoded(), output: "/srv/Output"))
        #expect(decoded.count == 2, "the id that could break a line is left out")
        #expect(decoded.fingerprint(of: "a") == RenderFingerprint(high: 3, low: 3))
        #expect(decoded.fingerprint(of: "z") == RenderFingerprint(high: 4, low: 4), "the last of a repeated id")
        #expect(made.fingerprint(of: "a") == nil, "a render's own fingerprints are looked up once indexed")
        #expect(made.indexed().fingerprint(of: "z") == RenderFingerprint(high: 4, low: 4))
        #expect(decoded.encoded() != made.encoded(), "read from a file, ids are sorted")
        var pieces: [[UInt8]] = []
        made.encode(pieceSize: 10) { pieces.append($0) }
        #expect(pieces.count == 3 && pieces.joined().elementsEqual(made.encoded()), "written in pieces, the same")
    }

    @Test("the site's slugs name the person files a nightly run removes from the site it updates in place")
    func staleSlugs() throws {
        let people = [
            User(id: "a", userPrincipalName: "a@c.com", displayName: "Ada Byron"),
            User(id: "b", userPrincipalName: "b@c.com", displayName: "Bea Lovelace"),
            User(id: "c", userPrincipalName: "c@c.com", displayName: "Cy Young"),
        ]
        let directory = SiteDirectory(users: people, hiding: [])
        let slug = { (id: String) in directory.people[try #require(directory.positionByID[id])].slug }
        let fingerprint = RenderFingerprint(high: 1, low: 1)
        let site = RenderFingerprints(
            output: "/srv/Output",
            inOrder: [
                [
                    ("a", fingerprint, try slug("a")),  // still here, same slug: kept
                    ("b", fingerprint, "bea-old"),  // renamed: the old slug goes
                    ("gone", fingerprint, "gone-1"),  // left: goes
                    ("left-too", fingerprint, try slug("c")),  // left, but the slug is someone's now: kept
                ]
            ])
        let read = try #require(decodeFingerprints(site.encoded(), output: "/srv/Output"))
        #expect(read.staleSlugs(in: directory) == ["bea-old", "gone-1"])
        #expect(site.indexed().staleSlugs(in: directory) == ["bea-old", "gone-1"])
        #expect(
            decodeFingerprints(site.encoded(), output: "/srv/Output", slugs: false)?.staleSlugs(in: directory)
                == nil, "read without slugs, they name no files")
        let twice = RenderFingerprints(
            output: "/srv/Output", inOrder: [[("a", fingerprint, "a-1")], [("a", fingerprint, "a-2")]])
        #expect(
            decodeFingerprints(twice.encoded(), output: "/srv/Output")?.staleSlugs(in: directory) == nil,
            "an id made twice: the file cannot name both people's files")
        let unstorable = RenderFingerprints(output: "/srv/Output", inOrder: [[("bad\nid", fingerprint, "bad-1")]])
        #expect(
            decodeFingerprints(unstorable.encoded(), output: "/srv/Output")?.staleSlugs(in: directory) == nil)
        #expect(Self.fingerprints.staleSlugs(in: directory) == nil, "fingerprints without slugs")
    }

    @Test("hex digits read back to the fingerprint written, in either case; anything else is refused")
    func hexDigits() {
        let fingerprint = RenderFingerprint(high: 0x0123_4567_89ab_cdef, low: .max)
        var hex: [UInt8] = []
        fingerprint.appendHex(to: &hex)
        #expect(RenderFingerprint(hexBytes: hex[...]) == fingerprint)
        let upper = Array(String(decoding: hex, as: UTF8.self).uppercased().utf8)
        #expect(RenderFingerprint(hexBytes: upper[...]) == fingerprint)
        #expect(RenderFingerprint(hexBytes: Array("+123456789abcdef0123456789abcdef".utf8)[...]) == nil)
        #expect(RenderFingerprint(hexBytes: hex.dropLast()) == nil)
    }

    @Test("the file reads back to the same fingerprints, leaving out ids that could break a line")
    func roundTrip() throws {
        let decoded = decodeFingerprints(Self.fingerprints.encoded(), output: "/srv/Output")
        #expect(decoded?.count == 2)
        #expect(decoded?.fingerprint(of: "b-ü") == RenderFingerprint(high: .max, low: 0))
        #expect(decoded?.fingerprint(of: "bad\nid") == nil)
    }

    @Test(
        "a foreign version, another output, a cut-off or corrupt file means no fingerprints",
        arguments: ["version", "output", "cut", "corrupt", "empty"])
    func rejected(kind: String) throws {
        var text = String(decoding: Self.fingerprints.encoded(), as: UTF8.self)
        var output = "/srv/Output"
        switch kind {
        case "version": text = text.replacingOccurrences(of: "version \(OrgDirVersion.current)", with: "version 0.0.0")
        case "output": output = "/srv/Other"
        case "cut": text = String(text.dropLast(5))
        case "corrupt": text = text.replacingOccurrences(of: "00000000000000010000000000000002", with: "zz")
        default: text = ""
        }
        #expect(decodeFingerprints(Array(text.utf8), output: output) == nil)
    }

    @Test("the store writes atomically into the state folder and forgets on clear")
    func store() throws {
        let state = try SiteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let store = RenderFingerprintStore(stateDirectory: state, output: URL(fileURLWithPath: "/srv/Output"))
        #expect(store.load() == nil)
        try store.save(Self.fingerprints)
        #expect(store.load()?.count == 2)
        store.clear()
        #expect(store.load() == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty)
    }

    @Test("the spare's fingerprints keep their file's text to copy lines from, after the file is gone")
    func spareKeepsItsText() throws {
        let state = try SiteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let store = RenderFingerprintStore(stateDirectory: state, output: URL(fileURLWithPath: "/srv/Output"))
        let directory = SiteDirectory(users: SiteBenchmarkDirectory.users(count: 30), hiding: [])
        let order = try #require(directory.displayPositionsInIDOrder())
        let entries = directory.people.map { ($0.user.id, RenderFingerprint(high: 1, low: UInt64($0.index)), $0.slug) }
        let made = RenderFingerprints(output: "/srv/Output", inOrder: [entries], idOrder: order)
        try store.save(made)
        store.retirePublished()
        try store.save(made)
        let read = store.read(spare: true)
        // The published site's are read without slugs, so nothing is copied from them.
        #expect(read.published?.idOrdered != nil && read.published?.idOrdered?.text == nil)
        let spare = try #require(read.spare)
        #expect(spare.idOrdered?.text?.lineCount == 30)
        // A run removes the spare's file before it changes the spare, and copies from it at the end.
        store.clearSpare()
        let lines = try #require(spare.byPosition(in: directory, idOrder: order, keepingLines: true).lines)
        let copying = RenderFingerprints(output: "/srv/Output", inOrder: [entries], idOrder: order, copying: lines)
        #expect(copying.encoded() == made.encoded())
    }
}

@Suite("Render fingerprint input")
struct RenderFingerprintInputTests {
    /// Every field set (`SnapshotFixtures.everyField`).
    static let full = SnapshotFixtures.everyField

    @Test("a fingerprint is the first 128 bits of the input's SHA-256, for empty, short and multi-block inputs")
    func fingerprintIsTruncatedSHA256() {
        for length in [0, 1, 55, 56, 63, 64, 65, 300, 4_097] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ length) }
            let digest = Array(SHA256.hash(data: bytes))
            let high = digest[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let low = digest[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            #expect(RenderFingerprint(hashing: bytes) == RenderFingerprint(high: high, low: low), "\(length) bytes")
        }
    }

    static func fingerprint(_ user: User) -> RenderFingerprint {
        var input = FingerprintInput()
        input.add(user: user)
        return input.fingerprint
    }

    @Test("the fingerprint reads every stored property of a user: a new field must be added to it")
    func everyFieldCounted() {
        #expect(Mirror(reflecting: Self.full).children.count == User.fingerprintFieldCount)
    }

    @Test("changing, clearing or moving any one field changes a user's fingerprint and makes the records unequal")
    func everyFieldChangesIt() {
        let variants: [(String, (inout User) -> Void)] = [
            ("id", { $0.id = "id-2" }), ("upn", { $0.userPrincipalName = "x@contoso.com" }),
            ("name", { $0.displayName = "Ada King" }), ("given", { $0.givenName = nil }),
            ("surname", { $0.surname = "King" }), ("mail", { $0.mail = nil }),
            ("phones", { $0.businessPhones = ["+1 555 0100"] }),
            ("phone moved", { $0.businessPhones = ["+1 555 01", "00+1 555 0101"] }),
            ("mobile", { $0.mobilePhone = nil }), ("title", { $0.jobTitle = "Engineer" }),
            ("department", { $0.department = nil }), ("office", { $0.officeLocation = "Paris" }),
            ("company", { $0.companyName = nil }), ("enabled", { $0.accountEnabled = false }),
            ("enabled unknown", { $0.accountEnabled = nil }), ("type", { $0.userType = "Guest" }),
            ("employee", { $0.employeeId = nil }), ("language", { $0.preferredLanguage = "fr" }),
            ("manager", { $0.manager = nil }), ("manager id", { $0.manager?.id = "m-2" }),
            ("manager name", { $0.manager?.displayName = nil }), ("extra value", { $0.extra["a"] = "3" }),
            ("extra key", { $0.extra = ["a": "1", "c": "2"] }), ("extra gone", { $0.extra = [:] }),
            (
                "value moved between fields",
                {
                    $0.givenName = "Ada Lovelace"; $0.surname = nil
                }
            ),
        ]
        // The diff's in-place comparison sees every change `==` sees, and nothing else.
        for (name, change) in variants {
            var changed = Self.full
            change(&changed)
            var pair = [Self.full, changed]
            let same = pair.withUnsafeMutableBufferPointer { User.sameRecord($0.baseAddress!, $0.baseAddress! + 1) }
            #expect(!same, "\(name)")
            #expect(same == (Self.full == changed), "\(name)")
        }
        var twins = [Self.full, Self.full]
        #expect(twins.withUnsafeMutableBufferPointer { User.sameRecord($0.baseAddress!, $0.baseAddress! + 1) })
        let original = Self.fingerprint(Self.full)
        var seen: Set<RenderFingerprint> = [original]
        for (name, change) in variants {
            var user = Self.full
            change(&user)
            let changed = Self.fingerprint(user)
            #expect(changed != original, "\(name)")
            seen.insert(changed)
        }
        #expect(seen.count == variants.count + 1, "every variant gives its own fingerprint")
        var reordered = Self.full
        reordered.extra = ["a": "1", "b": "2"]
        #expect(Self.fingerprint(reordered) == original, "the extra properties' order does not matter")
    }
}

/// `RenderFingerprints.decode` of bytes held in an array (a run decodes the mapped file).
private func decodeFingerprints(_ bytes: [UInt8], output: String, slugs: Bool = true) -> RenderFingerprints? {
    bytes.withUnsafeBytes { RenderFingerprints.decode($0, output: output, slugs: slugs) }
}

extension RenderFingerprint {
    /// `init?(hexBytes:)` of any bytes (tests).
    init?(hexBytes: some Collection<UInt8>) {
        guard let parsed = Array(hexBytes).withUnsafeBytes({ RenderFingerprint(hexBytes: $0) }) else { return nil }
        self = parsed
    }
}
