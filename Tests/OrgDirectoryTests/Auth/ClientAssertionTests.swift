import Crypto
import Foundation
import TestSupport
import Testing
import _CryptoExtras

@testable import OrgDirectory

@Suite("Certificate client assertion")
struct ClientAssertionTests {
    /// A fresh folder with an openssl-made certificate (PKCS#8 key), as Microsoft's docs make one.
    static func makeCertificate() throws -> (folder: URL, certificate: URL, key: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orgdir-cert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("key.pem")
        let certificate = folder.appendingPathComponent("cert.pem")
        let openssl = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out",
                certificate.path,
                "-days", "1", "-subj", "/CN=orgdir-unit",
            ])
        guard openssl.status == 0 else { throw ChildProcess.Failure(description: "openssl: \(openssl.standardError)") }
        return (folder, certificate, key)
    }

    static func decode(_ part: Substring) throws -> [String: Any] {
        let data = try #require(Base64URL.decode(part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(
        "PS256 and RS256 assertions carry the right thumbprint, claims and a verifiable signature",
        arguments: [AssertionAlgorithm.ps256, .rs256])
    func assertion(algorithm: AssertionAlgorithm) throws {
        let (folder, certificateFile, keyFile) = try Self.makeCertificate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = try ClientCertificate.load(certificateFile: certificateFile, privateKeyFile: keyFile)
        let audience = try #require(URL(string: "https://login.microsoftonline.com/contoso.com/oauth2/v2.0/token"))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let assertion = try ClientAssertion.make(
            certificate: certificate, algorithm: algorithm, clientId: "client-1", audience: audience, now: now)
        let parts = assertion.jwt.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        let header = try Self.decode(parts[0])
        let claims = try Self.decode(parts[1])

        let pem = try String(contentsOf: certificateFile, encoding: .utf8)
        let der = try #require(PEMBlock.blocks(in: pem).first?.der)
        #expect(header["alg"] as? String == algorithm.rawValue)
        #expect(header["typ"] as? String == "JWT")
        switch algorithm {
        case .ps256:
            #expect(header["x5t#S256"] as? String == Base64URL.encode(SHA256.hash(data: der)))
            #expect(header["x5t"] == nil)
        case .rs256:
            #expect(header["x5t"] as? String == Base64URL.encode(Insecure.SHA1.hash(data: der)))
        }
        #expect(claims["aud"] as? String == audience.absoluteString)
        #expect(claims["iss"] as? String == "client-1")
        #expect(claims["sub"] as? String == "client-1")
        #expect(claims["nbf"] as? Int == 1_800_000_000)
        #expect(claims["iat"] as? Int == 1_800_000_000)
        #expect(claims["exp"] as? Int == 1_800_000_600)
        #expect(UUID(uuidString: claims["jti"] as? String ?? "") != nil)

        let signature = _RSA.Signing.RSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        let digest = SHA256.hash(data: Data(parts[0..<2].joined(separator: ".").utf8))
        let publicKey = certificate.privateKey.publicKey
        #expect(
            publicKey.isValidSignature(signature, for: digest, padding: algorithm == .ps256 ? .PSS : .insecurePKCS1v1_5)
        )
        #expect(
            !publicKey.isValidSignature(
                signature, for: digest, padding: algorithm == .ps256 ? .insecurePKCS1v1_5 : .PSS))
    }

    @Test("a private key from another certificate is refused before anything is sent")
    func mismatchedKey() throws {
        let (folder, certificateFile, _) = try Self.makeCertificate()
        let (otherFolder, _, otherKey) = try Self.makeCertificate()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: otherFolder)
        }
        #expect(throws: AuthError.self) {
            try ClientCertificate.load(certificateFile: certificateFile, privateKeyFile: otherKey)
        }
        do {
            _ = try ClientCertificate.load(certificateFile: certificateFile, privateKeyFile: otherKey)
        } catch {
            #expect(error.errorDescription?.contains("does not belong to the certificate") == true)
        }
    }

    @Test("every assertion has its own jti")
    func uniqueIds() throws {
        let (folder, certificateFile, keyFile) = try Self.makeCertificate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = try ClientCertificate.load(certificateFile: certificateFile, privateKeyFile: keyFile)
        let audience = try #require(URL(string: "https://login.example/t/oauth2/v2.0/token"))
        let ids = try (0..<3).map { _ in
            let jwt = try ClientAssertion.make(
                certificate: certificate, algorithm: .ps256, clientId: "c", audience: audience
            ).jwt
            return try Self.decode(jwt.split(separator: ".")[1])["jti"] as? String
        }
        #expect(Set(ids).count == 3)
    }

    @Test(
        "an assertion is reused for 9 minutes, never longer",
        arguments: [
            (0.0, true), (539.0, true), (540.0, false), (599.0, false), (-5.0, false),
        ])
    func reuseWindow(age: Double, reusable: Bool) {
        let issued = Date(timeIntervalSince1970: 1_800_000_000)
        let assertion = ClientAssertion(jwt: "x", issuedAt: issued)
        #expect(assertion.isReusable(at: issued.addingTimeInterval(age)) == reusable)
    }

    /// Key files that cannot be used, and what the message must say.
    static let badKeys: [(name: String, text: String, fragment: String)] = [
        (
            "encrypted PKCS#8", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----\n",
            "is encrypted"
        ),
        (
            "encrypted PKCS#1",
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nMIIB\n"
                + "-----END RSA PRIVATE KEY-----\n",
            "is encrypted"
        ),
        ("EC key", "-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----\n", "Entra ID needs RSA"),
        ("no key at all", "", "no RSA private key"),
    ]

    @Test("unusable private keys are refused with a message naming the file and the fix", arguments: badKeys.indices)
    func badKey(index: Int) throws {
        let (folder, certificateFile, _) = try Self.makeCertificate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("bad.pem")
        try Self.badKeys[index].text.write(to: keyFile, atomically: true, encoding: .utf8)
        do {
            _ = try ClientCertificate.load(certificateFile: certificateFile, privateKeyFile: keyFile)
            Issue.record("\(Self.badKeys[index].name) was accepted")
        } catch {
            let message = error.errorDescription ?? ""
            #expect(message.contains(Self.badKeys[index].fragment), "\(message)")
            #expect(message.contains("privateKeyFile \(keyFile.path)"))
        }
    }
}
