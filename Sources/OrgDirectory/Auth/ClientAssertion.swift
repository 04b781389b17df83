import Foundation

/// A signed JWT client assertion (RFC 7523) as Entra ID expects it from a certificate credential.
///
/// Header `alg` PS256 with `x5t#S256` (or RS256 with the SHA-1 `x5t`), claims `aud` = the token endpoint,
/// `iss` = `sub` = client id, a fresh `jti`, `nbf` = `iat` = now, `exp` 10 minutes ahead, as MSAL does.
struct ClientAssertion: Sendable {
    /// How long an assertion is valid.
    static let lifetime: TimeInterval = 600
    /// How long one is reused before a new one is signed (MSAL's 540 s), so it never goes out about to expire.
    static let reuseWindow: TimeInterval = 540

    let jwt: String
    let issuedAt: Date

    /// Signs a new assertion for `clientId` towards `audience`.
    static func make(
        certificate: ClientCertificate, algorithm: AssertionAlgorithm, clientId: String, audience: URL,
        now: Date = Date()
    ) throws(AuthError) -> ClientAssertion {
        let thumbprint: (String, String) =
            algorithm == .ps256 ? ("x5t#S256", certificate.sha256Thumbprint) : ("x5t", certificate.sha1Thumbprint)
        let header: [String: String] = ["alg": algorithm.rawValue, "typ": "JWT", thumbprint.0: thumbprint.1]
        let issued = Int(now.timeIntervalSince1970)
        let claims: [String: Any] = [
            "aud": audience.absoluteString, "iss": clientId, "sub": clientId, "jti": UUID().uuidString.lowercased(),
            "nbf": issued, "iat": issued, "exp": issued + Int(lifetime),
        ]
        let signingInput = try encode(header) + "." + encode(claims)
        let signature = try certificate.sign(Data(signingInput.utf8), algorithm: algorithm)
        return ClientAssertion(jwt: signingInput + "." + Base64URL.encode(signature), issuedAt: now)
    }

    /// Whether this assertion may still be sent at `now`.
    func isReusable(at now: Date) -> Bool {
        let age = now.timeIntervalSince(issuedAt)
        return age >= 0 && age < Self.reuseWindow
    }

    private static func encode(_ object: Any) throws(AuthError) -> String {
        do {
            let data = try JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            return Base64URL.encode(data)
        } catch {
            throw .credentialUnavailable(reason: "cannot encode the client assertion: \(error)")
        }
    }
}
