import Foundation
import Testing

@testable import GraphSandbox

@Suite("Token endpoint")
struct TokenEndpointTests {
    @Test("client credentials with a secret get a Bearer token with expires_in and ext_expires_in")
    func success() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let result = try await SandboxHarness.tokenRequest(base, fields: SandboxHarness.credentials(base))
        #expect(result.status == 200)
        #expect(result.json["token_type"] as? String == "Bearer")
        #expect(result.json["expires_in"] as? Int == 3599)
        #expect(result.json["ext_expires_in"] as? Int == 3599)
        let token = try #require(result.json["access_token"] as? String)
        #expect(token.count >= 40)
        #expect(result.headers["cache-control"]?.contains("no-store") == true)
        let users = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        #expect(users.status == 200)
    }

    @Test("HTTP Basic client authentication (RFC 6749 2.3.1) works too")
    func basicAuthentication() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let pair = "\(SandboxHarness.clientId):\(SandboxHarness.secret)"
        let result = try await SandboxHarness.tokenRequest(
            base, fields: [("scope", "\(base.absoluteString)/.default"), ("grant_type", "client_credentials")],
            headers: ["Authorization": "Basic \(Data(pair.utf8).base64EncodedString())"])
        #expect(result.status == 200)
        #expect(result.json["access_token"] is String)
    }

    @Test("the tenant answers to its name, onmicrosoft domain, user domain and GUID")
    func tenantAliases() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let guid = sandbox.configuration.tenantGUID
        for tenant in ["contoso", "CONTOSO", "contoso.onmicrosoft.com", "contoso.com", guid] {
            let result = try await SandboxHarness.tokenRequest(
                base, tenant: tenant, fields: SandboxHarness.credentials(base))
            #expect(result.status == 200, "tenant \(tenant)")
        }
    }

    /// One bad request and what the identity platform answers.
    struct Failure: Sendable, CustomStringConvertible {
        var name: String
        var tenant = "contoso"
        var edit: @Sendable (URL, inout [(String, String)]) -> Void
        var status: Int
        var error: String
        var code: Int

        var description: String { name }
    }

    static let failures: [Failure] = [
        Failure(
            name: "wrong secret", edit: { _, fields in set(&fields, "client_secret", "nope") }, status: 401,
            error: "invalid_client", code: 7_000_215),
        Failure(
            name: "unknown client",
            edit: { _, fields in set(&fields, "client_id", "99999999-0000-0000-0000-000000000000") },
            status: 400, error: "unauthorized_client", code: 700_016),
        Failure(
            name: "unknown tenant domain", tenant: "fabrikam.onmicrosoft.com", edit: { _, _ in }, status: 400,
            error: "invalid_request", code: 90002),
        Failure(
            name: "unknown tenant GUID", tenant: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", edit: { _, _ in }, status: 400,
            error: "invalid_request", code: 90002),
        Failure(
            name: "the common endpoint, which client credentials cannot use", tenant: "common", edit: { _, _ in },
            status: 400, error: "invalid_request", code: 50059),
        Failure(
            name: "tenant that is no DNS name", tenant: "fabrikam", edit: { _, _ in }, status: 400,
            error: "invalid_request", code: 900_023),
        Failure(
            name: "missing secret", edit: { _, fields in fields.removeAll { $0.0 == "client_secret" } }, status: 401,
            error: "invalid_client", code: 7_000_218),
        Failure(
            name: "unsupported grant type", edit: { _, fields in set(&fields, "grant_type", "magic") }, status: 400,
            error: "unsupported_grant_type", code: 70003),
        Failure(
            name: "missing grant type", edit: { _, fields in fields.removeAll { $0.0 == "grant_type" } }, status: 400,
            error: "invalid_request", code: 900_144),
        Failure(
            name: "scope of another resource",
            edit: { _, fields in set(&fields, "scope", "https://graph.microsoft.com/.default") }, status: 400,
            error: "invalid_scope", code: 70011),
        Failure(
            name: "two scopes",
            edit: { base, fields in set(&fields, "scope", "\(base.absoluteString)/.default openid") },
            status: 400, error: "invalid_scope", code: 70011),
        Failure(
            name: "delegated-style scope",
            edit: { base, fields in set(&fields, "scope", "\(base.absoluteString)/User.Read.All") }, status: 400,
            error: "invalid_scope", code: 1_002_012),
        Failure(
            name: "missing scope", edit: { _, fields in fields.removeAll { $0.0 == "scope" } }, status: 400,
            error: "invalid_request", code: 900_144),
        Failure(
            name: "missing client id", edit: { _, fields in fields.removeAll { $0.0 == "client_id" } }, status: 400,
            error: "invalid_request", code: 900_144),
    ]

    private static func set(_ fields: inout [(String, String)], _ name: String, _ value: String) {
        fields.removeAll { $0.0 == name }
        fields.append((name, value))
    }

    @Test("each bad request gets the identity platform's error, status and AADSTS code", arguments: failures)
    func failure(_ failure: Failure) async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        var fields = SandboxHarness.credentials(base)
        failure.edit(base, &fields)
        let result = try await SandboxHarness.tokenRequest(
            base, tenant: failure.tenant, fields: fields,
            headers: ["client-request-id": "c0ffee00-0000-4000-8000-000000000001"])
        #expect(result.status == failure.status)
        #expect(result.json["error"] as? String == failure.error)
        #expect(result.json["error_codes"] as? [Int] == [failure.code])
        let description = try #require(result.json["error_description"] as? String)
        #expect(description.hasPrefix("AADSTS\(failure.code): "))
        #expect(description.contains("\r\nTrace ID: "))
        #expect(description.contains("\r\nCorrelation ID: c0ffee00-0000-4000-8000-000000000001"))
        #expect(description.contains("\r\nTimestamp: "))
        #expect(result.json["correlation_id"] as? String == "c0ffee00-0000-4000-8000-000000000001")
        #expect((result.json["trace_id"] as? String).map { TenantIdentity.isGUID($0) } == true)
        let timestamp = try #require(result.json["timestamp"] as? String)
        #expect(timestamp.count == 20 && timestamp.hasSuffix("Z") && timestamp.contains(" "))
        #expect(result.json["error_uri"] as? String == "https://login.microsoftonline.com/error?code=\(failure.code)")
        #expect(result.json["access_token"] == nil)
    }

    @Test("a GET on the token endpoint is refused")
    func getRefused() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let result = try await SandboxHarness.send(base.appendingPathComponent("contoso/oauth2/v2.0/token"))
        #expect(result.status == 400)
        #expect(result.json["error"] as? String == "invalid_request")
    }

    @Test("a JSON body is not a form: grant_type is missing")
    func jsonBody() async throws {
        let (sandbox, base) = try await SandboxHarness.start()
        defer { Task { await sandbox.stop() } }
        let result = try await SandboxHarness.send(
            base.appendingPathComponent("contoso/oauth2/v2.0/token"), method: "POST",
            headers: ["Content-Type": "application/json"], body: Data(#"{"grant_type":"client_credentials"}"#.utf8))
        #expect(result.status == 400)
        #expect(result.json["error_codes"] as? [Int] == [900_144])
    }
}
