import Foundation

/// What the sandbox's identity platform remembers between requests: assertion ids already used, device
/// codes and authorization codes in flight, refresh tokens and whether each was already redeemed.
struct IdentityState: Sendable {
    /// One device code sign-in in progress.
    struct DeviceSession: Sendable {
        var clientId: String
        var scopes: [String]
        var expiresAt: Date
        var interval: Int
        var polls = 0
        var lastPoll: Date?
        var redeemed = false
    }

    /// One authorization code from `/authorize`.
    struct AuthorizationCode: Sendable {
        var clientId: String
        var redirectURI: String
        var scopes: [String]
        var challenge: String
        var expiresAt: Date
        var redeemed = false
    }

    /// One refresh token; a redeemed one is refused from then on (rotation).
    struct RefreshToken: Sendable {
        var clientId: String
        var scopes: [String]
        var redeemed = false
    }

    /// `jti` values seen, with when their assertion expires (after that a replay fails on `exp` anyway).
    var usedAssertionIds: [String: Date] = [:]
    var deviceSessions: [String: DeviceSession] = [:]
    var authorizationCodes: [String: AuthorizationCode] = [:]
    var refreshTokens: [String: RefreshToken] = [:]
    /// Every credential value the sandbox issued or received, for tests that prove none leaks.
    var sensitiveValues: [String] = []
    /// Refresh-token grants refused because the token was already redeemed.
    var replayedRefreshTokens = 0

    /// Records a `jti`; false when it was already used.
    mutating func useAssertionId(_ id: String, expiresAt: Date, now: Date) -> Bool {
        usedAssertionIds = usedAssertionIds.filter { $0.value > now }
        guard usedAssertionIds[id] == nil else { return false }
        usedAssertionIds[id] = expiresAt
        return true
    }

    /// A random opaque value for codes and refresh tokens.
    static func randomToken(bytes: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode(Data((0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }
}
