import Foundation
import GraphSandbox
import Testing

/// The site's change history through the real binary: run N's site already shows run N's changes, the
/// history survives between runs in the state folder, and a run that finds no change rewrites no file.
@Suite("Site history end to end", .serialized)
struct SiteHistoryEndToEndTests {
    /// Modification time of every file under the output, except the marker the publisher stamps on each run.
    static func modificationTimes(_ workspace: Workspace) throws -> [String: Date] {
        var times: [String: Date] = [:]
        for path in try workspace.outputFingerprint().keys where path != ".orgdir-site" {
            let url = workspace.output.appendingPathComponent(path)
            times[path] = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
        }
        return times
    }

    /// The files whose modification time differs from `before`.
    static func rewritten(_ workspace: Workspace, since before: [String: Date]) throws -> [String] {
        let now = try modificationTimes(workspace)
        return Set(now.keys).union(before.keys).filter { now[$0] != before[$0] }.sorted()
    }

    static func summary(_ outcome: OrgDirProcess.Outcome) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]) ?? [:]
    }

    /// `orgdir build --json` with `settings` in `workspace`, expected to succeed: its summary.
    static func build(
        _ settings: URL, in workspace: Workspace, environment: [String: String]
    ) async throws -> [String: Any] {
        let outcome = try await OrgDirProcess.run(
            ["build", "--config", settings.path, "--json"], in: workspace.folder, environment: environment)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        return summary(outcome)
    }

    /// A name that needs no escaping in HTML or Markdown, so the test can look for it verbatim.
    static func plain(_ user: SandboxUser) -> Bool {
        user.department?.allSatisfy({ $0.isLetter || $0 == " " }) == true
            && user.displayName.allSatisfy { $0.isLetter || $0 == " " }
    }

    @Test("a run's site shows that run's changes; unchanged runs rewrite nothing, before and after a change")
    func historyOnTheSite() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 40, seed: 11)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let environment = ["ORGDIR_CLIENT_SECRET": configuration.clientSecret]
            func build() async throws -> OrgDirProcess.Outcome {
                let outcome = try await OrgDirProcess.run(
                    ["build", "--config", settings.path, "--json"], in: workspace.folder, environment: environment)
                #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
                return outcome
            }
            _ = try await build()
            #expect(
                try String(contentsOf: workspace.output.appendingPathComponent("changes.html"), encoding: .utf8)
                    .contains("No changes recorded yet"))
            let firstTimes = try Self.modificationTimes(workspace)
            let unchanged = Self.summary(try await build())
            #expect(unchanged["filesWritten"] as? Int == 0, "\(unchanged)")
            #expect(try Self.rewritten(workspace, since: firstTimes) == [])

            let candidates = await sandbox.users.filter(Self.plain)
            let mover = try #require(candidates.first)
            let leaver = try #require(candidates.last)
            var moved = mover
            moved.department = "Operations"
            try await sandbox.mutate(.update(moved))
            try await sandbox.mutate(.remove(id: leaver.id))
            let beforeChange = try Self.modificationTimes(workspace)
            let changedRun = Self.summary(try await build())
            #expect(changedRun["leavers"] as? Int == 1 && changedRun["changed"] as? Int == 1, "\(changedRun)")
            // Only the pages of people the change touched are rewritten: their "data as of" is their own last
            // change, not the run's, so a nightly run does not rewrite the whole phone book.
            let everyone = await sandbox.users
            let touchedIds =
                [mover.id, mover.managerId, leaver.managerId].compactMap { $0 }
                + everyone.filter { $0.managerId == mover.id || $0.managerId == leaver.id }.map(\.id)
            let touchedNames = Set(everyone.filter { touchedIds.contains($0.id) }.map(\.displayName))
            // HTML pages carry the stamp to the second, Markdown to the minute: look at both, named by the twin.
            let rewrittenPages = try Self.rewritten(workspace, since: beforeChange).filter {
                $0.hasPrefix("people/") && ($0.hasSuffix(".md") || $0.hasSuffix(".html"))
                    && FileManager.default.fileExists(atPath: workspace.output.appendingPathComponent($0).path)
            }
            #expect(!rewrittenPages.isEmpty)
            var rewrittenNames: Set<String> = []
            for path in rewrittenPages {
                let twin = path.hasSuffix(".html") ? String(path.dropLast(".html".count)) + ".md" : path
                let text = try String(contentsOf: workspace.output.appendingPathComponent(twin), encoding: .utf8)
                let name = String(text.prefix { $0 != "\n" }.dropFirst(2))
                rewrittenNames.insert(name)
                #expect(touchedNames.contains(name), "\(path) (\(name)) was rewritten though nothing of it changed")
            }
            #expect(rewrittenNames.contains(mover.displayName), "the mover's own page is rewritten")

            let day = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
            let changes = try String(
                contentsOf: workspace.output.appendingPathComponent("changes.html"), encoding: .utf8)
            let oldDepartment = mover.department ?? ""
            #expect(changes.contains("<strong>Department</strong>: \(oldDepartment) → Operations"), "\(changes)")
            #expect(changes.contains("<h3>Left</h3>") && changes.contains(leaver.displayName))
            let page = try #require(
                workspace.files(in: "people", withExtension: "md").map {
                    try String(contentsOf: workspace.output.appendingPathComponent("people/\($0)"), encoding: .utf8)
                }.first { $0.hasPrefix("# \(mover.displayName)\n") })
            #expect(page.contains("- **Department**: \(oldDepartment) → Operations, [\(day)]"), "\(page)")
            let feed = try String(contentsOf: workspace.output.appendingPathComponent("changes.atom"), encoding: .utf8)
            #expect(feed.contains("<entry>") && feed.contains("Moved: \(mover.displayName): Department"))
            #expect(
                FileManager.default.fileExists(atPath: workspace.state.appendingPathComponent("history.jsonl").path))

            let afterChange = try Self.modificationTimes(workspace)
            let quiet = Self.summary(try await build())
            #expect(quiet["filesWritten"] as? Int == 0, "\(quiet)")
            #expect(try Self.rewritten(workspace, since: afterChange) == [])
            let still = try String(contentsOf: workspace.output.appendingPathComponent("changes.html"), encoding: .utf8)
            #expect(still.contains("→ Operations"), "the history is kept between runs")
        }
    }

    @Test("the plist's exports and hideFields reach the published site")
    func exportsAndHiddenFields() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 30, seed: 3)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [
                    ("exports", "<array><string>json</string></array>"),
                    ("hideFields", "<array><string>mobilePhone</string></array>"),
                ])
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let files = try workspace.outputFingerprint()
            #expect(files["people.json"] != nil && files["people.csv"] == nil && files["people.vcf"] == nil)
            let mobiles = await sandbox.users.compactMap(\.mobilePhone)
            let mobile = try #require(mobiles.first)
            for (path, bytes) in files where !path.hasPrefix("assets/") {
                #expect(!String(decoding: bytes, as: UTF8.self).contains(mobile), "\(path) shows a hidden mobile")
            }
            let index = String(decoding: files["index.html"] ?? Data(), as: UTF8.self)
            #expect(index.contains("people.json") && !index.contains("people.csv"))
        }
    }

    @Test("a nightly run renders only the people a change touched and carries the rest over, byte for byte")
    func unchangedPeopleAreNotRendered() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 40, seed: 12)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [("expandManager", "<true/>")])
            let environment = ["ORGDIR_CLIENT_SECRET": configuration.clientSecret]
            func build() async throws -> [String: Any] {
                try await Self.build(settings, in: workspace, environment: environment)
            }
            let first = try await build()
            #expect(first["peopleRendered"] as? Int == 40 && first["peopleReused"] as? Int == 0, "\(first)")
            #expect(
                FileManager.default.fileExists(atPath: workspace.state.appendingPathComponent("preparations.bin").path),
                "a first build keeps everyone's preparation")
            let fingerprints = workspace.state.appendingPathComponent("render-fingerprints.txt")
            #expect(FileManager.default.fileExists(atPath: fingerprints.path))
            #expect(
                FileManager.default.fileExists(atPath: workspace.state.appendingPathComponent("search-tokens.bin").path)
            )
            let unchanged = try await build()
            #expect(unchanged["peopleRendered"] as? Int == 0 && unchanged["peopleReused"] as? Int == 40, "\(unchanged)")
            #expect(unchanged["peopleTokenized"] as? Int == 0, "everyone's search tokens come from the run before")
            #expect(
                unchanged["fingerprintsCarried"] as? Int == 40,
                "no change reached anyone's page: every fingerprint is carried from the run before: \(unchanged)")
            #expect(unchanged["exportRowsCopied"] as? Int == 3 * 40, "every export row is copied: \(unchanged)")
            #expect(
                unchanged["peoplePreparedBefore"] as? Int == 40,
                "a first build keeps everyone's preparation for the first nightly: \(unchanged)")
            #expect(
                FileManager.default.fileExists(atPath: workspace.state.appendingPathComponent("preparations.bin").path))

            // Someone with no reports changes title: their page and their manager's (which lists it) are rendered.
            let everyone = await sandbox.users
            let changer = try #require(everyone.first { user in !everyone.contains { $0.managerId == user.id } })
            var changed = changer
            changed.jobTitle = "Chief Tester"
            try await sandbox.mutate(.update(changed))
            let nightly = try await build()
            #expect(changer.managerId != nil, "the seed must give the changer a manager")
            let expected = changer.managerId == nil ? 1 : 2
            #expect(nightly["peopleRendered"] as? Int == expected, "\(nightly)")
            #expect(nightly["peopleReused"] as? Int == 40 - expected, "\(nightly)")
            #expect(nightly["peopleTokenized"] as? Int == 1, "only the changer is tokenized: \(nightly)")
            #expect(
                nightly["fingerprintsCarried"] as? Int == 40 - expected,
                "the changer's and their manager's fingerprints are taken, everyone else's carried: \(nightly)")
            #expect(nightly["peoplePreparedBefore"] as? Int == 39, "only the changer is prepared: \(nightly)")
            #expect(nightly["exportRowsCopied"] as? Int == 3 * 39, "only the changer's rows are made: \(nightly)")

            // A night's page is carried over while none of its people's page links can have moved: a new title on
            // one of them leaves it, a rename renders it.
            let nightPages = { workspace.files(in: "changes", withExtension: "html").sorted() }
            #expect(nightPages().count == 1)
            let firstNight = try #require(nightPages().first)
            let firstNightBytes = try Data(contentsOf: workspace.output.appendingPathComponent("changes/\(firstNight)"))
            let other = try #require(
                everyone.first { user in
                    user.id != changer.id && user.managerId != nil && !everyone.contains { $0.managerId == user.id }
                })
            var otherChanged = other
            otherChanged.jobTitle = "Second Tester"
            try await sandbox.mutate(.update(otherChanged))
            let second = try await build()
            #expect(second["changePagesCarried"] as? Int == 1, "the first night's page is carried: \(second)")
            #expect(nightPages().count == 2)
            #expect(
                try Data(contentsOf: workspace.output.appendingPathComponent("changes/\(firstNight)"))
                    == firstNightBytes)
            changed.jobTitle = "Chief Tester Again"
            try await sandbox.mutate(.update(changed))
            let retitled = try await build()
            #expect(retitled["changePagesCarried"] as? Int == 2, "a new title moves no link: \(retitled)")
            // Renamed, the changer's page moves: the first night's page, which links it, is rendered again.
            changed.displayName = "Renamed Tester"
            try await sandbox.mutate(.update(changed))
            let third = try await build()
            #expect(
                third["changePagesCarried"] as? Int == 1,
                "the second night's page is carried (the third's too), the first (which links the renamed changer) rendered: \(third)"
            )
            let relinked = try String(
                contentsOf: workspace.output.appendingPathComponent("changes/\(firstNight)"), encoding: .utf8)
            #expect(relinked.contains("people/renamed-tester-"), "\(relinked)")

            // Without the fingerprints and the export rows everyone is rendered and every row made, and every byte
            // comes out as the nightly left it.
            try FileManager.default.removeItem(at: fingerprints)
            try FileManager.default.removeItem(at: workspace.state.appendingPathComponent("export-rows.bin"))
            let before = try workspace.outputFingerprint().filter { $0.key != ".orgdir-site" }
            let full = try await build()
            #expect(full["peopleRendered"] as? Int == 40, "\(full)")
            #expect(full["exportRowsCopied"] as? Int == 0, "\(full)")
            #expect(full["fingerprintsCarried"] as? Int == 0, "no fingerprints to carry: \(full)")
            #expect(full["peoplePreparedBefore"] as? Int == 40, "the preparations kept beside the snapshot: \(full)")
            #expect(full["filesWritten"] as? Int == 0, "\(full)")
            #expect(try workspace.outputFingerprint().filter { $0.key != ".orgdir-site" } == before)
        }
    }

    @Test(
        "with keepSnapshots, a nightly past the limit renders only the pages its changes and the dropped night reach, and a dropped change's date stays on its page"
    )
    func retentionLeavesOtherPagesAlone() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 40, seed: 12)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [("expandManager", "<true/>"), ("keepSnapshots", "<integer>2</integer>")])
            let environment = ["ORGDIR_CLIENT_SECRET": configuration.clientSecret]
            func build() async throws -> [String: Any] {
                // Each night a second apart at least: pages show their dates to the second.
                try await Task.sleep(for: .milliseconds(1_100))
                return try await Self.build(settings, in: workspace, environment: environment)
            }
            /// The person's HTML page (which shows its date to the second), found by its Markdown twin's heading.
            func page(of user: SandboxUser) throws -> String {
                let file = try #require(
                    workspace.files(in: "people", withExtension: "md").first {
                        let text = try? String(
                            contentsOf: workspace.output.appendingPathComponent("people/\($0)"), encoding: .utf8)
                        return text?.hasPrefix("# \(user.displayName)\n") == true
                    })
                let html = "people/" + file.dropLast(".md".count) + ".html"
                return try String(contentsOf: workspace.output.appendingPathComponent(html), encoding: .utf8)
            }
            func dataAsOf(_ page: String) -> String? {
                page.split(separator: "\n").first { $0.contains("Data as of") }.map(String.init)
            }
            // Two people nobody reports to, with managers: a title change reaches their page and their manager's.
            let everyone = await sandbox.users
            let leaves = everyone.filter { user in
                user.managerId != nil && Self.plain(user) && !everyone.contains { $0.managerId == user.id }
            }
            #expect(leaves.count >= 2, "the seed must give two people with a manager and no reports")
            let (first, second) = (leaves[0], leaves[1])
            let quietPerson = try #require(
                everyone.first { user in
                    Self.plain(user) && ![first.id, second.id, first.managerId, second.managerId].contains(user.id)
                })
            _ = try await build()  // snapshot 1
            var changed = first
            changed.jobTitle = "Chief Tester"
            try await sandbox.mutate(.update(changed))
            let nightA = try await build()  // snapshot 2, night A
            #expect(nightA["peopleRendered"] as? Int == 2, "\(nightA)")
            let firstPage = try page(of: first)
            #expect(firstPage.contains("→ Chief Tester"), "the change is on the page: \(firstPage)")
            let quietPage = try page(of: quietPerson)

            changed = second
            changed.jobTitle = "Head Tester"
            try await sandbox.mutate(.update(changed))
            let before = try Self.modificationTimes(workspace)
            // Snapshot 3: retention drops snapshot 1 and with it night A. Rendered: the second changer, their
            // manager, and the first changer, whose page loses night A.
            let nightB = try await build()
            #expect(nightB["peopleRendered"] as? Int == 3, "\(nightB)")
            #expect(nightB["fingerprintsCarried"] as? Int == 37, "everyone else's page is carried: \(nightB)")
            let snapshots = try FileManager.default.contentsOfDirectory(
                atPath: workspace.state.appendingPathComponent("snapshots").path)
            #expect(snapshots.filter { $0.hasSuffix(".json") }.count == 2, "\(snapshots)")
            let reached = Set(
                [first, second, everyone.first { $0.id == second.managerId }].compactMap { $0?.displayName })
            for path in try Self.rewritten(workspace, since: before)
            where path.hasPrefix("people/") && (path.hasSuffix(".md") || path.hasSuffix(".html")) {
                let twin = path.hasSuffix(".html") ? String(path.dropLast(".html".count)) + ".md" : path
                let text = try String(contentsOf: workspace.output.appendingPathComponent(twin), encoding: .utf8)
                let name = String(text.prefix { $0 != "\n" }.dropFirst(2))
                #expect(reached.contains(name), "\(path) (\(name)) was rewritten though nothing of it changed")
            }
            let firstAfter = try page(of: first)
            #expect(!firstAfter.contains("→ Chief Tester"), "the dropped night's event has left: \(firstAfter)")
            #expect(firstAfter.contains("Chief Tester"))
            #expect(dataAsOf(firstAfter) != nil && dataAsOf(firstAfter) == dataAsOf(firstPage), "\(firstAfter)")
            #expect(try page(of: quietPerson) == quietPage, "a page no change reached keeps its date")

            // Snapshot 4, nothing changed: night B is dropped, which reaches the second changer's page alone.
            let quiet = try await build()
            #expect(quiet["peopleRendered"] as? Int == 1, "\(quiet)")
            #expect(quiet["fingerprintsCarried"] as? Int == 39, "\(quiet)")
            let history = try String(
                contentsOf: workspace.state.appendingPathComponent("history.jsonl"), encoding: .utf8)
            #expect(history.split(separator: "\n").first?.contains("\"since\"") == true, "\(history)")
        }
    }

    @Test(
        "a whole-site publish keeps a spare for the next run (not with keepSpareSite off); moving changes in keeps none",
        arguments: [("wholeSite", true), ("wholeSite", false), ("changedFiles", true)])
    func spareSite(mode: String, keepSetting: Bool) async throws {
        let keep = keepSetting && mode == "wholeSite"
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 30, seed: 5)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [
                    ("keepSpareSite", keepSetting ? "<true/>" : "<false/>"),
                    ("publish", "<string>\(mode)</string>"),
                ])
            let environment = ["ORGDIR_CLIENT_SECRET": configuration.clientSecret]
            func build() async throws {
                let outcome = try await OrgDirProcess.run(
                    ["build", "--config", settings.path, "--json"], in: workspace.folder, environment: environment)
                #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            }
            let spare = workspace.folder.appendingPathComponent(".Output.spare")
            let spareFingerprints = workspace.state.appendingPathComponent("render-fingerprints-spare.txt")
            try await build()
            #expect(!FileManager.default.fileExists(atPath: spare.path), "a first build replaces nothing")
            for round in 0..<3 {
                let everyone = await sandbox.users
                var changed = everyone[round]
                changed.jobTitle = "Title \(round)"
                try await sandbox.mutate(.update(changed))
                try await build()
                #expect(FileManager.default.fileExists(atPath: spare.path) == keep)
                #expect(FileManager.default.fileExists(atPath: spareFingerprints.path) == keep)
                let names = try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path)
                #expect(
                    !names.contains { $0.contains("staging") || $0.contains("update") },
                    "no staging or update folder is left: \(names)")
            }
            // Whatever the spare held, the published site is what a build from nothing gives, its search aside: the
            // nights kept the first build's search base and wrote an overlay of the three people changed since (the
            // unit and browser tests check such a search finds what one built from nothing finds).
            func site() throws -> [String: Data] {
                try workspace.outputFingerprint().filter { $0.key != ".orgdir-site" && !$0.key.hasPrefix("search/") }
            }
            let published = try site()
            let overlay = try String(
                contentsOf: workspace.output.appendingPathComponent("search/o/0.js"), encoding: .utf8)
            #expect(overlay.contains("\"gone\":[") && !overlay.contains("\"at\":[]"), "an overlay: \(overlay)")
            try FileManager.default.removeItem(at: workspace.state.appendingPathComponent("render-fingerprints.txt"))
            try FileManager.default.removeItem(at: workspace.output)
            try await build()
            #expect(try site() == published)
        }
    }
}
