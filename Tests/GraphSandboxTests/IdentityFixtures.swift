import Crypto
import Foundation
import TestSupport
import _CryptoExtras

@testable import GraphSandbox

/// An openssl-made certificate and its key, plus JWT assertions signed with swift-crypto, for the identity
/// platform's tests.
struct IdentityFixtures: Sendable {
    let certificatePEM: String
    let key: _RSA.Signing.PrivateKey
    let der: Data

    /// `openssl req -x509 -newkey rsa:2048 -nodes`, as admins make one.
    static func make() throws -> IdentityFixtures {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-cert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("key.pem")
        let certificateFile = folder.appendingPathComponent("cert.pem")
        let openssl = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile.path, "-out",
                certificateFile.path, "-days", "1", "-subj", "/CN=sandbox-test",
            ])
        guard openssl.status == 0 else { throw ChildProcess.Failure(description: "openssl: \(openssl.standardError)") }
        let pem = try String(contentsOf: certificateFile, encoding: .utf8)
        guard let der = ClientAssertionValidator.der(pem: pem, label: "CERTIFICATE") else {
            throw HarnessError("openssl made no certificate")
        }
        return IdentityFixtures(
            certificatePEM: pem,
            key: try _RSA.Signing.PrivateKey(pemRepresentation: try String(contentsOf: keyFile, encoding: .utf8)),
            der: der)
    }

    var sha256Thumbprint: String { Base64URL.encode(Data(SHA256.hash(data: der))) }
    var sha1Thumbprint: String { Base64URL.encode(Data(Insecure.SHA1.hash(data: der))) }

    /// A signed JWT from a header and claims; PS256 unless the header says RS256.
    func jwt(header: [String: Any], claims: [String: Any], signer: _RSA.Signing.PrivateKey? = nil) throws -> String {
        let input =
            Base64URL.encode(try JSONSerialization.data(withJSONObject: header)) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims))
        let padding: _RSA.Signing.Padding = header["alg"] as? String == "RS256" ? .insecurePKCS1v1_5 : .PSS
        let signature = try (signer ?? key).signature(for: SHA256.hash(data: Data(input.utf8)), padding: padding)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// The claims a correct certificate assertion carries for `base`'s `contoso` token endpoint.
    static func claims(_ base: URL, now: Date = Date()) -> [String: Any] {
        let issued = Int(now.timeIntervalSince1970)
        return [
            "aud": "\(base.absoluteString)/contoso/oauth2/v2.0/token", "iss": SandboxHarness.clientId,
            "sub": SandboxHarness.clientId, "jti": UUID().uuidString, "nbf": issued, "iat": issued,
            "exp": issued + 600,
        ]
    }

    /// Client-credentials fields with `assertion` in place of a secret.
    static func assertionFields(_ base: URL, _ assertion: String) -> [(String, String)] {
        [
            ("client_id", SandboxHarness.clientId), ("scope", "\(base.absoluteString)/.default"),
            ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            ("client_assertion", assertion), ("grant_type", "client_credentials"),
        ]
    }
}
