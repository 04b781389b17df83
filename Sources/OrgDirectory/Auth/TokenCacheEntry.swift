import Foundation

/// What the token cache keeps for one authority, tenant and client: the refresh token and the scopes it was
/// granted for. Access tokens are not stored; they are short-lived and cheap to get from the refresh token.
struct TokenCacheEntry: Codable, Sendable, Equatable, CustomStringConvertible {
    var authority: String
    var tenant: String
    var clientId: String
    var scopes: [String]
    var refreshToken: String
    var savedAt: Date

    var description: String { "TokenCacheEntry(\(authority) \(tenant) \(clientId), <redacted>)" }
}
