import Crypto
import Foundation

/// A PKCE pair (RFC 7636, S256) and a `state` value for one browser sign-in.
///
/// The verifier never leaves this process until the code exchange, so a code intercepted on its way to the
/// loopback port is useless to anyone else; `state` ties the redirect to this sign-in.
struct PKCE: Sendable {
    let verifier: String
    let challenge: String
    let state: String

    init() {
        verifier = Self.randomString(bytes: 32)
        challenge = Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
        state = Self.randomString(bytes: 16)
    }

    /// base64url of `bytes` random bytes from the system generator.
    static func randomString(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
