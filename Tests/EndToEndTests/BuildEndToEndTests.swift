import Foundation
import GraphSandbox
import TestSupport
import Testing

/// Starts a sandbox for one test and stops it afterwards.
func withSandbox<T>(
    _ configuration: SandboxConfiguration, _ body: (GraphSandbox, URL) async throws -> T
) async throws -> T {
    let sandbox = GraphSandbox(configuration: configuration)
    let url = try await sandbox.start()
    do {
        let result = try await body(sandbox, url)
        await sandbox.stop()
        return result
    } catch {
        await sandbox.stop()
        throw error
    }
}

/// A fresh workspace whose settings point at a sandbox of `configuration`: `body` gets the workspace, the settings
/// file and the environment holding the client secret, while the sandbox serves; the workspace goes afterwards.
func withSandboxWorkspace<T>(
    _ configuration: SandboxConfiguration, _ body: (Workspace, URL, [String: String]) async throws -> T
) async throws -> T {
    let workspace = try Workspace()
    defer { workspace.remove() }
    return try await withSandbox(configuration) { _, url in
        let settings = try workspace.writeSettings(
            sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
        return try await body(workspace, settings, ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
    }
}

/// What a test that changes the tenant between runs works with: the sandbox serving it, a fresh workspace whose
/// settings point at it, and `build` to run `orgdir build` there with the client secret.
struct TenantRun {
    let sandbox: GraphSandbox
    let workspace: Workspace
    let settings: URL
    let environment: [String: String]

    /// `orgdir build --config <settings>` and `arguments`.
    func build(_ arguments: [String] = []) async throws -> OrgDirProcess.Outcome {
        try await OrgDirProcess.run(
            ["build", "--config", settings.path] + arguments, in: workspace.folder, environment: environment)
    }
}

extension GraphSandbox {
    /// A member of the tenant (the first with `offset` 0), with `jobTitle` changed: the change most tests make
    /// between two runs, since every page and export shows it.
    @discardableResult
    func retitle(_ offset: Int, as jobTitle: String) async throws -> SandboxUser {
        var user = users.filter { $0.kind == .member }[offset]
        user.jobTitle = jobTitle
        try mutate(.update(user))
        return user
    }
}

/// Runs `body` with a `TenantRun` of `configuration`; the sandbox stops and the workspace goes afterwards.
func withTenantRun<T>(
    _ configuration: SandboxConfiguration, extra: [(String, String)] = [], _ body: (TenantRun) async throws -> T
) async throws -> T {
    let workspace = try Workspace()
    defer { workspace.remove() }
    return try await withSandbox(configuration) { sandbox, url in
        let settings = try workspace.writeSettings(
            sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId, extra: extra)
        return try await body(
            TenantRun(
                sandbox: sandbox, workspace: workspace, settings: settings,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret]))
    }
}

@Suite("orgdir build end to end", .serialized)
struct BuildEndToEndTests {
    @Test("every fetched user gets a Markdown and an HTML page, and the index lists them all")
    func fullBuild() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 1_234, seed: 7)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", settings.path, "--json"], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let users = await sandbox.users
            #expect(users.count == 1_234)
            #expect(workspace.files(in: "people", withExtension: "md").count == users.count)
            #expect(workspace.files(in: "people", withExtension: "html").count == users.count)
            let index = try String(contentsOf: workspace.output.appendingPathComponent("index.html"), encoding: .utf8)
            let linked = Set(
                workspace.files(in: "people", withExtension: "html").filter { index.contains("people/\($0)") })
            #expect(linked.count == users.count, "index.html links \(linked.count) of \(users.count) people")
            let summary = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
            #expect(summary?["published"] as? Int == users.count)
            #expect((summary?["pages"] as? Int ?? 0) >= 2)
            // The secret never shows up in anything orgdir printed or wrote.
            #expect(!outcome.stdout.contains(configuration.clientSecret))
            #expect(!outcome.stderr.contains(configuration.clientSecret))
        }
    }

    #if os(Linux)
        /// Linking mimalloc is not enough for it to serve `malloc`: a library loaded before it could win the
        /// symbol, and the build would quietly fall back to glibc's slower allocator (Benchmarks/README.md).
        @Test(
            "on Linux the built orgdir allocates with mimalloc keeping freed memory 500 ms on large OS pages, and --verbose says so"
        )
        func allocatorIsMimalloc() async throws {
            try await withSandboxWorkspace(SandboxConfiguration(userCount: 5)) { workspace, settings, environment in
                let outcome = try await OrgDirProcess.run(
                    ["build", "--config", settings.path, "--verbose"], in: workspace.folder, environment: environment)
                #expect(outcome.status == 0, "stderr: \(outcome.stderr.suffix(2000))")
                #expect(outcome.stderr.contains("memory allocator: mimalloc "), "\(outcome.stderr.prefix(2000))")
                let inherited = { (name: String) in
                    (environment[name] ?? ProcessInfo.processInfo.environment[name]) != nil
                }
                if !inherited("MIMALLOC_DECOMMIT_DELAY") && !inherited("MIMALLOC_LARGE_OS_PAGES") {
                    #expect(
                        outcome.stderr.contains("(freed memory kept 500 ms, large OS pages)"),
                        "\(outcome.stderr.prefix(2000))")
                }
            }
        }

        /// The environment still chooses: `MIMALLOC_LARGE_OS_PAGES=0` keeps mimalloc on 4 KiB pages (for a machine
        /// where transparent huge pages cost more than they save).
        @Test("MIMALLOC_LARGE_OS_PAGES=0 in the environment keeps mimalloc off large OS pages")
        func largePagesFollowTheEnvironment() async throws {
            try await withSandboxWorkspace(SandboxConfiguration(userCount: 5)) { workspace, settings, environment in
                var environment = environment
                environment["MIMALLOC_LARGE_OS_PAGES"] = "0"
                let outcome = try await OrgDirProcess.run(
                    ["build", "--config", settings.path, "--verbose"], in: workspace.folder, environment: environment)
                #expect(outcome.status == 0, "stderr: \(outcome.stderr.suffix(2000))")
                #expect(outcome.stderr.contains("memory allocator: mimalloc "), "\(outcome.stderr.prefix(2000))")
                #expect(!outcome.stderr.contains("large OS pages"), "\(outcome.stderr.prefix(2000))")
            }
        }

        /// The fallback `ProcessAllocator` takes when mimalloc lost the symbol: glibc's allocator, tuned.
        @Test("where glibc's malloc is loaded ahead of mimalloc, orgdir builds with it and --verbose says so")
        func allocatorFallsBackToTheCLibrary() async throws {
            // The C library this test process runs with, preloaded so that its `malloc` is found first.
            let maps = try KernelFile.text("/proc/self/maps")
            let libc = try #require(
                maps.split(separator: "\n").compactMap { line in
                    line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
                }.first { $0.hasSuffix("/libc.so.6") })
            try await withSandboxWorkspace(SandboxConfiguration(userCount: 5)) { workspace, settings, environment in
                var preloaded = environment
                preloaded["LD_PRELOAD"] = libc
                let outcome = try await OrgDirProcess.run(
                    ["build", "--config", settings.path, "--verbose", "--json"], in: workspace.folder,
                    environment: preloaded)
                #expect(outcome.status == 0, "stderr: \(outcome.stderr.suffix(2000))")
                #expect(
                    outcome.stderr.contains("memory allocator: the C library's malloc"),
                    "\(outcome.stderr.prefix(2000))")
                let summary = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
                #expect(summary?["published"] as? Int == 5)
            }
        }
    #endif

    @Test("a Graph that lists people in another order than by id builds the same site and the same snapshot")
    func listingOrderDoesNotChangeTheSite() async throws {
        // Graph promises no order: the same tenant listed by id and in an order that looks random (three pages of
        // 999).
        var sites: [[String: Data]] = []
        var snapshots: [Data] = []
        for order in [ListingOrder.id, .scrambled] {
            let configuration = SandboxConfiguration(userCount: 2_345, seed: 9, listingOrder: order)
            try await withSandboxWorkspace(configuration) { workspace, settings, environment in
                let outcome = try await OrgDirProcess.run(
                    ["build", "--config", settings.path], in: workspace.folder, environment: environment)
                #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
                sites.append(try workspace.outputFingerprint().mapValues(Self.withoutTimes))
                let folder = workspace.state.appendingPathComponent("snapshots")
                let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                    .filter { $0.hasSuffix(".json") }
                let snapshot = try Data(contentsOf: folder.appendingPathComponent(try #require(names.first)))
                // The people, one per line after the metadata line (which holds the time taken).
                snapshots.append(Data(snapshot.split(separator: 0x0A, maxSplits: 1).last ?? []))
            }
        }
        #expect(sites.count == 2 && sites[0].count > 2 * 2_345)
        #expect(Set(sites[0].keys) == Set(sites[1].keys))
        let differing = sites[0].keys.filter { sites[0][$0] != sites[1][$0] }.sorted()
        #expect(differing.isEmpty, "differ: \(differing.prefix(5))")
        #expect(snapshots.count == 2 && !snapshots[0].isEmpty && snapshots[0] == snapshots[1])
    }

    @Test("a first build over the spare of a deleted output and state publishes what a build from nothing does")
    func firstBuildOverAnOrphanedSpare() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 1_500, seed: 13)
        try await withSandbox(configuration) { sandbox, url in
            // Only a whole-site publish keeps a spare.
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [("publish", "<string>wholeSite</string>")])
            func build() async throws -> [String: Any] {
                let outcome = try await OrgDirProcess.run(
                    ["build", "--config", settings.path, "--json"], in: workspace.folder,
                    environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
                #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
                return try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
            }
            func people(in folder: URL) throws -> Set<String> {
                Set(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("people").path))
            }
            // Two builds, people leaving and joining between them: the first site, an .htaccess put into it, is then
            // the spare. The output and the state are deleted; the spare stays.
            let spare = workspace.folder.appendingPathComponent(".Output.spare")
            _ = try await build()
            try "Options -Indexes\n".write(
                to: workspace.output.appendingPathComponent(".htaccess"), atomically: false, encoding: .utf8)
            _ = await sandbox.applyRandomChanges(count: 200, seed: 5)
            _ = try await build()
            let stale = try people(in: spare).subtracting(try people(in: workspace.output))
            #expect(!stale.isEmpty, "the spare holds pages of people who left")
            // A page that stays, to see it written over rather than made again.
            let kept = try #require(try people(in: spare).intersection(try people(in: workspace.output)).sorted().first)
            func inode(_ folder: URL) throws -> Int? {
                let page = folder.appendingPathComponent("people").appendingPathComponent(kept)
                return try FileManager.default.attributesOfItem(atPath: page.path)[.systemFileNumber] as? Int
            }
            let spareInode = try inode(spare)
            try FileManager.default.removeItem(at: workspace.output)
            try FileManager.default.removeItem(at: workspace.state)
            let overSpare = try await build()
            #expect(try inode(workspace.output) == spareInode, "the spare's page was written over in place")
            let site = try workspace.outputFingerprint().mapValues(Self.withoutTimes)
            // The same tenant built from nothing.
            try FileManager.default.removeItem(at: workspace.output)
            try FileManager.default.removeItem(at: workspace.state)
            #expect(!FileManager.default.fileExists(atPath: spare.path), "a first build keeps no spare")
            let fromNothing = try await build()
            let clean = try workspace.outputFingerprint().mapValues(Self.withoutTimes)
            #expect(clean.count > 3 * 1_500)
            #expect(Set(site.keys) == Set(clean.keys), "only over the spare: \(Set(site.keys).subtracting(clean.keys))")
            let differing = clean.keys.filter { site[$0] != clean[$0] }.sorted()
            #expect(differing.isEmpty, "differ: \(differing.prefix(5))")
            #expect(site[".htaccess"] == nil)
            #expect(overSpare["filesWritten"] as? Int == fromNothing["filesWritten"] as? Int)
            #expect(overSpare["filesUnchanged"] as? Int == 0)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path)
                .filter { $0.hasPrefix(".Output.") }
            #expect(leftovers.isEmpty, "no staging folder is left: \(leftovers)")
        }
    }

    /// `data` with its dates and times masked (the run's stamp, such as "2026-11-26T04:30:00Z", or
    /// "2026-11-26 04\:30 UTC" in Markdown), so two builds of the same directory seconds apart compare equal.
    static func withoutTimes(_ data: Data) -> Data {
        let text = String(decoding: data, as: UTF8.self)
        let masked = text.replacing(
            #/\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\dZ| \d\d\\?:\d\d UTC|T\d\d-\d\d-\d\dZ(-\d+)?)/#, with: "TIME")
        return Data(masked.utf8)
    }

    @Test("a misspelt key stops the run before any request, naming the key")
    func misspeltKey() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 10)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [("outptu", "<string>Site</string>")])
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(outcome.status == 78)
            #expect(outcome.stderr.contains("'outptu'"))
            #expect(outcome.stderr.contains("did you mean 'output'"))
            #expect(await sandbox.recordedRequests().isEmpty)
        }
    }

    @Test("a wrong secret fails with AADSTS7000215 and a hint, and leaves the published site untouched")
    func wrongSecret() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 25)
        try await withSandbox(configuration) { _, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let good = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(good.status == 0, "stderr: \(good.stderr)")
            let before = try workspace.outputFingerprint()
            let bad = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": "not-the-secret"])
            #expect(bad.status == 77)
            #expect(bad.stderr.contains("AADSTS7000215"))
            #expect(bad.stderr.contains("hint:"))
            #expect(!bad.stderr.contains("not-the-secret"))
            #expect(try workspace.outputFingerprint() == before)
        }
    }

    @Test("an unknown tenant and an unknown client each get their AADSTS code")
    func unknownTenantAndClient() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 5)
        try await withSandbox(configuration) { _, url in
            let wrongTenant = try workspace.writeSettings(
                sandbox: url, tenant: "fabrikam.example", clientId: configuration.clientId, name: "t.plist")
            let tenantOutcome = try await OrgDirProcess.run(
                ["build", "--config", wrongTenant.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(tenantOutcome.status == 77)
            #expect(tenantOutcome.stderr.contains("AADSTS90002"))
            let wrongClient = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: "99999999-9999-9999-9999-999999999999",
                name: "c.plist")
            let clientOutcome = try await OrgDirProcess.run(
                ["build", "--config", wrongClient.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(clientOutcome.status == 77)
            #expect(clientOutcome.stderr.contains("AADSTS700016"))
        }
    }

    @Test(
        "a broken template override fails with exit 73, naming file, line and column, before any request, and publishes nothing"
    )
    func brokenTemplate() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let templates = workspace.folder.appendingPathComponent("my-templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "<h1>{{name}}</h1>\n{{#phones}}\n<p>{{number}}</p>\n".write(
            to: templates.appendingPathComponent("person.mustache"), atomically: true, encoding: .utf8)
        let configuration = SandboxConfiguration(userCount: 5)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", settings.path, "--templates", templates.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(outcome.status == 73, "stderr: \(outcome.stderr)")
            #expect(await sandbox.recordedRequests().isEmpty, "no sign-in and no Graph request before the check")
            #expect(outcome.stderr.contains("person.mustache"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("person.mustache:4:1"), "file:line:column: \(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: workspace.output.appendingPathComponent("index.html").path))
        }
    }

    @Test("a server that dies midway leaves the previous site exactly as it was")
    func failureMidway() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 60)
        var settingsURL: URL?
        try await withSandbox(configuration) { _, url in
            settingsURL = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [("pageSize", "<integer>10</integer>"), ("maxAttempts", "<integer>2</integer>")])
            let good = try await OrgDirProcess.run(
                ["build", "--config", settingsURL?.path ?? ""], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(good.status == 0, "stderr: \(good.stderr)")
        }
        let before = try workspace.outputFingerprint()
        #expect(!before.isEmpty)
        // The sandbox is gone now: the same run cannot even connect.
        let failed = try await OrgDirProcess.run(
            ["build", "--config", settingsURL?.path ?? ""], in: workspace.folder,
            environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
        #expect(failed.status == 75)
        #expect(try workspace.outputFingerprint() == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path)
        #expect(!leftovers.contains { $0.contains("staging") })
    }
}
