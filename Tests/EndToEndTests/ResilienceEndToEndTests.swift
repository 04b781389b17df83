import Foundation
import GraphSandbox
import Testing

/// The ids in a workspace's published people.json.
func publishedIds(_ workspace: Workspace) throws -> Set<String> {
    try publishedIds(in: workspace.output)
}

/// Seconds between two recorded requests.
func secondsBetween(_ first: RecordedRequest, _ second: RecordedRequest) -> Double {
    let (seconds, attoseconds) = (second.receivedAt - first.receivedAt).components
    return Double(seconds) + Double(attoseconds) / 1e18
}

@Suite("Graph faults end to end", .serialized)
struct ResilienceEndToEndTests {
    @Test(
        "throttling, 503, 504, a cut connection and expiring tokens in one run: exactly the tenant, Retry-After honoured"
    )
    func everyFaultTogether() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let faults = FaultPlan(
            rules: [
                FaultRule(.throttle(retryAfter: .seconds(2.128)), on: .users, schedule: .requests([2])),
                FaultRule(.serviceUnavailable(retryAfter: .seconds(1)), on: .users, schedule: .requests([4])),
                FaultRule(.gatewayTimeout, on: .users, schedule: .requests([6])),
                FaultRule(.dropConnection, on: .users, schedule: .requests([8])),
                FaultRule(.throttle(retryAfter: .httpDate(secondsFromNow: 2)), on: .users, schedule: .requests([10])),
            ],
            tokenExpiresAfterRequests: 4)
        let configuration = SandboxConfiguration(userCount: 1_500, seed: 3, faults: faults)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [("pageSize", "<integer>150</integer>")])
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", settings.path, "--verbose"], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(outcome.status == 0, "stderr: \(outcome.stderr.suffix(2000))")
            let expected = Set(await sandbox.users.map(\.id))
            #expect(try publishedIds(workspace) == expected)

            let requests = await sandbox.recordedRequests().filter {
                $0.endpoint == .graph && $0.path.hasSuffix("/users")
            }
            #expect(requests.contains { $0.fault == "dropConnection" })
            #expect(requests.contains { $0.fault == "tokenExpired" })
            // Each throttled or unavailable answer with Retry-After is retried no sooner than it asked.
            for (index, request) in requests.enumerated() where request.retryAfter != nil {
                guard index + 1 < requests.count else { continue }
                let retry = requests[index + 1]
                #expect(retry.target == request.target, "the same page is retried, not the whole fetch")
                if let seconds = Double(request.retryAfter ?? "") {
                    #expect(
                        secondsBetween(request, retry) >= seconds, "retried after \(secondsBetween(request, retry)) s")
                } else {
                    #expect(secondsBetween(request, retry) >= 1.0)
                }
            }
            // Tokens and secrets never appear in the verbose log.
            #expect(!outcome.stderr.contains(configuration.clientSecret))
            #expect(!outcome.stderr.localizedCaseInsensitiveContains("Bearer "))
            let tokenRequests = await sandbox.recordedRequests().filter { $0.endpoint == .token }
            #expect(tokenRequests.count >= 2, "an expired token is renewed")
        }
    }

    @Test("a token refused again after a throttled retry gets a second renewal: 429, 401, 429, 401, 200")
    func tokenRefusedAgainAfterThrottling() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        // One page; each token works for one request; users requests 1 and 3 are throttled. The page meets
        // 429 (token used), 401 (renew), 429, 401 (renew again), 200. Renewing once per request would fail here.
        let faults = FaultPlan(
            rules: [FaultRule(.throttle(retryAfter: .seconds(0.1)), on: .users, schedule: .requests([1, 3]))],
            tokenExpiresAfterRequests: 1)
        let configuration = SandboxConfiguration(userCount: 300, seed: 11, faults: faults)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [("deltaSync", "<false/>"), ("verifyCount", "<false/>")])
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(outcome.status == 0, "stderr: \(outcome.stderr.suffix(2000))")
            #expect(try publishedIds(workspace) == Set(await sandbox.users.map(\.id)))
            let pages = await sandbox.recordedRequests().filter { $0.endpoint == .graph }
            #expect(pages.map(\.status) == [429, 401, 429, 401, 200])
        }
    }

    /// Filters for the shortfall test: none (checked through `/users/$count`) and an advanced one (checked
    /// against the first page's `@odata.count`).
    static let shortfallFilters: [String?] = [nil, "userType ne 'Guest'"]

    @Test(
        "a listing that silently leaves people out fails the run and leaves the site as it was",
        arguments: shortfallFilters)
    func shortfallIsCaught(filter: String?) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 120, seed: 5)
        try await withSandbox(configuration) { sandbox, url in
            var extra = [("pageSize", "<integer>50</integer>"), ("deltaSync", "<false/>")]
            if let filter { extra.append(("filter", "<string>\(filter)</string>")) }
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId, extra: extra)
            let environment = ["ORGDIR_CLIENT_SECRET": configuration.clientSecret]
            let good = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder, environment: environment)
            #expect(good.status == 0, "stderr: \(good.stderr.suffix(2000))")
            let before = try workspace.outputFingerprint()

            // The second page comes back two people short, with a nextLink past them as if nothing was missing.
            await sandbox.setFaults(FaultPlan(rules: [FaultRule(.omitUsers(count: 2), schedule: .requests([2]))]))
            let short = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder, environment: environment)
            #expect(short.status == 75, "stderr: \(short.stderr.suffix(2000))")
            #expect(
                short.stderr.contains("only") && short.stderr.contains("arrived"),
                "the message says how many arrived: \(short.stderr)")
            #expect(await sandbox.recordedRequests().contains { $0.fault == "omitUsers" })
            #expect(try workspace.outputFingerprint() == before)
        }
    }

    @Test("a decoy nextLink ahead of the real one costs an extra request, never a wrong or missing person")
    func decoyNextLink() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 40)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [("pageSize", "<integer>10</integer>"), ("deltaSync", "<false/>")])
            await sandbox.setFaults(
                FaultPlan(rules: [FaultRule(.decoyNextLink, on: .users, schedule: .requests([1, 3]))]))
            let (run, summary) = try await buildJSON(workspace, settings: settings, secret: configuration.clientSecret)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(summary["published"] as? Int == 40)
            #expect(summary["pages"] as? Int == 4)
            let requests = await sandbox.recordedRequests()
            #expect(requests.filter { $0.fault == "decoyNextLink" }.count == 2)
            // The decoy was followed (the fetcher starts the next request from the raw bytes), then dropped.
            #expect(requests.contains { $0.query["$top"] == "1" })
            let snapshot = try String(contentsOf: latestSnapshot(workspace), encoding: .utf8)
            let ids = Set((await sandbox.users).map(\.id))
            #expect(ids.allSatisfy { snapshot.contains($0) })
            #expect(snapshot.components(separatedBy: "\"userPrincipalName\"").count - 1 == 40)
        }
    }

    @Test("a nextLink to another host stops the run, sends no token there, and leaves the site untouched")
    func foreignNextLink() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        // A listener standing in for the foreign host records whether anything reaches it.
        let foreign = GraphSandbox(configuration: SandboxConfiguration(userCount: 1))
        let foreignURL = try await foreign.start()
        let configuration = SandboxConfiguration(userCount: 40)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                // Full listings on both runs: the fault rewrites a /users nextLink.
                extra: [("pageSize", "<integer>10</integer>"), ("deltaSync", "<false/>")])
            let good = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(good.status == 0, "stderr: \(good.stderr)")
            let before = try workspace.outputFingerprint()
            let root =
                foreignURL.absoluteString.hasSuffix("/")
                ? String(foreignURL.absoluteString.dropLast()) : foreignURL.absoluteString
            await sandbox.setFaults(
                FaultPlan(rules: [FaultRule(.foreignNextLink(base: root), on: .users, schedule: .requests([2]))]))
            let bad = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(bad.status != 0)
            #expect(bad.stderr.contains("outside the configured Graph host"))
            #expect(try workspace.outputFingerprint() == before)
        }
        let reached = await foreign.recordedRequests()
        await foreign.stop()
        #expect(reached.isEmpty, "the foreign host received \(reached.count) requests")
    }

    @Test(
        "a filter that needs an advanced query sends ConsistencyLevel and $count on every page and gets the right people"
    )
    func advancedFilter() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 300, seed: 11)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [
                    ("filter", "<string>endswith(mail,'@contoso.com') and department ne 'Sales'</string>"),
                    ("pageSize", "<integer>25</integer>"),
                ])
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let pages = await sandbox.recordedRequests().filter { $0.endpoint == .graph && $0.path.hasSuffix("/users") }
            #expect(pages.count >= 2)
            for page in pages {
                #expect(page.headers["consistencylevel"] == "eventual")
                #expect(page.query["$count"] == "true")
            }
            let expected = Set(
                await sandbox.users.filter {
                    ($0.mail?.lowercased().hasSuffix("@contoso.com") ?? false) && $0.department?.lowercased() != "sales"
                }.map(\.id))
            #expect(!expected.isEmpty)
            #expect(try publishedIds(workspace) == expected)
        }
    }

    @Test("throttling that outlasts the retry budget exits 75 and publishes nothing")
    func retriesExhausted() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(
            userCount: 20, faults: FaultPlan(rules: [FaultRule(.throttle(retryAfter: .seconds(0.2)), on: .users)]))
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [("maxAttempts", "<integer>3</integer>")])
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(outcome.status == 75)
            #expect(outcome.stderr.contains("try again later"))
            #expect(!FileManager.default.fileExists(atPath: workspace.output.path))
            let pages = await sandbox.recordedRequests().filter { $0.endpoint == .graph && $0.path.hasSuffix("/users") }
            #expect(pages.count == 3)
        }
    }

    @Test("a first build that fails after pages were rendered during the fetch leaves no output and no staging")
    func firstBuildFailsMidFetch() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        // Pages 1 and 2 arrive (and are rendered while the fetch goes on); page 3 is throttled past the budget.
        let configuration = SandboxConfiguration(
            userCount: 40,
            faults: FaultPlan(rules: [
                FaultRule(.throttle(retryAfter: .seconds(0.1)), on: .users, schedule: .requests([3, 4, 5]))
            ]))
        try await withSandbox(configuration) { _, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [
                    ("pageSize", "<integer>10</integer>"), ("maxAttempts", "<integer>3</integer>"),
                    ("deltaSync", "<false/>"),
                ])
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": configuration.clientSecret])
            #expect(outcome.status == 75, "stderr: \(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: workspace.output.path))
            let parent = workspace.output.deletingLastPathComponent().path
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: parent)
            #expect(!leftovers.contains { $0.contains("staging") }, "left behind: \(leftovers)")
        }
    }
}
