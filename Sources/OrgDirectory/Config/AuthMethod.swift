/// How orgdir signs in: the plist's `auth` key.
///
/// The first three are unattended (application permissions, for servers and CI); the last two sign in as a
/// person once with `orgdir login` and then run from the refresh token in the token cache.
public enum AuthMethod: String, Sendable, CaseIterable, Codable {
    /// OAuth 2.0 client credentials with a client secret.
    case clientSecret
    /// Client credentials with a JWT assertion signed by the app's certificate.
    case certificate
    /// Client credentials with a token from another identity provider (workload identity federation).
    case federatedToken
    /// Delegated: device code sign-in (`orgdir login`), then refresh tokens from the cache.
    case deviceCode
    /// Delegated: browser sign-in with PKCE (`orgdir login --browser`), then refresh tokens from the cache.
    case browser

    /// Whether the method acts as a signed-in person and needs `orgdir login` first.
    public var isDelegated: Bool {
        switch self {
        case .deviceCode, .browser: true
        case .clientSecret, .certificate, .federatedToken: false
        }
    }

    /// The plist keys that belong to this method only; any other method's keys are a mistake worth reporting.
    var ownKeys: Set<SettingsKey> {
        switch self {
        case .clientSecret: [.clientSecretFile]
        case .certificate: [.certificateFile, .privateKeyFile, .assertionAlgorithm]
        case .federatedToken: [.federatedTokenFile]
        case .deviceCode: [.scopes]
        case .browser: [.scopes, .redirectUri]
        }
    }
}

/// The JWT signature of a certificate assertion: PS256 with a SHA-256 thumbprint (current Entra docs and
/// MSAL), or RS256 with a SHA-1 thumbprint for older setups.
public enum AssertionAlgorithm: String, Sendable, CaseIterable, Codable {
    case ps256 = "PS256"
    case rs256 = "RS256"
}
