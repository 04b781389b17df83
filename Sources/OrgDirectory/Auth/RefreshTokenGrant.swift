import Foundation

/// Delegated access for `orgdir build`: the cached refresh token is exchanged for an access token, and the
/// new refresh token that comes back replaces it before the access token is used (rotation), so an old
/// refresh token is never sent again.
///
/// Without a saved sign-in it runs the interactive login when one is allowed (a terminal), else fails.
public struct RefreshTokenGrant: CredentialGrant {
    public let endpoint: URL
    let clientId: String
    let cache: TokenCache
    let configPath: String
    let authMethod: AuthMethod
    /// Runs when there is no saved sign-in; nil means there is nobody to ask.
    let login: InteractiveLogin?

    public init(settings: Settings, cache: TokenCache, login: InteractiveLogin?) {
        endpoint = settings.tokenEndpoint
        clientId = settings.clientId
        configPath = settings.sourcePath
        authMethod = settings.authMethod
        self.cache = cache
        self.login = login
    }

    /// Redeems the cached refresh token and stores its replacement before returning the access token.
    public func requestToken(using transport: HTTPTransport) async throws(AuthError) -> AccessToken {
        guard let entry = try cache.load() else {
            guard let login else { throw missingSignIn() }
            return try await login.run(InteractiveLogin.defaultFlow(forMethod: authMethod), using: transport)
                .accessToken
        }
        let response: TokenResponse
        do {
            response = try await TokenEndpoint.exchange(
                [
                    ("client_id", clientId), ("grant_type", "refresh_token"), ("refresh_token", entry.refreshToken),
                    ("scope", entry.scopes.joined(separator: " ")),
                ], to: endpoint, using: transport)
        } catch .rejected(let error) where ["invalid_grant", "interaction_required"].contains(error.error) {
            throw .savedSignInRefused(error, configPath: configPath)
        }
        if let rotated = response.refreshToken, rotated != entry.refreshToken {
            try cache.save(refreshToken: rotated, scopes: entry.scopes)
        }
        return response.accessToken
    }

    /// The error for a delegated run with no saved sign-in and no terminal.
    func missingSignIn() -> AuthError {
        .loginRequired(
            reason: "auth is \(authMethod.rawValue) and there is no saved sign-in (\(cache.file.path))",
            configPath: configPath)
    }
}
