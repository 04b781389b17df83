import Foundation
import GraphSandbox
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Snapshot files in a workspace's state folder, oldest first: by time stamp, then by the `-N` suffix a second
/// run within the same second gets (plain name order would put `…59Z-2.json` before `…59Z.json`).
func snapshotFiles(_ workspace: Workspace) -> [String] {
    let folder = workspace.state.appendingPathComponent("snapshots")
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
        $0.hasSuffix(".json")
    }
    func key(_ name: String) -> (String, Int) {
        let stem = name.dropLast(".json".count)
        guard let zulu = stem.firstIndex(of: "Z") else { return (String(stem), 1) }
        return (String(stem[...zulu]), Int(stem[stem.index(after: zulu)...].dropFirst()) ?? 1)
    }
    return names.sorted { key($0) < key($1) }
}

@Suite("Nightly runs end to end", .serialized)
struct NightlyRunEndToEndTests {
    @Test("removing 60% of the tenant trips the guard with its own exit code; output and snapshots stay untouched")
    func removalGuard() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 200, seed: 5)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let environment = ["ORGDIR_CLIENT_SECRET": configuration.clientSecret]
            let first = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder, environment: environment)
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let outputBefore = try workspace.outputFingerprint()
            let snapshotsBefore = snapshotFiles(workspace)
            #expect(snapshotsBefore.count == 1)
            let deltaFile = workspace.state.appendingPathComponent("delta.json")
            let deltaBefore = try Data(contentsOf: deltaFile)

            let users = await sandbox.users
            for user in users.prefix(120) { try await sandbox.mutate(.remove(id: user.id)) }
            let tripped = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder, environment: environment)
            #expect(tripped.status == 3)
            #expect(tripped.stderr.contains("--accept-removals"))
            #expect(try workspace.outputFingerprint() == outputBefore)
            #expect(snapshotFiles(workspace) == snapshotsBefore)
            #expect(try Data(contentsOf: deltaFile) == deltaBefore, "the guard let the delta link move on")

            let accepted = try await OrgDirProcess.run(
                ["build", "--config", settings.path, "--accept-removals", "--json"], in: workspace.folder,
                environment: environment)
            #expect(accepted.status == 0, "stderr: \(accepted.stderr)")
            let summary = try JSONSerialization.jsonObject(with: Data(accepted.stdout.utf8)) as? [String: Any]
            #expect(summary?["leavers"] as? Int == 120)
            #expect(summary?["published"] as? Int == 80)
            #expect(snapshotFiles(workspace).count == 2)
            #expect(workspace.files(in: "people", withExtension: "html").count == 80)
        }
    }

    @Test("an empty directory is never published over a full one")
    func emptyDirectory() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 30)
        try await withSandbox(configuration) { _, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let environment = ["ORGDIR_CLIENT_SECRET": configuration.clientSecret]
            #expect(
                try await OrgDirProcess.run(
                    ["build", "--config", settings.path], in: workspace.folder, environment: environment
                ).status == 0)
            let before = try workspace.outputFingerprint()
            // A filter mistake that matches nobody looks exactly like everyone leaving.
            let typo = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [("filter", "<string>department eq 'Nobody'</string>")], name: "typo.plist")
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", typo.path], in: workspace.folder, environment: environment)
            #expect(outcome.status == 3)
            #expect(try workspace.outputFingerprint() == before)
        }
    }

    @Test("a second run while the first holds the lock exits at once with a clear message")
    func concurrentRuns() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(
            userCount: 50,
            faults: FaultPlan(rules: [FaultRule(.latency(milliseconds: 3_000), on: .users, schedule: .first(1))]))
        try await withSandbox(configuration) { _, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let environment = ["ORGDIR_CLIENT_SECRET": configuration.clientSecret]
            async let slow = OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder, environment: environment)
            try await Task.sleep(nanoseconds: 1_000_000_000)
            let second = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder, environment: environment)
            #expect(second.status == 4)
            #expect(second.stderr.contains("lock"))
            let first = try await slow
            #expect(first.status == 0, "stderr: \(first.stderr)")
        }
    }

    @Test("a lock left by a crashed run is taken over")
    func staleLock() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 10)
        try await withSandbox(configuration) { _, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            try FileManager.default.createDirectory(at: workspace.state, withIntermediateDirectories: true)
            // pid 2^22 - 1 is above Linux's default pid_max, so no live process has it.
            try "pid 4194303\nstarted 2026-01-01T00:00:00Z\nhost \(ProcessInfo.processInfo.hostName)\n".write(
                to: workspace.state.appendingPathComponent("orgdir.lock"), atomically: true, encoding: .utf8)
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: workspace.state.appendingPathComponent("orgdir.lock").path))
        }
    }

    /// The state caches only save time: a run that cannot write one still publishes, and says which, why, and
    /// what the next run does instead; the next run saves it again. (The render fingerprints and export rows are
    /// removed before publishing, folder and all, so only the search tokens stay in the way until the save; the
    /// kept list rows are written during the render, and removed when they cannot be.)
    @Test("a state cache that cannot be saved leaves the site published, a warning naming it, and the next run heals")
    func unsavableStateCaches() async throws {
        try await withSandboxWorkspace(SandboxConfiguration(userCount: 40)) { workspace, settings, environment in
            // A folder (not empty) where each cache file goes: no file can be renamed over it.
            let caches = ["render-fingerprints.txt", "search-tokens.bin", "export-rows.bin", "list-rows.bin"]
            for name in caches {
                let folder = workspace.state.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try "in the way".write(to: folder.appendingPathComponent("file"), atomically: true, encoding: .utf8)
            }
            let first = try await OrgDirProcess.run(
                ["build", "--config", settings.path, "--json"], in: workspace.folder, environment: environment)
            #expect(first.status == 0, "stderr: \(first.stderr.suffix(2000))")
            #expect(workspace.files(in: "people", withExtension: "html").count == 40)
            let summary = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any]
            let warnings = summary?["warnings"] as? [String] ?? []
            let state = workspace.state
            let (tokens, rows) = (
                state.appendingPathComponent("search-tokens.bin").path,
                state.appendingPathComponent("list-rows.bin").path
            )
            #expect(
                warnings == [
                    "the search tokens could not be saved (cannot write \(tokens): Is a directory); the next run "
                        + "tokenizes everyone",
                    "the list page rows could not be kept (cannot write \(rows): Is a directory); the next run makes "
                        + "them all",
                ], "\(warnings)")
            #expect(first.stderr.contains("the search tokens could not be saved"))

            let second = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder, environment: environment)
            #expect(second.status == 0, "stderr: \(second.stderr.suffix(2000))")
            #expect(!second.stderr.contains("could not be saved"), "\(second.stderr.suffix(2000))")
            for name in caches {
                var isFolder: ObjCBool = false
                let path = workspace.state.appendingPathComponent(name).path
                #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), "\(name)")
                #expect(!isFolder.boolValue, "\(name)")
            }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: workspace.state.path).filter {
                $0.hasSuffix(".tmp")
            }
            #expect(leftovers.isEmpty, "\(leftovers)")
        }
    }

    /// A first build keeps everyone's preparation for the first nightly; one that cannot save it still publishes,
    /// says so and what the next run does instead, and the next run saves it and the one after uses it. A nightly
    /// that cannot save it (its save comes after the publish) says so too.
    @Test("a first build that cannot keep the preparations publishes all the same, says so, and the next run heals")
    func unsavablePreparations() async throws {
        try await withSandboxWorkspace(SandboxConfiguration(userCount: 40)) { workspace, settings, environment in
            let file = workspace.state.appendingPathComponent("preparations.bin")
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
            try "in the way".write(to: file.appendingPathComponent("file"), atomically: true, encoding: .utf8)
            func build() async throws -> (OrgDirProcess.Outcome, [String: Any]) {
                let outcome = try await OrgDirProcess.run(
                    ["build", "--config", settings.path, "--json"], in: workspace.folder, environment: environment)
                #expect(outcome.status == 0, "stderr: \(outcome.stderr.suffix(2000))")
                let summary = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
                return (outcome, summary ?? [:])
            }
            let (first, firstSummary) = try await build()
            #expect(workspace.files(in: "people", withExtension: "html").count == 40)
            let warnings = firstSummary["warnings"] as? [String] ?? []
            #expect(
                warnings.contains {
                    $0.hasPrefix("the people's preparations could not be saved (")
                        && $0.hasSuffix("); the next run prepares everyone")
                }, "\(warnings)")
            #expect(first.stderr.contains("the people's preparations could not be saved"))

            let (second, secondSummary) = try await build()
            #expect(!second.stderr.contains("could not be saved"), "\(second.stderr.suffix(2000))")
            #expect(secondSummary["peoplePreparedBefore"] as? Int == 0, "nothing was kept: \(secondSummary)")
            var isFolder: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) && !isFolder.boolValue)

            let (_, thirdSummary) = try await build()
            #expect(thirdSummary["peoplePreparedBefore"] as? Int == 40, "\(thirdSummary)")

            // A nightly saves them after its publish, not during its render (`BuildPipeline.renderAndPublish`): the
            // same warning there, and the site still published.
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
            try "in the way".write(to: file.appendingPathComponent("file"), atomically: true, encoding: .utf8)
            let (nightly, nightlySummary) = try await build()
            #expect(nightlySummary["peoplePreparedBefore"] as? Int == 0, "nothing to read: \(nightlySummary)")
            #expect(nightly.stderr.contains("the people's preparations could not be saved"))
            #expect(workspace.files(in: "people", withExtension: "html").count == 40)
        }
    }

    /// Kept rows are a time saver for the next run only: a run that keeps none of a kind (here the list rows, once
    /// the letter page is overridden and the rows are made per page) removes the run before's file rather than
    /// leave it unread in the state folder, and a later run with the built-in pages keeps it again.
    @Test("a run that keeps no list rows removes the kept file, and a later run with the built-in pages keeps it again")
    func keptRowsNotKeptAreRemoved() async throws {
        try await withSandboxWorkspace(SandboxConfiguration(userCount: 30)) { workspace, settings, environment in
            let rows = workspace.state.appendingPathComponent("list-rows.bin").path
            // The search records an earlier version kept: the published search base holds them now.
            let records = workspace.state.appendingPathComponent("search-records.bin").path
            try FileManager.default.createDirectory(at: workspace.state, withIntermediateDirectories: true)
            try Data("orgdir-kept-rows/1\n".utf8).write(to: URL(fileURLWithPath: records))
            let first = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder, environment: environment)
            #expect(first.status == 0, "stderr: \(first.stderr.suffix(2000))")
            #expect(FileManager.default.fileExists(atPath: rows))
            #expect(!FileManager.default.fileExists(atPath: records), "an earlier version's kept file is removed")

            let templates = workspace.folder.appendingPathComponent("my-templates")
            try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
            try "<h1>{{label}}</h1>\n<ul>{{#people}}<li>{{name}}</li>{{/people}}</ul>\n".write(
                to: templates.appendingPathComponent("letter.mustache"), atomically: true, encoding: .utf8)
            let overridden = try await OrgDirProcess.run(
                ["build", "--config", settings.path, "--templates", templates.path], in: workspace.folder,
                environment: environment)
            #expect(overridden.status == 0, "stderr: \(overridden.stderr.suffix(2000))")
            #expect(!FileManager.default.fileExists(atPath: rows), "the list rows were not kept, so their file is gone")

            let builtin = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder, environment: environment)
            #expect(builtin.status == 0, "stderr: \(builtin.stderr.suffix(2000))")
            #expect(FileManager.default.fileExists(atPath: rows))
        }
    }

    /// Snapshots are named by their time, and a run builds on the newest name. With the clock set back behind the
    /// newest (a bad time sync), a run's snapshot named by its own time would sort before last night's: the next run
    /// would build on last night's with this run's delta link, and lose what this run fetched.
    /// Whether `chattr` can make a folder immutable here (root on a file system with the attribute), which is how a
    /// test makes a publish fail after the render: nothing can be renamed into the output's top folder.
    static let canLockFolders: Bool = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orgdir-chattr-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)) != nil,
            (try? chattr("+i", folder)) == true
        else { return false }
        let refused = !FileManager.default.createFile(atPath: folder.appendingPathComponent("x").path, contents: nil)
        _ = try? chattr("-i", folder)
        return refused
    }()

    /// Runs `chattr FLAG FOLDER`; whether it succeeded.
    static func chattr(_ flag: String, _ folder: URL) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, folder.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// The state caches a nightly writes while it moves its changes in take their place only once it has: a publish
    /// refused after the render (an output folder nothing can be renamed into) drops them, so the state describes the
    /// site that is still published (the render fingerprints and the export row table excepted: they are forgotten
    /// before every publish), and no temporary file of theirs is left.
    @Test(
        "a publish refused after the render keeps the site, the saved state caches and snapshots; nothing is left",
        .enabled(if: canLockFolders, "needs chattr +i (root, a file system with the immutable attribute)"))
    func refusedPublishDropsStateCaches() async throws {
        try await withTenantRun(SandboxConfiguration(userCount: 60, seed: 23)) { run in
            #expect(try await run.build().status == 0)
            let mover = try await run.sandbox.retitle(0, as: "Keeper of Locked Doors")
            let (output, state) = (run.workspace.output, run.workspace.state)
            let site = try filesWithBytes(under: output)
            let caches = ["preparations.bin", "search-tokens.bin"]
            let cachesBefore = try caches.map { try Data(contentsOf: state.appendingPathComponent($0)) }
            let snapshots = snapshotFiles(run.workspace)
            #expect(try Self.chattr("+i", output))
            let refused = try await run.build()
            #expect(try Self.chattr("-i", output))
            #expect(refused.status == 73, "stderr: \(refused.stderr.suffix(2000))")
            #expect(refused.stderr.contains("the previous site is unchanged"), "\(refused.stderr.suffix(2000))")
            #expect(try filesWithBytes(under: output) == site, "the published site changed")
            #expect(try caches.map { try Data(contentsOf: state.appendingPathComponent($0)) } == cachesBefore)
            #expect(snapshotFiles(run.workspace) == snapshots, "no snapshot without a site")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: state.path).filter {
                $0.hasSuffix(".tmp")
            }
            #expect(leftovers.isEmpty, "\(leftovers)")
            let beside = try FileManager.default.contentsOfDirectory(
                atPath: output.deletingLastPathComponent().path
            ).filter { $0.hasPrefix(".Output.update-") }
            #expect(beside.isEmpty, "\(beside)")

            let healed = try await run.build()
            #expect(healed.status == 0, "stderr: \(healed.stderr.suffix(2000))")
            #expect(try publishedJobTitles(in: output)[mover.id] == "Keeper of Locked Doors")
        }
    }

    /// A first build leaves its first nightly what every nightly leaves the next: copies of the files a night writes
    /// again (the exports, the index, the list pages) beside the output, and spares of the state files a night replaces
    /// whole. The nightly writes over them in place, and what it publishes is its own bytes, never a copy's.
    @Test("a first build keeps copies for its first nightly, which writes over them and publishes only its own bytes")
    func firstBuildKeepsCopiesForTheFirstNightly() async throws {
        try await withTenantRun(SandboxConfiguration(userCount: 60, seed: 29)) { run in
            let full = try await run.build(["--verbose"])
            #expect(full.status == 0, "stderr: \(full.stderr.suffix(2000))")
            #expect(full.stderr.contains("for the first nightly to write over"), "\(full.stderr.suffix(2000))")
            let (output, state) = (run.workspace.output, run.workspace.state)
            let copies = output.deletingLastPathComponent().appendingPathComponent(".Output.replaced")
            let published = try filesWithBytes(under: output)
            let copied = try filesWithBytes(under: copies).filter { $0.key != ".orgdir-site" }
            #expect(copied["people.csv"] != nil && copied["people.json"] != nil && copied["index.html"] != nil)
            #expect(
                copied.keys.contains { $0.hasPrefix("browse/") }
                    && copied.keys.contains { $0.hasPrefix("departments/") })
            #expect(!copied.keys.contains { $0.hasPrefix("people/") || $0.hasPrefix("search/") }, "\(copied.keys)")
            for (path, bytes) in copied { #expect(published[path] == bytes, "\(path) is a copy of the published file") }
            for name in ["list-rows.bin", "preparations.bin", "snapshot-people.bin"] {
                let spare = state.appendingPathComponent(".\(name).spare")
                #expect(try Data(contentsOf: spare) == Data(contentsOf: state.appendingPathComponent(name)), "\(name)")
            }
            func inode(_ url: URL) -> UInt64? {
                var info = stat()
                return lstat(url.path, &info) == 0 ? UInt64(info.st_ino) : nil
            }
            let csvCopy = inode(copies.appendingPathComponent("people.csv"))

            let mover = try await run.sandbox.retitle(0, as: "Keeper of Spare Pages")
            let nightly = try await run.build()
            #expect(nightly.status == 0, "stderr: \(nightly.stderr.suffix(2000))")
            #expect(inode(output.appendingPathComponent("people.csv")) == csvCopy, "the copy was written over")
            let csv = String(decoding: try Data(contentsOf: output.appendingPathComponent("people.csv")), as: UTF8.self)
            #expect(csv.contains("Keeper of Spare Pages"))
            let lines = { (bytes: Data) in bytes.split(separator: UInt8(ascii: "\n")).count }
            #expect(
                lines(Data(csv.utf8)) == lines(published["people.csv"] ?? Data()) && csv.hasSuffix("\r\n"),
                "as many rows as before, the last one whole: nothing of the copy is left past the new end")
            #expect(try publishedJobTitles(in: output)[mover.id] == "Keeper of Spare Pages")
            let site = try filesWithBytes(under: output)
            for (path, bytes) in site where !path.hasPrefix("assets/") {
                #expect(!bytes.contains(0), "\(path) holds a NUL byte")
            }
            let replaced = try filesWithBytes(under: copies)
            #expect(replaced["people.csv"] == published["people.csv"], "the file the nightly replaced is kept")
        }
    }

    /// Each run keeps its snapshot's people in a binary table beside it (`snapshot-people.bin`), which the next run
    /// reads instead of decoding the snapshot's JSON; a snapshot file changed since (here only its time) is decoded,
    /// and the run after that reads the table again.
    @Test("a nightly reads its people from the table kept beside the snapshot, and decodes a snapshot changed since")
    func peopleTableBesideTheSnapshot() async throws {
        try await withTenantRun(SandboxConfiguration(userCount: 60, seed: 25)) { run in
            let readFromTable = "snapshot's people read from snapshot-people.bin"
            let first = try await run.build(["--verbose"])
            #expect(first.status == 0, "stderr: \(first.stderr.suffix(2000))")
            #expect(!first.stderr.contains(readFromTable), "a first build has no snapshot to read")
            #expect(
                FileManager.default.fileExists(
                    atPath: run.workspace.state.appendingPathComponent("snapshot-people.bin").path))

            let mover = try await run.sandbox.retitle(0, as: "Reader of Tables")
            let second = try await run.build(["--verbose"])
            #expect(second.status == 0, "stderr: \(second.stderr.suffix(2000))")
            #expect(second.stderr.contains(readFromTable), "\(second.stderr.suffix(2000))")
            #expect(try publishedJobTitles(in: run.workspace.output)[mover.id] == "Reader of Tables")

            // The newest snapshot touched (as an edit by hand would): its JSON is the record.
            let latest = try #require(snapshotFiles(run.workspace).last)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_000_000)],
                ofItemAtPath: run.workspace.state.appendingPathComponent("snapshots/\(latest)").path)
            let other = try await run.sandbox.retitle(1, as: "Decoder of Snapshots")
            let third = try await run.build(["--verbose"])
            #expect(third.status == 0, "stderr: \(third.stderr.suffix(2000))")
            #expect(!third.stderr.contains(readFromTable), "\(third.stderr.suffix(2000))")
            let titles = try publishedJobTitles(in: run.workspace.output)
            #expect(titles[mover.id] == "Reader of Tables" && titles[other.id] == "Decoder of Snapshots")

            let fourth = try await run.build(["--verbose"])
            #expect(fourth.status == 0, "stderr: \(fourth.stderr.suffix(2000))")
            #expect(fourth.stderr.contains(readFromTable), "\(fourth.stderr.suffix(2000))")
            #expect(try publishedJobTitles(in: run.workspace.output) == titles)
        }
    }

    /// The people table is only a time saver: a run that cannot write it (a folder in the way) publishes all the same,
    /// with nothing left in the way, and the next run decodes the snapshot and writes the table the run after reads.
    @Test("a people table that cannot be written costs the next run a decode, never the run; the one after reads it")
    func unwritablePeopleTable() async throws {
        try await withTenantRun(SandboxConfiguration(userCount: 40, seed: 27)) { run in
            let readFromTable = "snapshot's people read from snapshot-people.bin"
            let table = run.workspace.state.appendingPathComponent("snapshot-people.bin")
            try FileManager.default.createDirectory(at: table, withIntermediateDirectories: true)
            try "in the way".write(to: table.appendingPathComponent("file"), atomically: true, encoding: .utf8)
            let first = try await run.build(["--verbose"])
            #expect(first.status == 0, "stderr: \(first.stderr.suffix(2000))")
            var isFolder: ObjCBool = false
            #expect(
                !FileManager.default.fileExists(atPath: table.path, isDirectory: &isFolder) || !isFolder.boolValue,
                "the folder in the way is gone")

            let mover = try await run.sandbox.retitle(0, as: "Writer of Tables")
            let second = try await run.build(["--verbose"])
            #expect(second.status == 0, "stderr: \(second.stderr.suffix(2000))")
            #expect(!second.stderr.contains(readFromTable), "no table to read: \(second.stderr.suffix(2000))")
            #expect(try publishedJobTitles(in: run.workspace.output)[mover.id] == "Writer of Tables")

            let third = try await run.build(["--verbose"])
            #expect(third.status == 0, "stderr: \(third.stderr.suffix(2000))")
            #expect(third.stderr.contains(readFromTable), "\(third.stderr.suffix(2000))")
        }
    }

    @Test("a clock behind the newest snapshot: the run warns and names its snapshot after it; the next builds on it")
    func clockSetBack() async throws {
        try await withTenantRun(SandboxConfiguration(userCount: 60, seed: 21)) { run in
            #expect(try await run.build().status == 0)
            let folder = run.workspace.state.appendingPathComponent("snapshots")
            let future = "2099-01-01T00-00-00Z.json"
            let first = try #require(snapshotFiles(run.workspace).first)
            try FileManager.default.moveItem(
                at: folder.appendingPathComponent(first), to: folder.appendingPathComponent(future))

            let traveller = try await run.sandbox.retitle(0, as: "Time Traveller")
            let behind = try await run.build()
            #expect(behind.status == 0, "stderr: \(behind.stderr.suffix(2000))")
            #expect(behind.stderr.contains("the clock is behind the newest snapshot (\(future))"), "\(behind.stderr)")
            #expect(snapshotFiles(run.workspace) == [future, "2099-01-01T00-00-00Z-2.json"])

            let second = try await run.sandbox.retitle(1, as: "Second Traveller")
            #expect(try await run.build().status == 0)
            #expect(snapshotFiles(run.workspace).suffix(1) == ["2099-01-01T00-00-00Z-3.json"])
            let change = try await OrgDirProcess.run(
                ["diff", "--state", run.workspace.state.path, "--format", "json"], in: run.workspace.folder)
            #expect(change.status == 1, "stderr: \(change.stderr)")
            #expect(change.stdout.contains(second.id), "the last run's change is tonight's: \(change.stdout)")
            #expect(!change.stdout.contains(traveller.id), "the night before's is not again: \(change.stdout)")
            let titles = try publishedJobTitles(in: run.workspace.output)
            #expect(titles[traveller.id] == "Time Traveller")
            #expect(titles[second.id] == "Second Traveller")
        }
    }
}
