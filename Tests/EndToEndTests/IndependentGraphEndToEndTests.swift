import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A second Graph, written in Python from the protocol fact sheet and not from our sandbox
/// (`IndependentGraph/independent_graph.py`, which lists where it chooses differently): chunked gzip responses, pages
/// smaller than asked, a 429 with a fractional Retry-After, delta records that leave out what was never set, hostile
/// names. The sandbox and orgdir share their authors' habits; this server does not.
struct IndependentGraph {
    static let python = ChildProcess.python3
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("IndependentGraph/independent_graph.py")
    static let secret = "independent-secret"

    let server: ChildProcess
    let url: URL

    /// Starts a server of `people`, with `arguments` for it (`--certificate`, `--federated-key`…).
    init(people: Int, seed: Int, arguments: [String] = []) async throws {
        server = try ChildProcess(
            URL(fileURLWithPath: Self.python ?? "/usr/bin/python3"),
            [Self.script.path, "--people", "\(people)", "--seed", "\(seed)", "--secret", Self.secret] + arguments)
        let line = try await server.firstLine(within: 30)
        url = try #require(URL(string: line))
    }

    func stop() { server.stop() }

    /// Runs `body` with a fresh workspace and a server of `people`, started with the arguments `server` gives (made
    /// in the workspace: a certificate, an issuer's key); both go afterwards.
    static func with(
        people: Int, seed: Int, server: (Workspace) throws -> [String] = { _ in [] },
        _ body: (IndependentGraph, Workspace) async throws -> Void
    ) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let graph = try await IndependentGraph(people: people, seed: seed, arguments: try server(workspace))
        defer { graph.stop() }
        try await body(graph, workspace)
    }

    /// `orgdir COMMAND --config <settings> arguments…` in `workspace`, with settings pointing at this server plus
    /// `extra`, and `environment` (the client secret by default).
    func run(
        _ command: String, in workspace: Workspace, _ arguments: [String] = [],
        settings extra: [(String, String)] = [], environment: [String: String] = ["ORGDIR_CLIENT_SECRET": secret]
    ) async throws -> OrgDirProcess.Outcome {
        let settings = try workspace.writeSettings(
            sandbox: url, tenant: "contoso.onmicrosoft.com", clientId: "11111111-2222-3333-4444-555555555555",
            extra: extra)
        return try await OrgDirProcess.run(
            [command, "--config", settings.path] + arguments, in: workspace.folder, environment: environment)
    }

    /// `orgdir build` in `workspace`, signing in with `secret`.
    func build(
        in workspace: Workspace, secret: String = Self.secret, _ arguments: [String] = [],
        settings extra: [(String, String)] = []
    ) async throws -> OrgDirProcess.Outcome {
        try await run(
            "build", in: workspace, arguments, settings: extra, environment: ["ORGDIR_CLIENT_SECRET": secret])
    }

    /// The user codes of the device sign-ins waiting for a person.
    func waitingUserCodes() async throws -> [String] {
        try await control("GET", "devicecodes") as? [String] ?? []
    }

    /// Signs in as the person the device code `userCode` is shown to.
    func approve(_ userCode: String) async throws {
        _ = try await control("POST", "approve?user_code=\(userCode)")
    }

    /// Every credential the server handed out: access and refresh tokens, device codes.
    func issuedCredentials() async throws -> [String] {
        try await control("GET", "issued") as? [String] ?? []
    }

    /// Everyone the server has now, by id: their display name, job title, mobile phone and department.
    func people() async throws -> [String: [String: String]] {
        let object = try await control("GET", "people") as? [String: [String: Any]] ?? [:]
        return object.mapValues { $0.compactMapValues { $0 as? String } }
    }

    /// Changes `count` people: a join, a soft delete, a new title and a cleared mobile phone, in turn.
    func churn(_ count: Int) async throws {
        _ = try await control("POST", "churn?count=\(count)")
    }

    /// Makes every delta token given out so far expire: the next round is answered 410 `syncStateNotFound`.
    func expireDeltaTokens() async throws {
        _ = try await control("POST", "expire")
    }

    /// The Graph requests answered so far, in order, as "METHOD /path STATUS" (test control left out).
    func graphRequests() async throws -> [String] {
        try await answered().map { "\($0.method) \($0.path) \($0.status)" }
    }

    /// The Graph requests answered so far, in order, with the client port each came from (test control left out).
    func answered() async throws -> [(method: String, path: String, status: Int, port: Int)] {
        let entries = try await control("GET", "requests") as? [[Any]] ?? []
        return entries.compactMap { entry in
            guard entry.count == 4, let method = entry[0] as? String, let path = entry[1] as? String,
                let status = entry[2] as? Int, let port = entry[3] as? Int, !path.hasPrefix("/_control")
            else { return nil }
            return (method, path, status, port)
        }
    }

    private func control(_ method: String, _ path: String) async throws -> Any {
        var request = URLRequest(url: try #require(URL(string: url.absoluteString + "/_control/" + path)))
        request.httpMethod = method
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONSerialization.jsonObject(with: data)
    }
}

