import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Picks the grant for the configured sign-in method; the one place that knows every method.
public enum CredentialFactory {
    /// The grant `orgdir build` uses for these settings.
    ///
    /// Credential files are read here, so a missing key or secret fails before any network request; a
    /// delegated method without a saved sign-in fails here too unless `interactive` allows signing in now.
    public static func grant(
        for settings: Settings, environment: [String: String], interactive: Bool = isatty(STDIN_FILENO) == 1,
        say: @escaping @Sendable (String) -> Void = standardError
    ) throws(AuthError) -> any CredentialGrant {
        switch settings.authMethod {
        case .clientSecret:
            let secret = try ClientSecret.resolve(file: settings.clientSecretFile, environment: environment)
            return ClientSecretGrant(
                endpoint: settings.tokenEndpoint, clientId: settings.clientId, scope: settings.defaultScope,
                secret: secret)
        case .certificate:
            return try CertificateGrant(settings: settings)
        case .federatedToken:
            return try FederatedTokenGrant(settings: settings, environment: environment)
        case .deviceCode, .browser:
            let cache = TokenCache(settings: settings, environment: environment)
            let login = interactive ? InteractiveLogin(settings: settings, environment: environment, say: say) : nil
            let grant = RefreshTokenGrant(settings: settings, cache: cache, login: login)
            if try cache.load() == nil, login == nil { throw grant.missingSignIn() }
            return grant
        }
    }

    /// Writes one line on stderr, where sign-in instructions belong (stdout stays machine-readable).
    @Sendable public static func standardError(_ line: String) {
        StandardStream.error.write(line + "\n")
    }
}
