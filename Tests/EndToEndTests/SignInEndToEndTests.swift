import Foundation
import GraphSandbox
import Testing

/// Every sign-in method through the real binary against the sandbox's identity platform, with the
/// failures a new user meets, and a check that no credential ever reaches output, logs or state.
@Suite("sign-in end to end", .serialized)
struct SignInEndToEndTests {
    /// How the certificate and key are laid out on disk, and which JWT algorithm is asked for.
    struct CertificateCase: CustomTestStringConvertible, Sendable {
        var name: String
        var keyInCertificateFile: Bool
        var pkcs1: Bool
        var algorithm: String?
        var testDescription: String { name }
    }

    @Test(
        "a certificate made with openssl req -x509 signs in",
        arguments: [
            CertificateCase(name: "PKCS#8 key file, PS256 default", keyInCertificateFile: false, pkcs1: false),
            CertificateCase(name: "key inside the certificate file", keyInCertificateFile: true, pkcs1: false),
            CertificateCase(
                name: "PKCS#1 key, RS256 + x5t", keyInCertificateFile: false, pkcs1: true, algorithm: "RS256"),
        ])
    func certificate(_ layout: CertificateCase) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var (certificate, key) = try SignInFixtures.makeCertificate(in: workspace.folder)
        if layout.pkcs1 {
            try SignInFixtures.openssl(
                ["rsa", "-in", key.path, "-traditional", "-out", key.path], in: workspace.folder)
            #expect(try String(contentsOf: key, encoding: .utf8).contains("BEGIN RSA PRIVATE KEY"))
        }
        var extra = [("auth", "<string>certificate</string>")]
        if layout.keyInCertificateFile {
            let combined =
                try String(contentsOf: certificate, encoding: .utf8) + String(contentsOf: key, encoding: .utf8)
            certificate = workspace.folder.appendingPathComponent("combined.pem")
            try combined.write(to: certificate, atomically: true, encoding: .utf8)
            extra.append(("certificateFile", "<string>combined.pem</string>"))
        } else {
            extra += [
                ("certificateFile", "<string>\(certificate.lastPathComponent)</string>"),
                ("privateKeyFile", "<string>\(key.lastPathComponent)</string>"),
            ]
        }
        if let algorithm = layout.algorithm { extra.append(("assertionAlgorithm", "<string>\(algorithm)</string>")) }
        var configuration = SandboxConfiguration(userCount: 12)
        configuration.certificates = [try String(contentsOf: certificate, encoding: .utf8)]
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId, extra: extra)
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", settings.path, "--verbose"], in: workspace.folder)
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            #expect(workspace.files(in: "people", withExtension: "html").count == 12)
            try expectNoLeaks(await sandbox.sensitiveValues(), outcomes: [outcome], workspace: workspace)
        }
    }

    @Test("a certificate the app does not know fails with AADSTS700027 and its hint")
    func unknownCertificate() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (certificate, key) = try SignInFixtures.makeCertificate(in: workspace.folder)
        let (registered, _) = try SignInFixtures.makeCertificate(in: workspace.folder, name: "other")
        var configuration = SandboxConfiguration(userCount: 3)
        configuration.certificates = [try String(contentsOf: registered, encoding: .utf8)]
        try await withSandbox(configuration) { _, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [
                    ("auth", "<string>certificate</string>"),
                    ("certificateFile", "<string>\(certificate.path)</string>"),
                    ("privateKeyFile", "<string>\(key.path)</string>"),
                ])
            let outcome = try await OrgDirProcess.run(["build", "--config", settings.path], in: workspace.folder)
            #expect(outcome.status == 77)
            #expect(outcome.stderr.contains("AADSTS700027"))
            #expect(outcome.stderr.contains("hint: the client assertion's signature did not verify"))
        }
    }

    @Test("an encrypted private key is refused with a message saying how to decrypt it")
    func encryptedKey() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (certificate, key) = try SignInFixtures.makeCertificate(in: workspace.folder)
        let encrypted = workspace.folder.appendingPathComponent("encrypted.pem")
        try SignInFixtures.openssl(
            ["pkcs8", "-topk8", "-in", key.path, "-out", encrypted.path, "-passout", "pass:secret"],
            in: workspace.folder)
        let configuration = SandboxConfiguration(userCount: 3)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [
                    ("auth", "<string>certificate</string>"),
                    ("certificateFile", "<string>\(certificate.path)</string>"),
                    ("privateKeyFile", "<string>encrypted.pem</string>"),
                ])
            let outcome = try await OrgDirProcess.run(["build", "--config", settings.path], in: workspace.folder)
            #expect(outcome.status == 77)
            #expect(outcome.stderr.contains("is encrypted"))
            #expect(outcome.stderr.contains("privateKeyFile"))
            #expect(await sandbox.recordedRequests().isEmpty, "nothing may be sent without a usable key")
        }
    }

    @Test("a wrong client secret exits 77 with AADSTS7000215 and its hint")
    func wrongSecret() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 3)
        try await withSandbox(configuration) { _, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": "not-the-secret"])
            #expect(outcome.status == 77)
            #expect(outcome.stderr.contains("AADSTS7000215"))
            #expect(outcome.stderr.contains("hint: the client secret is wrong"))
            #expect(!outcome.stderr.contains("not-the-secret"))
        }
    }

    @Test("a federated token signs in; an expired one exits 77 with AADSTS700024 and its hint")
    func federatedToken() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (certificate, key) = try SignInFixtures.makeCertificate(in: workspace.folder, name: "issuer")
        var configuration = SandboxConfiguration(userCount: 5)
        let issuer = "https://token.actions.example.com"
        configuration.federatedCredentials = [
            FederatedCredential(
                issuer: issuer, subject: "repo:contoso/phonebook:ref:refs/heads/main",
                publicKeyPEM: try String(contentsOf: certificate, encoding: .utf8))
        ]
        let now = Int(Date().timeIntervalSince1970)
        func token(expiresIn: Int) throws -> String {
            try SignInFixtures.signJWT(
                claims: [
                    "iss": issuer, "sub": "repo:contoso/phonebook:ref:refs/heads/main",
                    "aud": "api://AzureADTokenExchange", "iat": now - 700, "nbf": now - 700, "exp": now + expiresIn,
                ], key: key, in: workspace.folder)
        }
        let tokenFile = workspace.folder.appendingPathComponent("federated-token")
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [("auth", "<string>federatedToken</string>")])
            try token(expiresIn: -60).write(to: tokenFile, atomically: true, encoding: .utf8)
            let expired = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["AZURE_FEDERATED_TOKEN_FILE": tokenFile.path])
            #expect(expired.status == 77)
            #expect(expired.stderr.contains("AADSTS700024"))
            #expect(expired.stderr.contains("hint: the client assertion is expired or not yet valid"))

            // The issuer replaced the file: the next run reads the new token.
            try token(expiresIn: 600).write(to: tokenFile, atomically: true, encoding: .utf8)
            let fresh = try await OrgDirProcess.run(
                ["build", "--config", settings.path, "--verbose"], in: workspace.folder,
                environment: ["AZURE_FEDERATED_TOKEN_FILE": tokenFile.path])
            #expect(fresh.status == 0, "stderr: \(fresh.stderr)")
            try expectNoLeaks(await sandbox.sensitiveValues(), outcomes: [expired, fresh], workspace: workspace)
        }
    }

    @Test("device code: two pending answers and a slow_down, then builds rotate the refresh token")
    func deviceCodeLoginAndRotation() async throws {
        let (workspace, configuration, cacheHome) = try delegatedCase(
            users: 8, script: DelegatedSignInScript(interval: 1, pendingAnswers: 2, slowDownAnswers: 1))
        defer { workspace.remove() }
        let environment = ["XDG_CACHE_HOME": cacheHome.path]
        try await withSandbox(configuration) { sandbox, url in
            let settings = try delegatedSettings(workspace, sandbox: url, configuration, auth: "deviceCode")
            let login = try await OrgDirProcess.run(
                ["login", "--config", settings.path, "--verbose"], in: workspace.folder, environment: environment)
            #expect(login.status == 0, "stderr: \(login.stderr)")
            #expect(login.stderr.contains("To sign in, use a web browser to open the page"))
            let polls = await sandbox.recordedRequests().filter { $0.target.hasSuffix("/oauth2/v2.0/token") }
            #expect(polls.count == 4, "pending, pending, slow_down, success")
            if polls.count == 4 {
                let gap = polls[3].receivedAt - polls[2].receivedAt
                #expect(gap >= .seconds(5), "slow_down must add 5 s to the interval, waited \(gap)")
            }
            let cacheFile = try SignInFixtures.cacheFile(in: cacheHome)
            #expect(try SignInFixtures.mode(of: cacheFile) == 0o600)
            let first = try SignInFixtures.refreshToken(in: cacheFile)

            var outcomes = [login]
            for _ in 0..<2 {
                let build = try await OrgDirProcess.run(
                    ["build", "--config", settings.path, "--verbose"], in: workspace.folder, environment: environment)
                #expect(build.status == 0, "stderr: \(build.stderr)")
                outcomes.append(build)
            }
            let latest = try SignInFixtures.refreshToken(in: cacheFile)
            #expect(latest != first, "each refresh grant rotates the cached refresh token")
            #expect(try SignInFixtures.mode(of: cacheFile) == 0o600)
            #expect(await sandbox.replayedRefreshTokens == 0, "an old refresh token was sent again")
            try expectNoLeaks(await sandbox.sensitiveValues(), outcomes: outcomes, workspace: workspace)

            // Putting the first (already redeemed) token back: the sandbox refuses it, orgdir says what to do.
            let text = try String(contentsOf: cacheFile, encoding: .utf8).replacingOccurrences(of: latest, with: first)
            try Data(text.utf8).write(to: cacheFile)
            let replay = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: environment)
            #expect(replay.status == 77)
            #expect(replay.stderr.contains("run `orgdir login"))

            let logout = try await OrgDirProcess.run(
                ["logout", "--config", settings.path], in: workspace.folder, environment: environment)
            #expect(logout.status == 0)
            #expect(!FileManager.default.fileExists(atPath: cacheFile.path))
        }
    }

    @Test("a declined device code exits 77 with the matching hint")
    func declinedDeviceCode() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var configuration = SandboxConfiguration(userCount: 3)
        configuration.signInScript = DelegatedSignInScript(
            interval: 1, pendingAnswers: 1, slowDownAnswers: 0, declines: true)
        let cacheHome = workspace.folder.appendingPathComponent("cache")
        try await withSandbox(configuration) { _, url in
            let settings = try delegatedSettings(workspace, sandbox: url, configuration, auth: "deviceCode")
            let login = try await OrgDirProcess.run(
                ["login", "--config", settings.path], in: workspace.folder,
                environment: ["XDG_CACHE_HOME": cacheHome.path])
            #expect(login.status == 77)
            #expect(login.stderr.contains("authorization_declined"))
            #expect(login.stderr.contains("hint: the sign-in was declined"))
            #expect(!FileManager.default.fileExists(atPath: cacheHome.appendingPathComponent("orgdir").path))
        }
    }

    @Test("a delegated build without a saved sign-in and without a terminal fails at once naming orgdir login")
    func buildNeedsLogin() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 3)
        let cacheHome = workspace.folder.appendingPathComponent("cache")
        try await withSandbox(configuration) { sandbox, url in
            let settings = try delegatedSettings(workspace, sandbox: url, configuration, auth: "browser")
            let outcome = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["XDG_CACHE_HOME": cacheHome.path])
            #expect(outcome.status == 77)
            #expect(outcome.stderr.contains("run `orgdir login --config"))
            #expect(await sandbox.recordedRequests().isEmpty)
        }
    }

    @Test("a token cache readable by others is refused, as ssh refuses such a key")
    func cacheTooOpen() async throws {
        let (workspace, configuration, cacheHome) = try delegatedCase(
            users: 3, script: DelegatedSignInScript(interval: 1, pendingAnswers: 0, slowDownAnswers: 0))
        defer { workspace.remove() }
        let environment = ["XDG_CACHE_HOME": cacheHome.path]
        try await withSandbox(configuration) { _, url in
            let settings = try delegatedSettings(workspace, sandbox: url, configuration, auth: "deviceCode")
            let login = try await OrgDirProcess.run(
                ["login", "--config", settings.path], in: workspace.folder, environment: environment)
            #expect(login.status == 0, "stderr: \(login.stderr)")
            let cacheFile = try SignInFixtures.cacheFile(in: cacheHome)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: cacheFile.path)
            let build = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder, environment: environment)
            #expect(build.status == 77)
            #expect(build.stderr.contains("permissions 0644 for '\(cacheFile.path)' are too open"))
        }
    }

    @Test("browser login: PKCE and state through the loopback redirect, then a delegated build")
    func browserLogin() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 4)
        let cacheHome = workspace.folder.appendingPathComponent("cache")
        // The "browser" fetches the authorize URL and follows the sandbox's redirect to the loopback port.
        let environment = [
            "XDG_CACHE_HOME": cacheHome.path, "BROWSER": "curl -s -L -o /dev/null --max-time 20",
        ]
        try await withSandbox(configuration) { sandbox, url in
            let settings = try delegatedSettings(workspace, sandbox: url, configuration, auth: "browser")
            let login = try await OrgDirProcess.run(
                ["login", "--config", settings.path, "--browser"], in: workspace.folder, environment: environment)
            #expect(login.status == 0, "stderr: \(login.stderr)")
            #expect(login.stderr.contains("code_challenge_method=S256"))
            #expect(login.stderr.contains("state="))
            let build = try await OrgDirProcess.run(
                ["build", "--config", settings.path, "--verbose"], in: workspace.folder, environment: environment)
            #expect(build.status == 0, "stderr: \(build.stderr)")
            #expect(try SignInFixtures.mode(of: try SignInFixtures.cacheFile(in: cacheHome)) == 0o600)
            try expectNoLeaks(await sandbox.sensitiveValues(), outcomes: [login, build], workspace: workspace)
        }
    }

    @Test(
        "browser login stops on a forged state and on a declined consent, saving nothing",
        arguments: [("forged state", "state did not match"), ("declined", "access_denied")])
    func browserRefusals(name: String, fragment: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var configuration = SandboxConfiguration(userCount: 2)
        configuration.signInScript.declines = name == "declined"
        let cacheHome = workspace.folder.appendingPathComponent("cache")
        // A "browser" that reads the sandbox's redirect and delivers it with another state value.
        let forger = workspace.folder.appendingPathComponent("forge.sh")
        try """
        #!/bin/sh
        target=$(curl -s -o /dev/null -w '%{redirect_url}' "$1")
        curl -s -o /dev/null --max-time 20 "$(printf '%s' "$target" | sed 's/state=[^&]*/state=forged/')"
        """.write(to: forger, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: forger.path)
        let browser = name == "declined" ? "curl -s -L -o /dev/null --max-time 20" : forger.path
        try await withSandbox(configuration) { _, url in
            let settings = try delegatedSettings(workspace, sandbox: url, configuration, auth: "browser")
            let login = try await OrgDirProcess.run(
                ["login", "--config", settings.path], in: workspace.folder,
                environment: ["XDG_CACHE_HOME": cacheHome.path, "BROWSER": browser])
            #expect(login.status == 77)
            #expect(login.stderr.contains(fragment), "stderr: \(login.stderr)")
            #expect(!FileManager.default.fileExists(atPath: cacheHome.appendingPathComponent("orgdir").path))
        }
    }

    @Test(
        "on a terminal, a delegated build without a saved sign-in signs in with a device code first",
        .enabled(if: SignInFixtures.hasTerminalRunner))
    func buildSignsInOnTerminal() async throws {
        let (workspace, configuration, cacheHome) = try delegatedCase(
            users: 4, script: DelegatedSignInScript(interval: 1, pendingAnswers: 1, slowDownAnswers: 0))
        defer { workspace.remove() }
        try await withSandbox(configuration) { _, url in
            let settings = try delegatedSettings(workspace, sandbox: url, configuration, auth: "deviceCode")
            let (status, output) = try await SignInFixtures.runOnTerminal(
                ["build", "--config", settings.path], in: workspace.folder,
                environment: ["XDG_CACHE_HOME": cacheHome.path])
            #expect(status == 0, "terminal: \(output)")
            #expect(output.contains("enter the code"))
            #expect(try SignInFixtures.mode(of: try SignInFixtures.cacheFile(in: cacheHome)) == 0o600)
            #expect(workspace.files(in: "people", withExtension: "html").count == 4)
        }
    }

    /// A workspace, a sandbox configuration whose person follows `script`, and the folder the tests use as
    /// XDG_CACHE_HOME.
    private func delegatedCase(users: Int, script: DelegatedSignInScript) throws -> (
        Workspace, SandboxConfiguration, URL
    ) {
        let workspace = try Workspace()
        var configuration = SandboxConfiguration(userCount: users)
        configuration.signInScript = script
        return (workspace, configuration, workspace.folder.appendingPathComponent("cache"))
    }

    /// A settings file signing in to the sandbox as a person with `auth` (`deviceCode` or `browser`).
    private func delegatedSettings(
        _ workspace: Workspace, sandbox url: URL, _ configuration: SandboxConfiguration, auth: String
    ) throws -> URL {
        try workspace.writeSettings(
            sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
            extra: [("auth", "<string>\(auth)</string>")])
    }

    /// No secret, assertion, code or token may appear in stdout, stderr, the output or the state folder.
    private func expectNoLeaks(_ values: [String], outcomes: [OrgDirProcess.Outcome], workspace: Workspace) throws {
        #expect(values.count >= 2, "the sandbox recorded what it issued")
        var haystacks = outcomes.flatMap { [$0.stdout, $0.stderr] }
        for folder in [workspace.output, workspace.state] {
            guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { continue }
            while let path = enumerator.nextObject() as? String {
                let url = folder.appendingPathComponent(path)
                if let data = try? Data(contentsOf: url) { haystacks.append(String(decoding: data, as: UTF8.self)) }
            }
        }
        for value in values where value.count >= 8 {
            let leaked = haystacks.contains { $0.contains(value) }
            #expect(!leaked, "a credential (\(value.prefix(6))…) leaked into output, logs or state")
        }
    }
}