@Suite(
    "orgdir against a second, independently written Graph", .serialized,
    .enabled(if: IndependentGraph.python != nil, "needs python3 to run the second Graph"))
struct IndependentGraphEndToEndTests {
    /// The published site holds exactly the server's people, with their name, title, mobile phone and department as
    /// the server has them now (a delta record leaves out what was never set, and carries a cleared phone as null).
    private func expectPublished(
        _ graph: IndependentGraph, in output: URL, _ label: String,
        fields: [String] = ["displayName", "jobTitle", "mobilePhone", "department"],
        where included: ([String: String]) -> Bool = { _ in true }
    ) async throws {
        let expected = try await graph.people().filter { included($0.value) }
        let published = try publishedPeople(in: output)
        #expect(Set(published.keys) == Set(expected.keys), "\(label)")
        for (id, person) in expected {
            for name in fields {
                #expect(published[id]?[name] as? String == person[name], "\(label): \(id) \(name)")
            }
        }
    }

    @Test("a full build, then delta nightlies: the site holds exactly the second Graph's people each time")
    func buildThenNightlies() async throws {
        try await IndependentGraph.with(people: 700, seed: 3) { graph, workspace in
            let build = { try await graph.build(in: workspace, ["--json"]) }

            let first = try await build()
            #expect(first.status == 0, "stderr: \(first.stderr.suffix(3000))")
            try await expectPublished(graph, in: workspace.output, "full build")
            // 700 people in pages of 137 at most: six pages, one of them asked twice after its 429.
            let listing = try await graph.graphRequests().filter { $0.hasPrefix("GET /v1.0/users ") }
            #expect(listing.count == 7, "\(listing)")
            #expect(listing.filter { $0.hasSuffix(" 429") }.count == 1, "\(listing)")
            // A given name of `<script>alert(1)</script>` reaches the person pages as text, never as markup.
            let people = workspace.output.appendingPathComponent("people")
            let pages = workspace.files(in: "people", withExtension: "html").map {
                (try? String(contentsOf: people.appendingPathComponent($0), encoding: .utf8)) ?? ""
            }
            #expect(pages.count == 700)
            #expect(pages.contains { $0.contains("&lt;script&gt;alert(1)&lt;/script&gt;") })
            #expect(!pages.contains { $0.contains("<script>alert(1)") })

            for round in 1...2 {
                try await graph.churn(40)
                let nightly = try await build()
                #expect(nightly.status == 0, "round \(round), stderr: \(nightly.stderr.suffix(3000))")
                let summary = try JSONSerialization.jsonObject(with: Data(nightly.stdout.utf8)) as? [String: Any] ?? [:]
                #expect(summary["sync"] as? String == "delta", "round \(round): \(summary)")
                try await expectPublished(graph, in: workspace.output, "round \(round)")
            }
            // The first delta page after the first build's deltaLink was answered 503 once, and asked again.
            let delta = try await graph.graphRequests().filter { $0.hasPrefix("GET /v1.0/users/delta ") }
            #expect(delta.filter { $0.hasSuffix(" 503") }.count == 1, "\(delta)")
            #expect(delta.last?.hasSuffix(" 200") == true, "\(delta)")
            let diff = try await OrgDirProcess.run(
                ["diff", "--state", workspace.state.path, "--format", "json"], in: workspace.folder)
            #expect(diff.status == 1, "stderr: \(diff.stderr)")
        }
    }

