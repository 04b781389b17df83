import Foundation
import Testing

@testable import GraphSandbox

/// The sandbox's identity platform beyond client secrets: certificate assertions, device code, authorize
/// with PKCE, refresh-token rotation, each with real validation.
@Suite("Identity platform")
struct IdentityPlatformTests {
    static let fixtures: IdentityFixtures? = try? IdentityFixtures.make()

    func start(_ edit: (inout SandboxConfiguration) -> Void = { _ in }) async throws -> (GraphSandbox, URL) {
        var configuration = SandboxConfiguration(userCount: 5)
        if let fixtures = Self.fixtures { configuration.certificates = [fixtures.certificatePEM] }
        edit(&configuration)
        return try await SandboxHarness.start(configuration)
    }

    /// One way to spoil a certificate assertion and the answer it must get.
    struct AssertionCase: Sendable, CustomTestStringConvertible {
        var name: String
        var edit: @Sendable (inout [String: Any], inout [String: Any]) -> Void
        var foreignSigner = false
        var status: Int
        var code: Int?
        var testDescription: String { name }
    }

    static let assertionCases: [AssertionCase] = [
        AssertionCase(name: "valid PS256 with x5t#S256", edit: { _, _ in }, status: 200),
        AssertionCase(
            name: "valid RS256 with x5t",
            edit: { header, _ in
                header["alg"] = "RS256"
                header["x5t"] = fixtures?.sha1Thumbprint
                header["x5t#S256"] = nil
            }, status: 200),
        AssertionCase(
            name: "aud is not the token endpoint", edit: { _, claims in claims["aud"] = "https://example.com/token" },
            status: 401, code: 50027),
        AssertionCase(
            name: "expired", edit: { _, claims in claims["exp"] = Int(Date().timeIntervalSince1970) - 10 },
            status: 401, code: 700_024),
        AssertionCase(
            name: "not yet valid", edit: { _, claims in claims["nbf"] = Int(Date().timeIntervalSince1970) + 3600 },
            status: 401, code: 700_024),
        AssertionCase(
            name: "sub is not the client", edit: { _, claims in claims["sub"] = "someone-else" }, status: 401,
            code: 50027),
        AssertionCase(name: "no jti", edit: { _, claims in claims["jti"] = nil }, status: 401, code: 50027),
        AssertionCase(
            name: "unregistered thumbprint", edit: { header, _ in header["x5t#S256"] = "AAAA" }, status: 401,
            code: 700_027),
        AssertionCase(
            name: "signed by another key", edit: { _, _ in }, foreignSigner: true, status: 401, code: 700_027),
        AssertionCase(name: "alg none", edit: { header, _ in header["alg"] = "none" }, status: 401, code: 50027),
    ]

    @Test("certificate assertions are checked for signature, aud, sub, jti and time", arguments: assertionCases)
    func certificateAssertion(_ testCase: AssertionCase) async throws {
        let fixtures = try #require(Self.fixtures)
        let (sandbox, base) = try await start()
        defer { Task { await sandbox.stop() } }
        var header: [String: Any] = ["alg": "PS256", "typ": "JWT", "x5t#S256": fixtures.sha256Thumbprint]
        var claims = IdentityFixtures.claims(base)
        testCase.edit(&header, &claims)
        let signer = testCase.foreignSigner ? try IdentityFixtures.make().key : nil
        let assertion = try fixtures.jwt(header: header, claims: claims, signer: signer)
        let result = try await SandboxHarness.tokenRequest(
            base, fields: IdentityFixtures.assertionFields(base, assertion))
        #expect(result.status == testCase.status, "\(result.text)")
        if let code = testCase.code {
            #expect(result.json["error"] as? String == "invalid_client")
            #expect(result.json["error_codes"] as? [Int] == [code])
        } else {
            #expect(result.json["access_token"] is String)
        }
    }

    @Test("a jti is accepted once: a replayed assertion is refused")
    func replay() async throws {
        let fixtures = try #require(Self.fixtures)
        let (sandbox, base) = try await start()
        defer { Task { await sandbox.stop() } }
        let assertion = try fixtures.jwt(
            header: ["alg": "PS256", "typ": "JWT", "x5t#S256": fixtures.sha256Thumbprint],
            claims: IdentityFixtures.claims(base))
        let first = try await SandboxHarness.tokenRequest(
            base, fields: IdentityFixtures.assertionFields(base, assertion))
        let second = try await SandboxHarness.tokenRequest(
            base, fields: IdentityFixtures.assertionFields(base, assertion))
        #expect(first.status == 200)
        #expect(second.status == 401)
        #expect(second.text.contains("already used"))
    }

