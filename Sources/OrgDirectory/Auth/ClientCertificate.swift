import Crypto
import Foundation
import _CryptoExtras

/// The app's certificate and private key, loaded from PEM, with the thumbprints Entra ID looks it up by.
///
/// Accepts what `openssl req -x509 -newkey rsa:2048 -nodes` writes (a PKCS#8 `PRIVATE KEY`) and the older
/// PKCS#1 `RSA PRIVATE KEY`, in the certificate file or in a separate key file. An encrypted key is refused
/// with a message: orgdir runs unattended and has nobody to ask for a passphrase.
struct ClientCertificate: Sendable {
    let privateKey: _RSA.Signing.PrivateKey
    /// base64url SHA-256 of the certificate's DER bytes (`x5t#S256`).
    let sha256Thumbprint: String
    /// base64url SHA-1 of the certificate's DER bytes (`x5t`, for RS256 setups).
    let sha1Thumbprint: String

    /// Loads the certificate from `certificateFile` and the key from `privateKeyFile`, or from the same file.
    static func load(certificateFile: URL, privateKeyFile: URL?) throws(AuthError) -> ClientCertificate {
        let certificateBlocks = PEMBlock.blocks(in: try read(certificateFile, key: "certificateFile"))
        guard let certificate = certificateBlocks.first(where: { $0.label == "CERTIFICATE" }),
            let der = certificate.der
        else {
            throw .credentialUnavailable(
                reason: "certificateFile \(certificateFile.path) holds no PEM certificate "
                    + "(-----BEGIN CERTIFICATE-----); convert a .cer/.der with `openssl x509 -inform der -out cert.pem`"
            )
        }
        let keyBlocks: [PEMBlock]
        let keySource: (url: URL, key: String)
        if let privateKeyFile {
            keyBlocks = PEMBlock.blocks(in: try read(privateKeyFile, key: "privateKeyFile"))
            keySource = (privateKeyFile, "privateKeyFile")
        } else {
            keyBlocks = certificateBlocks
            keySource = (certificateFile, "certificateFile")
        }
        let privateKey = try privateKey(from: keyBlocks, source: keySource)
        // The certificate embeds its SubjectPublicKeyInfo verbatim, so a matching key's SPKI appears in it; a
        // mismatched pair would otherwise surface only as Entra's AADSTS700027.
        guard der.range(of: privateKey.publicKey.derRepresentation) != nil else {
            throw .credentialUnavailable(
                reason: "the private key in \(keySource.key) \(keySource.url.path) does not belong to the certificate "
                    + "in certificateFile \(certificateFile.path)")
        }
        return ClientCertificate(
            privateKey: privateKey, sha256Thumbprint: Base64URL.encode(SHA256.hash(data: der)),
            sha1Thumbprint: Base64URL.encode(Insecure.SHA1.hash(data: der)))
    }

    /// Signs `message` as the JWT algorithm says: RSASSA-PSS or PKCS#1 v1.5, both over SHA-256.
    func sign(_ message: Data, algorithm: AssertionAlgorithm) throws(AuthError) -> Data {
        do {
            let padding: _RSA.Signing.Padding = algorithm == .ps256 ? .PSS : .insecurePKCS1v1_5
            return try privateKey.signature(for: SHA256.hash(data: message), padding: padding).rawRepresentation
        } catch {
            throw .credentialUnavailable(reason: "cannot sign the client assertion: \(error)")
        }
    }

    /// The RSA key among `blocks`; encrypted and non-RSA keys get a message saying what to do.
    private static func privateKey(
        from blocks: [PEMBlock], source: (url: URL, key: String)
    ) throws(AuthError) -> _RSA.Signing.PrivateKey {
        let where_ = "\(source.key) \(source.url.path)"
        if blocks.contains(where: { $0.label == "ENCRYPTED PRIVATE KEY" || $0.hasEncryptionHeaders }) {
            throw .credentialUnavailable(
                reason: "the private key in \(where_) is encrypted; orgdir cannot ask for a passphrase: "
                    + "write an unencrypted copy readable only by orgdir's user with "
                    + "`openssl pkey -in key.pem -out key-plain.pem` and name it with privateKeyFile")
        }
        guard let block = blocks.first(where: { $0.label == "PRIVATE KEY" || $0.label == "RSA PRIVATE KEY" }) else {
            let hint = blocks.contains { $0.label == "EC PRIVATE KEY" } ? " (an EC key; Entra ID needs RSA)" : ""
            throw .credentialUnavailable(
                reason: "no RSA private key (-----BEGIN PRIVATE KEY----- or RSA PRIVATE KEY) in \(where_)\(hint); "
                    + "name the key file with privateKeyFile")
        }
        do {
            return try _RSA.Signing.PrivateKey(pemRepresentation: block.text)
        } catch {
            throw .credentialUnavailable(
                reason: "the private key in \(where_) is not a usable RSA key of 2048 bits or more (\(error))")
        }
    }

    private static func read(_ url: URL, key: String) throws(AuthError) -> String {
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .credentialUnavailable(reason: "cannot read \(key) \(url.path): \(error.localizedDescription)")
        }
    }
}