    /// Managers reach orgdir three ways here: `$expand` on a full listing, `manager@delta` on a nightly (an id only,
    /// or none when the manager left), and `/users/{id}/manager` for a joiner whose record says nothing of one.
    @Test("with expandManager, every published manager is the second Graph's, after a full build and after nightlies")
    func managers() async throws {
        try await IndependentGraph.with(people: 300, seed: 5) { graph, workspace in
            let fields = ["displayName", "jobTitle", "manager"]
            let build = { try await graph.build(in: workspace, settings: [("expandManager", "<true/>")]) }
            let first = try await build()
            #expect(first.status == 0, "stderr: \(first.stderr.suffix(3000))")
            try await expectPublished(graph, in: workspace.output, "full build", fields: fields)
            #expect(try publishedPeople(in: workspace.output).values.contains { $0["manager"] is String })
            for round in 1...2 {
                try await graph.churn(50)
                let nightly = try await build()
                #expect(nightly.status == 0, "round \(round), stderr: \(nightly.stderr.suffix(3000))")
                try await expectPublished(graph, in: workspace.output, "round \(round)", fields: fields)
            }
            let requests = try await graph.graphRequests()
            #expect(
                requests.contains { $0.hasPrefix("GET /v1.0/users/") && $0.contains("/manager ") },
                "a joiner's manager was asked for: \(requests)")
        }
    }

    /// A `$filter` goes to Graph on a full listing, but delta takes none (only `id eq`): a nightly applies it itself,
    /// and people who moved into the department join the site while those who moved out leave it.
    @Test("with a filter, the site holds exactly the people it matches, after a full build and after nightlies")
    func filtered() async throws {
        try await IndependentGraph.with(people: 400, seed: 7) { graph, workspace in
            let inSales: ([String: String]) -> Bool = { $0["department"] == "Sales" }
            // The churn moves and removes more of one department than the removal guard lets pass unasked.
            let build = {
                try await graph.build(
                    in: workspace, ["--json", "--accept-removals"],
                    settings: [("filter", "<string>department eq 'Sales'</string>")])
            }
            let first = try await build()
            #expect(first.status == 0, "stderr: \(first.stderr.suffix(3000))")
            try await expectPublished(graph, in: workspace.output, "full build", where: inSales)
            #expect(try publishedPeople(in: workspace.output).count > 20)
            for round in 1...2 {
                try await graph.churn(120)
                let nightly = try await build()
                #expect(nightly.status == 0, "round \(round), stderr: \(nightly.stderr.suffix(3000))")
                let summary = try JSONSerialization.jsonObject(with: Data(nightly.stdout.utf8)) as? [String: Any]
                #expect(summary?["sync"] as? String == "delta", "round \(round): \(summary ?? [:])")
                try await expectPublished(graph, in: workspace.output, "round \(round)", where: inSales)
            }
        }
    }

    @Test("an expired delta token (410 syncStateNotFound) makes a full sync with a warning; the next night is delta")
    func expiredDeltaToken() async throws {
        try await IndependentGraph.with(people: 250, seed: 6) { graph, workspace in
            let build = { try await graph.build(in: workspace, ["--json"]) }
            func summary(_ outcome: OrgDirProcess.Outcome) -> [String: Any] {
                (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any] ?? [:]
            }
            #expect(try await build().status == 0)
            try await graph.churn(30)
            try await graph.expireDeltaTokens()
            let resynced = try await build()
            #expect(resynced.status == 0, "stderr: \(resynced.stderr.suffix(3000))")
            #expect(summary(resynced)["sync"] as? String == "full", "\(summary(resynced))")
            let warnings = summary(resynced)["warnings"] as? [String] ?? []
            #expect(warnings.contains { $0.contains("delta token was refused") }, "\(warnings)")
            try await expectPublished(graph, in: workspace.output, "after the full sync")

            try await graph.churn(30)
            let nightly = try await build()
            #expect(nightly.status == 0, "stderr: \(nightly.stderr.suffix(3000))")
            #expect(summary(nightly)["sync"] as? String == "delta", "\(summary(nightly))")
            try await expectPublished(graph, in: workspace.output, "the night after")
        }
    }

    /// This server's responses stall some 40 ms on a kept-alive connection (headers and body in two sends: Nagle,
    /// then the client's delayed acknowledgement). orgdir notices the steady stall and asks for a connection per
    /// request from then on (`ConnectionReuse`).
    @Test("a server that stalls kept-alive connections gets a connection per request once the stall shows")
    func stallingServer() async throws {
        try await IndependentGraph.with(people: 3_000, seed: 12) { graph, workspace in
            let build = try await graph.build(in: workspace)
            #expect(build.status == 0, "stderr: \(build.stderr.suffix(3000))")
            let listing = try await graph.answered().filter { $0.path == "/v1.0/users" && $0.status == 200 }
            #expect(listing.count == 22, "3,000 people in pages of 137")
            let ports = listing.map(\.port)
            #expect(Set(ports.prefix(3)).count == 1, "a connection kept at first: \(ports)")
            #expect(Set(ports.suffix(5)).count == 5, "a connection of its own each at the end: \(ports)")
        }
    }

    /// The assertion is checked by openssl, not by code of ours: PS256 with a 32-byte salt and `x5t#S256` by default,
    /// RS256 with `x5t` where `assertionAlgorithm` asks for it. A certificate the app does not know is refused.
    @Test(
        "a certificate's assertion passes an openssl check and the build publishes; another certificate is refused",
        arguments: ["PS256", "RS256"])
    func certificate(algorithm: String) async throws {
        try await IndependentGraph.with(
            people: 60, seed: 8,
            server: { ["--certificate", try SignInFixtures.makeCertificate(in: $0.folder).certificate.path] }
        ) { graph, workspace in
            func settings(_ name: String) -> [(String, String)] {
                let folder = workspace.folder.path
                return [
                    ("auth", "<string>certificate</string>"),
                    ("certificateFile", "<string>\(folder)/\(name)-cert.pem</string>"),
                    ("privateKeyFile", "<string>\(folder)/\(name)-key.pem</string>"),
                    ("assertionAlgorithm", "<string>\(algorithm)</string>"),
                ]
            }
            let signedIn = try await graph.run("build", in: workspace, settings: settings("app"), environment: [:])
            #expect(signedIn.status == 0, "stderr: \(signedIn.stderr.suffix(3000))")
            try await expectPublished(graph, in: workspace.output, "certificate")

            _ = try SignInFixtures.makeCertificate(in: workspace.folder, name: "other")
            let refused = try await graph.run("build", in: workspace, settings: settings("other"), environment: [:])
            #expect(refused.status == 77, "stderr: \(refused.stderr)")
            #expect(refused.stderr.contains("AADSTS700027"), "\(refused.stderr)")
        }
    }

    /// A person signs in once with a device code; each build then redeems the refresh token and keeps the new one
    /// (this server refuses a redeemed one); `logout` forgets it, and a build off a terminal says to log in.
    @Test("a device code sign-in, then builds that rotate the refresh token; no credential leaks; logout forgets it")
    func deviceCode() async throws {
        try await IndependentGraph.with(people: 40, seed: 9) { graph, workspace in
            let cacheHome = workspace.folder.appendingPathComponent("cache")
            let environment = ["XDG_CACHE_HOME": cacheHome.path]
            let settings = [("auth", "<string>deviceCode</string>")]
            async let signingIn = graph.run("login", in: workspace, settings: settings, environment: environment)
            var waiting: [String] = []
            for _ in 0..<300 where waiting.isEmpty {
                try await Task.sleep(for: .milliseconds(100))
                waiting = try await graph.waitingUserCodes()
            }
            let userCode = try #require(waiting.first, "orgdir login asked for no device code")
            try await graph.approve(userCode)
            let login = try await signingIn
            #expect(login.status == 0, "stderr: \(login.stderr)")
            #expect(login.stderr.contains(userCode), "the person is shown the code: \(login.stderr)")
            let cacheFile = try SignInFixtures.cacheFile(in: cacheHome)
            #expect(try SignInFixtures.mode(of: cacheFile) == 0o600)
            let first = try SignInFixtures.refreshToken(in: cacheFile)

            var outcomes = [login]
            for _ in 0..<2 {
                let build = try await graph.run("build", in: workspace, settings: settings, environment: environment)
                #expect(build.status == 0, "stderr: \(build.stderr.suffix(3000))")
                outcomes.append(build)
            }
            try await expectPublished(graph, in: workspace.output, "delegated")
            #expect(try SignInFixtures.refreshToken(in: cacheFile) != first, "the refresh token was rotated")
            let issued = try await graph.issuedCredentials()
            #expect(issued.count >= 4)
            let written =
                try Array(filesWithBytes(under: workspace.output).values)
                + Array(filesWithBytes(under: workspace.state).values)
            for value in issued {
                let bytes = Data(value.utf8)
                #expect(!outcomes.contains { $0.stdout.contains(value) || $0.stderr.contains(value) }, "\(value)")
                #expect(!written.contains { $0.range(of: bytes) != nil }, "a credential in the site or state: \(value)")
            }

            let logout = try await graph.run("logout", in: workspace, settings: settings, environment: environment)
            #expect(logout.status == 0, "stderr: \(logout.stderr)")
            let forgotten = try await graph.run("build", in: workspace, settings: settings, environment: environment)
            #expect(forgotten.status == 77, "stderr: \(forgotten.stderr)")
            #expect(forgotten.stderr.contains("orgdir login"), "\(forgotten.stderr)")
        }
    }

    /// The browser here is curl: it fetches the authorize URL and follows the redirect to orgdir's loopback
    /// listener. The server checks the PKCE verifier against the challenge when the code is redeemed.
    @Test("a browser sign-in: the code comes back to localhost and is redeemed with its PKCE verifier; builds run")
    func browser() async throws {
        try await IndependentGraph.with(people: 30, seed: 10) { graph, workspace in
            let environment = [
                "XDG_CACHE_HOME": workspace.folder.appendingPathComponent("cache").path,
                "BROWSER": "curl -s -L -o /dev/null --max-time 20",
            ]
            let settings = [("auth", "<string>browser</string>")]
            let login = try await graph.run(
                "login", in: workspace, ["--browser"], settings: settings, environment: environment)
            #expect(login.status == 0, "stderr: \(login.stderr)")
            let build = try await graph.run("build", in: workspace, settings: settings, environment: environment)
            #expect(build.status == 0, "stderr: \(build.stderr.suffix(3000))")
            try await expectPublished(graph, in: workspace.output, "browser")
            let token = try await graph.graphRequests().filter { $0.hasPrefix("POST /contoso.onmicrosoft.com/oauth2") }
            #expect(
                token == [
                    "POST /contoso.onmicrosoft.com/oauth2/v2.0/token 200",
                    "POST /contoso.onmicrosoft.com/oauth2/v2.0/token 200",
                ], "\(token)")
        }
    }

    /// A federated token (as Kubernetes or a CI system writes it) goes out as the client assertion; the server takes
    /// it only from the issuer it trusts, checked with openssl against that issuer's key.
    @Test("a federated token from the trusted issuer signs in; one signed by another key is refused")
    func federatedToken() async throws {
        let issuer = "https://token.actions.example.com"
        try await IndependentGraph.with(
            people: 30, seed: 11,
            server: { workspace in
                let (certificate, _) = try SignInFixtures.makeCertificate(in: workspace.folder, name: "issuer")
                let key = workspace.folder.appendingPathComponent("issuer-public.pem")
                try SignInFixtures.openssl(
                    ["x509", "-in", certificate.path, "-pubkey", "-noout", "-out", key.path], in: workspace.folder)
                return ["--federated-key", key.path, "--federated-issuer", issuer]
            }
        ) { graph, workspace in
            func token(signedBy name: String) throws -> URL {
                let now = Int(Date().timeIntervalSince1970)
                let jwt = try SignInFixtures.signJWT(
                    claims: [
                        "iss": issuer, "sub": "system:serviceaccount:phonebook:orgdir",
                        "aud": "api://AzureADTokenExchange", "iat": now, "nbf": now, "exp": now + 3600,
                    ],
                    key: workspace.folder.appendingPathComponent("\(name)-key.pem"), in: workspace.folder)
                let file = workspace.folder.appendingPathComponent("\(name).jwt")
                try Data(jwt.utf8).write(to: file)
                return file
            }
            let settings = [("auth", "<string>federatedToken</string>")]
            let trusted = try await graph.run(
                "build", in: workspace, settings: settings,
                environment: ["AZURE_FEDERATED_TOKEN_FILE": try token(signedBy: "issuer").path])
            #expect(trusted.status == 0, "stderr: \(trusted.stderr.suffix(3000))")
            try await expectPublished(graph, in: workspace.output, "federated")

            _ = try SignInFixtures.makeCertificate(in: workspace.folder, name: "forger")
            let forged = try await graph.run(
                "build", in: workspace, settings: settings,
                environment: ["AZURE_FEDERATED_TOKEN_FILE": try token(signedBy: "forger").path])
            #expect(forged.status == 77, "stderr: \(forged.stderr)")
            #expect(forged.stderr.contains("AADSTS700027"), "\(forged.stderr)")
        }
    }

    @Test("a wrong client secret is refused with the identity platform's reason; nothing is written")
    func wrongSecret() async throws {
        try await IndependentGraph.with(people: 20, seed: 4) { graph, workspace in
            let refused = try await graph.build(in: workspace, secret: "not-the-secret")
            #expect(refused.status == 77, "stderr: \(refused.stderr)")
            #expect(refused.stderr.contains("AADSTS7000215"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("not-the-secret"), "the secret never appears in output")
            #expect(!FileManager.default.fileExists(atPath: workspace.output.path))
            #expect(
                try await graph.graphRequests().allSatisfy { $0.hasPrefix("POST") }, "no Graph request without a token")
        }
    }
}
