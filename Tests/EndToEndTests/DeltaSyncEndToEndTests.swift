import Foundation
import GraphSandbox
import Testing

/// The people part of a snapshot file: everything after the metadata line.
func peoplePart(_ file: URL) throws -> Data {
    let data = try Data(contentsOf: file)
    guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else { return Data() }
    return data[data.index(after: newline)...]
}

/// The newest snapshot file of a workspace.
func latestSnapshot(_ workspace: Workspace) throws -> URL {
    let name = try #require(snapshotFiles(workspace).last)
    return workspace.state.appendingPathComponent("snapshots").appendingPathComponent(name)
}

/// Graph requests that listed `/users` (as opposed to asking `/users/delta`).
func fullListings(_ requests: [RecordedRequest]) -> [RecordedRequest] {
    requests.filter { $0.path == "/v1.0/users" }
}

/// The latest snapshots of two workspaces hold the same people byte for byte; on failure, `orgdir diff` says how
/// they differ.
func expectSamePeople(_ delta: Workspace, _ full: Workspace, sourceLocation: SourceLocation = #_sourceLocation)
    async throws
{
    let deltaFile = try latestSnapshot(delta)
    let fullFile = try latestSnapshot(full)
    guard try peoplePart(deltaFile) != peoplePart(fullFile) else { return }
    let compared = try await OrgDirProcess.run(["diff", fullFile.path, deltaFile.path], in: delta.folder)
    Issue.record(
        "the delta run's people differ from the full run's:\n\(compared.stdout)", sourceLocation: sourceLocation)
}

/// `orgdir build --json` in a workspace, decoded.
func buildJSON(
    _ workspace: Workspace, settings: URL, secret: String, extra: [String] = []
) async throws -> (OrgDirProcess.Outcome, [String: Any]) {
    let outcome = try await OrgDirProcess.run(
        ["build", "--config", settings.path, "--json"] + extra, in: workspace.folder,
        environment: ["ORGDIR_CLIENT_SECRET": secret])
    let summary = (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any] ?? [:]
    return (outcome, summary)
}

@Suite("Delta sync end to end", .serialized)
struct DeltaSyncEndToEndTests {
    static let managerSettings = [("expandManager", "<true/>")]

    /// Settings under which delta and full runs must agree, how the sandbox sends changed users, and who the
    /// settings publish (to check `orgdir diff` against the tenant's own changes).
    struct EqualityCase: Sendable, CustomTestStringConvertible {
        var records: DeltaRecords
        var settings: [(String, String)]
        var inScope: @Sendable (SandboxUser) -> Bool
        var testDescription: String

        init(
            _ records: DeltaRecords, _ description: String, filter: String? = nil,
            inScope: @escaping @Sendable (SandboxUser) -> Bool = { _ in true }
        ) {
            self.records = records
            settings = managerSettings + (filter.map { [("filter", "<string>\($0)</string>")] } ?? [])
            self.inScope = inScope
            testDescription = "\(records.rawValue) records, \(description)"
        }
    }

    static let equalityCases: [EqualityCase] = [
        EqualityCase(.full, "everyone"),
        EqualityCase(.changedOnly, "everyone"),
        // Filters run by the server on a full listing and locally on a delta run.
        EqualityCase(
            .full, "by department",
            filter: "department eq 'Sales' or department eq 'Operations' or department eq 'Legal'",
            inScope: { ["Sales", "Operations", "Legal"].contains($0.department ?? "") }),
        // A filter on a property nobody selected: changed-only records do not carry it.
        EqualityCase(
            .changedOnly, "by city", filter: "city eq 'Seattle' or city eq 'London' or city eq 'Redmond'",
            inScope: { ["Seattle", "London", "Redmond"].contains($0.city ?? "") }),
    ]

    @Test(
        "after random tenant changes, a delta run lists nobody and its people equal a full run's byte for byte",
        arguments: equalityCases)
    func deltaEqualsFull(_ equality: EqualityCase) async throws {
        let extra = equality.settings
        let deltaSide = try Workspace()
        let fullSide = try Workspace()
        defer {
            deltaSide.remove()
            fullSide.remove()
        }
        let configuration = SandboxConfiguration(
            userCount: 300, seed: 21, deltaRecords: equality.records)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try deltaSide.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId, extra: extra)
            let fullSettings = try fullSide.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: extra + [("deltaSync", "<false/>")])
            let (first, firstSummary) = try await buildJSON(
                deltaSide, settings: settings, secret: configuration.clientSecret)
            #expect(first.status == 0, "stderr: \(first.stderr)")
            #expect(firstSummary["sync"] as? String == "full")
            let firstRequests = await sandbox.recordedRequests()
            // The deltaLink is asked for before the listing, so nothing changed during the listing is lost.
            let latest = try #require(firstRequests.firstIndex { $0.query["$deltatoken"] == "latest" })
            let listing = try #require(firstRequests.firstIndex { $0.path == "/v1.0/users" })
            #expect(latest < listing)
            #expect(FileManager.default.fileExists(atPath: deltaSide.state.appendingPathComponent("delta.json").path))

            let before = await sandbox.users
            for seed in UInt64(1)...3 {
                await sandbox.applyRandomChanges(count: 15, seed: seed)
                await sandbox.clearRecordedRequests()
                let (run, summary) = try await buildJSON(
                    deltaSide, settings: settings, secret: configuration.clientSecret)
                #expect(run.status == 0, "stderr: \(run.stderr)")
                #expect(summary["sync"] as? String == "delta")
                let requests = await sandbox.recordedRequests()
                #expect(fullListings(requests).isEmpty, "a delta run listed /users")
                #expect(requests.contains { $0.path == "/v1.0/users/delta" && $0.query["$deltatoken"] != nil })

                let (full, fullSummary) = try await buildJSON(
                    fullSide, settings: fullSettings, secret: configuration.clientSecret)
                #expect(full.status == 0, "stderr: \(full.stderr)")
                #expect(fullSummary["sync"] as? String == "full")
                try await expectSamePeople(deltaSide, fullSide)
            }

            // `orgdir diff` between the first and the last snapshot reports exactly the tenant's changes.
            let after = await sandbox.users
            let inScope = equality.inScope
            let beforeById = Dictionary(uniqueKeysWithValues: before.filter(inScope).map { ($0.id, $0) })
            let afterById = Dictionary(uniqueKeysWithValues: after.filter(inScope).map { ($0.id, $0) })
            let names = snapshotFiles(deltaSide)
            let diff = try await OrgDirProcess.run(
                ["diff", try #require(names.first), "latest", "--format", "json", "--state", deltaSide.state.path],
                in: deltaSide.folder)
            #expect(diff.status == 1, "stderr: \(diff.stderr)")
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
            let body = try #require(report["diff"] as? [String: Any])
            func ids(_ key: String) -> Set<String> {
                Set((body[key] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
            }
            #expect(ids("joiners") == Set(afterById.keys).subtracting(beforeById.keys))
            #expect(ids("leavers") == Set(beforeById.keys).subtracting(afterById.keys))
            let changed = Set(
                afterById.compactMap { id, user in
                    beforeById[id].map { $0 != user ? id : nil } ?? nil
                })
            #expect(ids("changed") == changed)
        }
    }

    @Test("an expired delta token falls back to a full sync, and the run after that is a delta run again")
    func expiredToken() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 120, seed: 4)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let secret = configuration.clientSecret
            #expect(try await buildJSON(workspace, settings: settings, secret: secret).0.status == 0)
            await sandbox.expireDeltaTokens()
            await sandbox.applyRandomChanges(count: 10, seed: 9)
            await sandbox.clearRecordedRequests()
            let (fallback, summary) = try await buildJSON(workspace, settings: settings, secret: secret)
            #expect(fallback.status == 0, "stderr: \(fallback.stderr)")
            #expect(summary["sync"] as? String == "full")
            #expect((summary["warnings"] as? [String] ?? []).contains { $0.contains("delta token was refused") })
            let requests = await sandbox.recordedRequests()
            #expect(requests.contains { $0.status == 410 })
            #expect(!fullListings(requests).isEmpty)
            #expect(summary["published"] as? Int == (await sandbox.users).count)

            await sandbox.applyRandomChanges(count: 5, seed: 10)
            let (again, againSummary) = try await buildJSON(workspace, settings: settings, secret: secret)
            #expect(again.status == 0, "stderr: \(again.stderr)")
            #expect(againSummary["sync"] as? String == "delta")
            #expect(againSummary["published"] as? Int == (await sandbox.users).count)
        }
    }

    @Test("a run that died after publishing but before recording its delta link leaves a state the next run repairs")
    func crashBeforeDeltaLink() async throws {
        let deltaSide = try Workspace()
        let fullSide = try Workspace()
        defer {
            deltaSide.remove()
            fullSide.remove()
        }
        let configuration = SandboxConfiguration(userCount: 150, seed: 8)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try deltaSide.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let secret = configuration.clientSecret
            #expect(try await buildJSON(deltaSide, settings: settings, secret: secret).0.status == 0)
            let deltaFile = deltaSide.state.appendingPathComponent("delta.json")
            let oldLink = try Data(contentsOf: deltaFile)

            await sandbox.applyRandomChanges(count: 12, seed: 31)
            #expect(try await buildJSON(deltaSide, settings: settings, secret: secret).0.status == 0)
            // The crash: snapshot and site of run 2 are on disk, its delta link is not.
            try oldLink.write(to: deltaFile)

            await sandbox.applyRandomChanges(count: 12, seed: 32)
            let (repaired, summary) = try await buildJSON(deltaSide, settings: settings, secret: secret)
            #expect(repaired.status == 0, "stderr: \(repaired.stderr)")
            #expect(summary["sync"] as? String == "delta")

            let fullSettings = try fullSide.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [("deltaSync", "<false/>")])
            #expect(try await buildJSON(fullSide, settings: fullSettings, secret: secret).0.status == 0)
            try await expectSamePeople(deltaSide, fullSide)
            #expect(deltaSide.files(in: "people", withExtension: "html").count == (await sandbox.users).count)
        }
    }

    @Test("without $deltatoken=latest a full run ends with a complete delta round, and the next run is a delta run")
    func withoutLatest() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 230, seed: 6, deltaSupport: .withoutLatest)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let secret = configuration.clientSecret
            let (first, summary) = try await buildJSON(workspace, settings: settings, secret: secret)
            #expect(first.status == 0, "stderr: \(first.stderr)")
            #expect((summary["warnings"] as? [String] ?? []).isEmpty)
            let requests = await sandbox.recordedRequests()
            // The listing first, then the round: changes during the listing are replayed next time.
            let listing = try #require(requests.firstIndex { $0.path == "/v1.0/users" })
            let round = try #require(
                requests.firstIndex {
                    $0.path == "/v1.0/users/delta" && $0.query.isEmpty == false
                        && $0.query["$deltatoken"] == nil && $0.query["$skiptoken"] == nil
                })
            #expect(listing < round)

            await sandbox.applyRandomChanges(count: 8, seed: 2)
            await sandbox.clearRecordedRequests()
            let (second, secondSummary) = try await buildJSON(workspace, settings: settings, secret: secret)
            #expect(second.status == 0, "stderr: \(second.stderr)")
            #expect(secondSummary["sync"] as? String == "delta")
            #expect(fullListings(await sandbox.recordedRequests()).isEmpty)
            #expect(secondSummary["published"] as? Int == (await sandbox.users).count)
        }
    }

    @Test("a server without /users/delta gets a warning and a full sync on every run")
    func withoutDelta() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 60, seed: 3, deltaSupport: .none)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            for _ in 0..<2 {
                await sandbox.applyRandomChanges(count: 4, seed: 5)
                let (run, summary) = try await buildJSON(
                    workspace, settings: settings, secret: configuration.clientSecret)
                #expect(run.status == 0, "stderr: \(run.stderr)")
                #expect(summary["sync"] as? String == "full")
                #expect((summary["warnings"] as? [String] ?? []).contains { $0.contains("delta sync is unavailable") })
                #expect(summary["published"] as? Int == (await sandbox.users).count)
            }
            #expect(!FileManager.default.fileExists(atPath: workspace.state.appendingPathComponent("delta.json").path))
        }
    }

    @Test("a full sync comes back when fullSyncEvery has passed and when the query changes")
    func fullSyncTriggers() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 40, seed: 13)
        try await withSandbox(configuration) { _, url in
            func settings(_ extra: [(String, String)]) throws -> URL {
                try workspace.writeSettings(
                    sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId, extra: extra)
            }
            let steps: [(extra: [(String, String)], sync: String)] = [
                ([], "full"),
                ([], "delta"),
                ([("fullSyncEvery", "<integer>0</integer>")], "full"),
                ([], "delta"),
                ([("select", "<array><string>city</string></array>")], "full"),
                ([("select", "<array><string>city</string></array>")], "delta"),
                ([("filter", "<string>accountEnabled eq true</string>")], "full"),
                ([("excludeGuests", "<true/>")], "full"),
            ]
            for (index, step) in steps.enumerated() {
                let (run, summary) = try await buildJSON(
                    workspace, settings: try settings(step.extra), secret: configuration.clientSecret,
                    extra: ["--accept-removals"])
                #expect(run.status == 0, "step \(index): \(run.stderr)")
                #expect(summary["sync"] as? String == step.sync, "step \(index)")
            }

            // The default fullSyncEvery is 7 days, counted from the last full sync recorded with the link.
            let plain = try settings([("excludeGuests", "<true/>")])
            let delta = try await buildJSON(workspace, settings: plain, secret: configuration.clientSecret)
            #expect(delta.1["sync"] as? String == "delta")
            let deltaFile = workspace.state.appendingPathComponent("delta.json")
            var state = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: deltaFile)) as? [String: Any])
            let formatter = ISO8601DateFormatter()
            state["fullSyncAt"] = formatter.string(from: Date(timeIntervalSinceNow: -8 * 86_400))
            try JSONSerialization.data(withJSONObject: state).write(to: deltaFile)
            let aged = try await buildJSON(workspace, settings: plain, secret: configuration.clientSecret)
            #expect(aged.0.status == 0, "stderr: \(aged.0.stderr)")
            #expect(aged.1["sync"] as? String == "full")
        }
    }

    @Test(
        "a manager the filter leaves out who is renamed is named anew on a delta run, as a full run names them",
        arguments: [DeltaRecords.full, .changedOnly])
    func renamedManagerOutsideFilter(_ records: DeltaRecords) async throws {
        let deltaSide = try Workspace()
        let fullSide = try Workspace()
        defer {
            deltaSide.remove()
            fullSide.remove()
        }
        let configuration = SandboxConfiguration(userCount: 300, seed: 21, deltaRecords: records)
        try await withSandbox(configuration) { sandbox, url in
            let users = await sandbox.users
            let byId = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0) })
            // Someone whose manager works in another department: the filter publishes the report, not the manager.
            let report = try #require(
                users.first { user in
                    guard let department = user.department, let managerId = user.managerId,
                        let manager = byId[managerId]
                    else { return false }
                    return manager.department != department && !department.contains("'")
                })
            let department = try #require(report.department)
            var manager = try #require(report.managerId.flatMap { byId[$0] })
            let extra = Self.managerSettings + [("filter", "<string>department eq '\(department)'</string>")]
            let settings = try deltaSide.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId, extra: extra)
            let fullSettings = try fullSide.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: extra + [("deltaSync", "<false/>")])
            let secret = configuration.clientSecret
            #expect(try await buildJSON(deltaSide, settings: settings, secret: secret).0.status == 0)

            manager.displayName = "Renamed Manager \(manager.id.prefix(4))"
            try await sandbox.mutate(.update(manager))
            let (run, summary) = try await buildJSON(deltaSide, settings: settings, secret: secret)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(summary["sync"] as? String == "delta")
            #expect(try await buildJSON(fullSide, settings: fullSettings, secret: secret).0.status == 0)
            try await expectSamePeople(deltaSide, fullSide)
            let snapshot = try String(contentsOf: latestSnapshot(deltaSide), encoding: .utf8)
            #expect(snapshot.contains(manager.displayName))
        }
    }

    @Test(
        "a saved delta link the server refuses, or one leading off the Graph host, gives way to a full sync",
        arguments: ["refused", "foreign"])
    func brokenDeltaLink(_ kind: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 50, seed: 17)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let secret = configuration.clientSecret
            #expect(try await buildJSON(workspace, settings: settings, secret: secret).0.status == 0)
            let deltaFile = workspace.state.appendingPathComponent("delta.json")
            var state = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: deltaFile)) as? [String: Any])
            let link = try #require(state["deltaLink"] as? String)
            // $orderby is not allowed on delta (400); 127.0.0.2 is not the configured Graph host.
            state["deltaLink"] =
                kind == "refused"
                ? link + "&$orderby=displayName"
                : link.replacingOccurrences(of: "127.0.0.1", with: "127.0.0.2")
            try JSONSerialization.data(withJSONObject: state).write(to: deltaFile)
            await sandbox.applyRandomChanges(count: 6, seed: 4)
            let (run, summary) = try await buildJSON(workspace, settings: settings, secret: secret)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(summary["sync"] as? String == "full")
            #expect((summary["warnings"] as? [String] ?? []).contains { $0.contains("delta run failed") })
            #expect(summary["published"] as? Int == (await sandbox.users).count)
            let repaired = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: deltaFile)) as? [String: Any])
            #expect(repaired["deltaLink"] as? String != state["deltaLink"] as? String)
        }
    }
}
