import Crypto
import Foundation
import X509
import _CryptoExtras

/// Checks a `client_assertion` JWT the way Entra ID does: a certificate assertion must be signed by a
/// certificate registered on the app (found by `x5t#S256` or `x5t`), name the token endpoint as `aud` and
/// the app as `iss`/`sub`, be inside its `nbf`/`exp` window, and carry a `jti` not seen before; a federated
/// token must come from a trusted issuer and subject, for the trust's audience, signed by its key.
struct ClientAssertionValidator: Sendable {
    let configuration: SandboxConfiguration
    /// The token endpoint URLs this request may name as `aud` (every tenant alias).
    let audiences: Set<String>
    /// Clock skew tolerated on `nbf`, as Entra tolerates about 5 minutes.
    static let skew: TimeInterval = 300

    /// A parsed JWT: header, claims, the signed text and the signature.
    private struct JWT {
        var header: [String: Any]
        var claims: [String: Any]
        var signingInput: Data
        var signature: Data

        init?(_ text: String) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let headerData = Base64URL.decode(parts[0]),
                let claimsData = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
                let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
                let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any]
            else { return nil }
            self.header = header
            self.claims = claims
            self.signingInput = Data((parts[0] + "." + parts[1]).utf8)
            self.signature = signature
        }

        func string(_ claim: String) -> String? { claims[claim] as? String }
        func time(_ claim: String) -> Date? {
            (claims[claim] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
        }
    }

    /// nil when the assertion authenticates `clientId`.
    func validate(_ assertion: String, clientId: String, state: inout IdentityState, now: Date) -> IdentityError? {
        guard let jwt = JWT(assertion) else {
            return Self.invalid(50027, "Invalid JWT token. The client assertion is not a JWS compact serialization.")
        }
        guard let alg = jwt.header["alg"] as? String, alg == "PS256" || alg == "RS256" else {
            return Self.invalid(
                50027, "Invalid JWT token. Unsupported signing algorithm \(jwt.header["alg"] ?? "none").")
        }
        let issuer = jwt.string("iss") ?? ""
        if issuer.caseInsensitiveCompare(clientId) == .orderedSame {
            return validateCertificateAssertion(jwt, alg: alg, clientId: clientId, state: &state, now: now)
        }
        return validateFederated(jwt, alg: alg, issuer: issuer, now: now)
    }

    /// A certificate assertion: registered key, signature, `sub`, `aud`, time window, then a `jti` never seen before.
    private func validateCertificateAssertion(
        _ jwt: JWT, alg: String, clientId: String, state: inout IdentityState, now: Date
    ) -> IdentityError? {
        let thumbprint = (jwt.header["x5t#S256"] as? String) ?? (jwt.header["x5t"] as? String) ?? ""
        guard let key = registeredKey(thumbprint: thumbprint) else {
            return Self.invalid(
                700027,
                "Client assertion contains an invalid signature. [Reason - The key was not found., "
                    + "Thumbprint of key used by client: '\(thumbprint)']")
        }
        guard Self.verify(jwt, alg: alg, key: key) else {
            return Self.invalid(
                700027,
                "Client assertion contains an invalid signature. [Reason - The provided signature value did "
                    + "not match the expected signature value.]")
        }
        guard jwt.string("sub")?.caseInsensitiveCompare(clientId) == .orderedSame else {
            return Self.invalid(50027, "Invalid JWT token. The assertion's sub must be the client id.")
        }
        guard let audience = jwt.string("aud"), audiences.contains(audience.lowercased()) else {
            return Self.invalid(
                50027,
                "Invalid JWT token. The assertion's aud '\(jwt.string("aud") ?? "")' is not this token "
                    + "endpoint.")
        }
        if let error = checkLifetime(jwt, now: now) { return error }
        guard let jti = jwt.string("jti"), !jti.isEmpty, let expiry = jwt.time("exp") else {
            return Self.invalid(50027, "Invalid JWT token. The assertion has no jti.")
        }
        guard state.useAssertionId(jti, expiresAt: expiry, now: now) else {
            return Self.invalid(50027, "Invalid JWT token. The assertion's jti '\(jti)' was already used (replay).")
        }
        return nil
    }

    /// A federated token: a trust matching issuer, subject and audience, its key's signature, the time window.
    private func validateFederated(_ jwt: JWT, alg: String, issuer: String, now: Date) -> IdentityError? {
        let subject = jwt.string("sub") ?? ""
        let audience = jwt.string("aud") ?? ""
        guard
            let trust = configuration.federatedCredentials.first(where: {
                $0.issuer == issuer && $0.subject == subject && $0.audience == audience
            })
        else {
            return Self.invalid(
                70021,
                "No matching federated identity record found for presented assertion. Assertion Issuer: "
                    + "'\(issuer)'. Assertion Subject: '\(subject)'. Assertion Audience: '\(audience)'.")
        }
        guard let key = Self.publicKey(pem: trust.publicKeyPEM), Self.verify(jwt, alg: alg, key: key) else {
            return Self.invalid(700027, "Client assertion contains an invalid signature.")
        }
        return checkLifetime(jwt, now: now)
    }

    /// AADSTS700024 outside `nbf` (with clock skew) … `exp`.
    private func checkLifetime(_ jwt: JWT, now: Date) -> IdentityError? {
        guard let expiry = jwt.time("exp") else { return Self.invalid(50027, "Invalid JWT token. No exp claim.") }
        let notBefore = jwt.time("nbf") ?? jwt.time("iat") ?? expiry
        if expiry <= now || notBefore > now.addingTimeInterval(Self.skew) {
            return Self.invalid(
                700024,
                "Client assertion is not within its valid time range. Current time: "
                    + "\(Timestamps.identityTimestamp(now)), assertion valid from "
                    + "\(Timestamps.identityTimestamp(notBefore)), expiry time of assertion "
                    + "\(Timestamps.identityTimestamp(expiry)).")
        }
        return nil
    }

    /// The public key of the registered certificate with this base64url SHA-256 or SHA-1 thumbprint.
    private func registeredKey(thumbprint: String) -> _RSA.Signing.PublicKey? {
        for pem in configuration.certificates {
            guard let der = Self.der(pem: pem, label: "CERTIFICATE") else { continue }
            let sha256 = Base64URL.encode(Data(SHA256.hash(data: der)))
            let sha1 = Base64URL.encode(Data(Insecure.SHA1.hash(data: der)))
            guard thumbprint == sha256 || thumbprint == sha1,
                let certificate = try? Certificate(derEncoded: Array(der))
            else { continue }
            return _RSA.Signing.PublicKey(certificate.publicKey)
        }
        return nil
    }

    /// An RSA key from a `PUBLIC KEY` PEM or from a certificate.
    static func publicKey(pem: String) -> _RSA.Signing.PublicKey? {
        if let der = der(pem: pem, label: "CERTIFICATE"), let certificate = try? Certificate(derEncoded: Array(der)) {
            return _RSA.Signing.PublicKey(certificate.publicKey)
        }
        return try? _RSA.Signing.PublicKey(pemRepresentation: pem)
    }

    /// RSASSA-PSS for PS256, PKCS#1 v1.5 for RS256, both over SHA-256 of `header.payload`.
    private static func verify(_ jwt: JWT, alg: String, key: _RSA.Signing.PublicKey) -> Bool {
        let padding: _RSA.Signing.Padding = alg == "PS256" ? .PSS : .insecurePKCS1v1_5
        return key.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: jwt.signature), for: SHA256.hash(data: jwt.signingInput),
            padding: padding)
    }

    /// The DER bytes of the first PEM block with `label`.
    static func der(pem: String, label: String) -> Data? {
        guard let begin = pem.range(of: "-----BEGIN \(label)-----"),
            let end = pem.range(of: "-----END \(label)-----", range: begin.upperBound..<pem.endIndex)
        else { return nil }
        let body = pem[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
        return Data(base64Encoded: String(body))
    }

    /// The 401 `invalid_client` answer Entra gives for a bad assertion.
    private static func invalid(_ code: Int, _ message: String) -> IdentityError {
        IdentityError(status: 401, error: "invalid_client", code: code, message: message)
    }
}
