import Foundation

/// A successful token endpoint answer: the access token, and for delegated flows the refresh token that
/// replaces the cached one and the scopes actually granted. Its description never shows a token.
public struct TokenResponse: Sendable, CustomStringConvertible {
    public var accessToken: AccessToken
    public var refreshToken: String?
    public var scope: String?

    public var description: String {
        "TokenResponse(<redacted>, refresh token: \(refreshToken == nil ? "none" : "<redacted>"))"
    }

    /// Decodes the success JSON; anything without a Bearer access token is a malformed answer.
    static func decode(_ body: Data, endpoint: URL, now: Date = Date()) throws(AuthError) -> TokenResponse {
        struct Success: Decodable {
            var access_token: String
            var token_type: String?
            var expires_in: Double?
            var refresh_token: String?
            var scope: String?
        }
        guard let success = try? JSONDecoder().decode(Success.self, from: body), !success.access_token.isEmpty else {
            throw .malformedResponse(endpoint: endpoint.absoluteString, reason: "no access_token in the response")
        }
        if let type = success.token_type, type.caseInsensitiveCompare("Bearer") != .orderedSame {
            throw .malformedResponse(endpoint: endpoint.absoluteString, reason: "token_type '\(type)' is not Bearer")
        }
        let lifetime = success.expires_in ?? 3599
        return TokenResponse(
            accessToken: AccessToken(value: success.access_token, expiresAt: now.addingTimeInterval(lifetime)),
            refreshToken: success.refresh_token.flatMap { $0.isEmpty ? nil : $0 }, scope: success.scope)
    }
}