    /// Starts a device code sign-in; returns the device code.
    func startDeviceCode(_ base: URL, scope: String = "openid offline_access User.Read.All") async throws -> String {
        let result = try await SandboxHarness.send(
            base.appendingPathComponent("contoso/oauth2/v2.0/devicecode"), method: "POST",
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data("client_id=\(SandboxHarness.clientId)&scope=\(SandboxHarness.encode(scope))".utf8))
        #expect(result.status == 200, "\(result.text)")
        #expect((result.json["message"] as? String)?.contains("enter the code") == true)
        #expect(result.json["verification_uri"] is String)
        return try #require(result.json["device_code"] as? String)
    }

    func poll(_ base: URL, _ deviceCode: String) async throws -> HTTPResult {
        try await SandboxHarness.tokenRequest(
            base,
            fields: [
                ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                ("client_id", SandboxHarness.clientId), ("device_code", deviceCode),
            ])
    }

    @Test("device code: pending answers, slow_down, then slow_down again for polling inside the longer interval")
    func deviceCodeScript() throws {
        var configuration = SandboxConfiguration(userCount: 1)
        configuration.signInScript = DelegatedSignInScript(interval: 1, pendingAnswers: 2, slowDownAnswers: 1)
        let base = try #require(URL(string: "http://127.0.0.1:1"))
        let token = TokenEndpoint(
            configuration: configuration, identity: TenantIdentity(configuration: configuration), baseURL: base)
        var state = IdentityState()
        var tokens = TokenRegistry()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let body = "client_id=\(SandboxHarness.clientId)&scope=openid%20offline_access%20User.Read.All"
        let started = DeviceCodeEndpoint(configuration: configuration, tokenEndpoint: token, baseURL: base).handle(
            tenant: "contoso",
            request: IncomingRequest(
                method: "POST", target: "/contoso/oauth2/v2.0/devicecode",
                headers: ["content-type": "application/x-www-form-urlencoded"], body: Data(body.utf8)),
            state: &state, now: start)
        #expect(started.status == 200)
        let code = try #require(state.deviceSessions.keys.first)
        let endpoint = DelegatedGrantEndpoint(
            configuration: configuration, tokenEndpoint: token,
            issuer: DelegatedTokenIssuer(configuration: configuration, baseURL: base))
        let form = [
            "grant_type": DelegatedGrantEndpoint.deviceCodeGrant, "client_id": SandboxHarness.clientId,
            "device_code": code,
        ]
        // Polls 1 s apart; the 4th comes 1 s after slow_down (too soon: another +5 s), the 5th 11 s later.
        var answers: [String] = []
        for offset in [1.0, 2.0, 3.0, 4.0, 15.0] {
            let outcome = endpoint.handle(
                tenant: "contoso", form: form, state: &state, tokens: &tokens, now: start.addingTimeInterval(offset))
            switch outcome {
            case .success(let response): answers.append("\(response.status)")
            case .failure(let error): answers.append(error.error)
            }
        }
        #expect(answers == ["authorization_pending", "authorization_pending", "slow_down", "slow_down", "200"])
    }

    @Test(
        "device code outcomes",
        arguments: [
            ("declined", "authorization_declined", 400), ("expired", "expired_token", 400),
            ("unknown code", "bad_verification_code", 400), ("public client flows off", "invalid_client", 401),
        ])
    func deviceCodeOutcome(name: String, error: String, status: Int) async throws {
        let (sandbox, base) = try await start {
            $0.signInScript = DelegatedSignInScript(
                interval: 1, pendingAnswers: 0, slowDownAnswers: 0, codeLifetime: name == "expired" ? 0 : 900,
                declines: name == "declined")
            $0.publicClientFlows = name != "public client flows off"
        }
        defer { Task { await sandbox.stop() } }
        let code = try await startDeviceCode(base)
        if name == "expired" { try await Task.sleep(for: .milliseconds(20)) }
        let result = try await poll(base, name == "unknown code" ? "nope" : code)
        #expect(result.status == status)
        #expect(result.json["error"] as? String == error)
    }

    func refresh(_ base: URL, _ token: String) async throws -> HTTPResult {
        try await SandboxHarness.tokenRequest(
            base,
            fields: [
                ("grant_type", "refresh_token"), ("client_id", SandboxHarness.clientId), ("refresh_token", token),
                ("scope", "openid offline_access User.Read.All"),
            ])
    }