@Suite("certificate assertion reuse", .serialized)
struct AssertionReuseEndToEndTests {
    @Test("an assertion is reused for the next token; a server refusing the replayed jti gets a fresh one")
    func reuseThenFresh() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (certificate, key) = try SignInFixtures.makeCertificate(in: workspace.folder)
        // Every token dies after one Graph request, so the run needs several tokens within 9 minutes.
        var configuration = SandboxConfiguration(
            userCount: 30, faults: FaultPlan(tokenExpiresAfterRequests: 1))
        configuration.certificates = [try String(contentsOf: certificate, encoding: .utf8)]
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [
                    ("auth", "<string>certificate</string>"),
                    ("certificateFile", "<string>\(certificate.path)</string>"),
                    ("privateKeyFile", "<string>\(key.path)</string>"), ("pageSize", "<integer>10</integer>"),
                ])
            let outcome = try await OrgDirProcess.run(["build", "--config", settings.path], in: workspace.folder)
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let tokenRequests = await sandbox.recordedRequests().filter { $0.endpoint == .token }
            let refused = tokenRequests.filter { $0.status == 401 }
            #expect(tokenRequests.count >= 3)
            #expect(!refused.isEmpty, "the second token request reuses the first assertion")
            #expect(refused.count * 2 == tokenRequests.count - 1, "each reuse refused once, then a fresh one works")
        }
    }
}
