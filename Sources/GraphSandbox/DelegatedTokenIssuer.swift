import Foundation

/// Issues what a delegated grant returns: an access token, a new refresh token when `offline_access` was
/// granted (rotation: each is good for one redemption), an `id_token` when `openid` was, and the scopes.
struct DelegatedTokenIssuer: Sendable {
    let configuration: SandboxConfiguration
    let baseURL: URL

    /// The success body for `scopes`; `offline_access` adds a refresh token, `openid` an id_token.
    func issue(
        scopes: [String], clientId: String, state: inout IdentityState, tokens: inout TokenRegistry, now: Date
    ) -> SandboxResponse {
        let lowered = Set(scopes.map { $0.lowercased() })
        let accessToken = tokens.issue(lifetime: configuration.tokenLifetime, now: now)
        state.sensitiveValues.append(accessToken)
        let granted = scopes.filter { $0.lowercased() != "offline_access" }
        var fields: [(String, JSONNode)] = [
            ("token_type", .string("Bearer")),
            ("scope", .string(granted.joined(separator: " "))),
            ("expires_in", .int(configuration.tokenLifetime)),
            ("ext_expires_in", .int(configuration.tokenLifetime)),
            ("access_token", .string(accessToken)),
        ]
        if lowered.contains("offline_access") {
            let refreshToken = "0.sandbox." + IdentityState.randomToken(bytes: 48)
            state.refreshTokens[refreshToken] = IdentityState.RefreshToken(clientId: clientId, scopes: scopes)
            state.sensitiveValues.append(refreshToken)
            fields.append(("refresh_token", .string(refreshToken)))
        }
        if lowered.contains("openid") {
            fields.append(("id_token", .string(idToken(clientId: clientId, now: now))))
        }
        var response = SandboxResponse.json(status: 200, .object(fields))
        response.setHeader("Cache-Control", "no-store, no-cache")
        response.setHeader("Pragma", "no-cache")
        return response
    }

    /// An OpenID Connect id_token for the simulated person (signature not meant to be checked).
    private func idToken(clientId: String, now: Date) -> String {
        let issued = Int(now.timeIntervalSince1970)
        let header = JSONNode.object([("alg", .string("RS256")), ("typ", .string("JWT"))])
        let claims = JSONNode.object([
            ("aud", .string(clientId)),
            ("iss", .string("\(TokenEndpoint.resource(of: baseURL))/\(configuration.tenantGUID)/v2.0")),
            ("iat", .int(issued)), ("nbf", .int(issued)), ("exp", .int(issued + 3600)),
            ("name", .string("Sandbox Admin")),
            ("preferred_username", .string("admin@\(configuration.effectiveDomain)")),
            ("tid", .string(configuration.tenantGUID)),
        ])
        let signature = IdentityState.randomToken(bytes: 64)
        return Base64URL.encode(header.data()) + "." + Base64URL.encode(claims.data()) + "." + signature
    }
}