    @Test("refresh tokens rotate: each is good once, a redeemed one is invalid_grant")
    func rotation() async throws {
        let (sandbox, base) = try await start {
            $0.signInScript = DelegatedSignInScript(interval: 1, pendingAnswers: 0, slowDownAnswers: 0)
        }
        defer { Task { await sandbox.stop() } }
        let signedIn = try await poll(base, try await startDeviceCode(base))
        #expect(signedIn.status == 200)
        #expect(signedIn.json["id_token"] is String)
        let first = try #require(signedIn.json["refresh_token"] as? String)
        let second = try await refresh(base, first)
        #expect(second.status == 200)
        let next = try #require(second.json["refresh_token"] as? String)
        #expect(next != first)
        let replay = try await refresh(base, first)
        #expect(replay.status == 400)
        #expect(replay.json["error"] as? String == "invalid_grant")
        #expect(await sandbox.replayedRefreshTokens == 1)
        #expect(try await refresh(base, next).status == 200)
        let users = try await SandboxHarness.graph(
            base, "/v1.0/users", token: try #require(second.json["access_token"] as? String))
        #expect(users.status == 200)
    }

    @Test("without offline_access there is no refresh token, without openid no id_token")
    func scopesDecideTokens() async throws {
        let (sandbox, base) = try await start {
            $0.signInScript = DelegatedSignInScript(interval: 1, pendingAnswers: 0, slowDownAnswers: 0)
        }
        defer { Task { await sandbox.stop() } }
        let result = try await poll(base, try await startDeviceCode(base, scope: "User.Read.All"))
        #expect(result.status == 200)
        #expect(result.json["refresh_token"] == nil)
        #expect(result.json["id_token"] == nil)
    }

    /// `/authorize` answered in-process (a redirect is the answer; following it is the browser's job).
    func authorize(_ sandbox: GraphSandbox, _ query: [(String, String)]) async -> SandboxResponse {
        let text = query.map { "\($0.0)=\(SandboxHarness.encode($0.1))" }.joined(separator: "&")
        return await sandbox.handle(
            IncomingRequest(method: "GET", target: "/contoso/oauth2/v2.0/authorize?\(text)", headers: [:], body: Data())
        )
    }

    static let verifier = "a-verifier-of-sufficient-length-0123456789-abcdefghijklmnop"
    static let challenge = "3Mn7XVP0pYaxeGpEF1NrLpsfOp0BD1UHGhRSykv8Kic"

    func authorizeQuery(redirect: String = "http://localhost:5555", challenge: String? = challenge) -> [(
        String, String
    )] {
        var query = [
            ("client_id", SandboxHarness.clientId), ("response_type", "code"), ("redirect_uri", redirect),
            ("scope", "openid offline_access User.Read.All"), ("state", "s-123"),
        ]
        if let challenge { query += [("code_challenge", challenge), ("code_challenge_method", "S256")] }
        return query
    }

    func redeem(_ base: URL, code: String, verifier: String, redirect: String = "http://localhost:5555")
        async throws -> HTTPResult
    {
        try await SandboxHarness.tokenRequest(
            base,
            fields: [
                ("grant_type", "authorization_code"), ("client_id", SandboxHarness.clientId), ("code", code),
                ("redirect_uri", redirect), ("code_verifier", verifier),
            ])
    }

    @Test("authorize redirects with code and state; the code needs the PKCE verifier and works once")
    func authorizationCode() async throws {
        let (sandbox, base) = try await start()
        defer { Task { await sandbox.stop() } }
        let response = await authorize(sandbox, authorizeQuery())
        #expect(response.status == 302)
        let location = try #require(response.header("Location").flatMap(URLComponents.init(string:)))
        #expect(location.host == "localhost" && location.port == 5555)
        #expect(location.queryItems?.first { $0.name == "state" }?.value == "s-123")
        let code = try #require(location.queryItems?.first { $0.name == "code" }?.value)

        let wrongVerifier = try await redeem(base, code: code, verifier: "not-the-verifier-0123456789-0123456789-abc")
        #expect(wrongVerifier.json["error_codes"] as? [Int] == [501_481])
        let wrongRedirect = try await redeem(
            base, code: code, verifier: Self.verifier, redirect: "http://localhost:6666")
        #expect(wrongRedirect.json["error"] as? String == "invalid_grant")
        let redeemed = try await redeem(base, code: code, verifier: Self.verifier)
        #expect(redeemed.status == 200, "\(redeemed.text)")
        #expect(redeemed.json["refresh_token"] is String)
        let again = try await redeem(base, code: code, verifier: Self.verifier)
        #expect(again.json["error_codes"] as? [Int] == [54005])
    }

    @Test(
        "authorize refuses what a native app must not do",
        arguments: [
            ("no PKCE", "invalid_request"), ("non-loopback redirect", "page"), ("declined", "access_denied"),
        ])
    func authorizeRefusals(name: String, expected: String) async throws {
        let (sandbox, _) = try await start { $0.signInScript.declines = name == "declined" }
        defer { Task { await sandbox.stop() } }
        let query =
            name == "no PKCE"
            ? authorizeQuery(challenge: nil)
            : authorizeQuery(redirect: name == "declined" ? "http://localhost:5555" : "https://evil.example/cb")
        let response = await authorize(sandbox, query)
        if expected == "page" {
            #expect(response.status == 400)
            #expect(response.header("Location") == nil)
        } else {
            #expect(response.status == 302)
            let location = try #require(response.header("Location").flatMap(URLComponents.init(string:)))
            #expect(location.queryItems?.first { $0.name == "error" }?.value == expected)
            #expect(location.queryItems?.first { $0.name == "state" }?.value == "s-123")
        }
    }
}
