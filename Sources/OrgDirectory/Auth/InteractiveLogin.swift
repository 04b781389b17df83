import Foundation

/// A delegated sign-in by a person (device code or browser) that ends with the refresh token in the cache.
///
/// Used by `orgdir login`, and by `orgdir build` when it runs on a terminal without a saved sign-in.
public struct InteractiveLogin: Sendable {
    /// Which interactive flow to run.
    public enum Flow: String, Sendable {
        case deviceCode, browser
    }

    let settings: Settings
    let environment: [String: String]
    let cache: TokenCache
    let say: @Sendable (String) -> Void
    /// Seconds the browser flow waits for the redirect.
    public var browserTimeout: TimeInterval = 300

    public init(settings: Settings, environment: [String: String], say: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.environment = environment
        self.cache = TokenCache(settings: settings, environment: environment)
        self.say = say
    }

    /// The cache file this login writes.
    public var cacheFile: URL { cache.file }

    /// The flow the settings ask for: browser for `auth` browser, device code otherwise.
    public static func defaultFlow(forMethod method: AuthMethod) -> Flow {
        method == .browser ? .browser : .deviceCode
    }

    /// Signs in, stores the refresh token and returns the tokens.
    @discardableResult
    public func run(_ flow: Flow, using transport: HTTPTransport) async throws(AuthError) -> TokenResponse {
        let scopes = settings.delegatedScopes
        let response: TokenResponse
        switch flow {
        case .deviceCode:
            response = try await DeviceCodeFlow(
                deviceCodeEndpoint: settings.deviceCodeEndpoint, tokenEndpoint: settings.tokenEndpoint,
                clientId: settings.clientId, scopes: scopes, say: say
            ).run(using: transport)
        case .browser:
            let environment = environment
            response = try await BrowserFlow(
                authorizeEndpoint: settings.authorizeEndpoint, tokenEndpoint: settings.tokenEndpoint,
                clientId: settings.clientId, scopes: scopes, redirect: settings.redirectUri.flatMap(loopbackRedirect),
                timeout: browserTimeout, say: say,
                openBrowser: { url in BrowserLauncher.open(url, environment: environment) }
            ).run(using: transport)
        }
        guard let refreshToken = response.refreshToken else {
            throw .interactiveSignInFailed(
                reason: "signed in, but no refresh token came back, so the sign-in cannot be kept: add offline_access "
                    + "to scopes in \(settings.sourcePath)")
        }
        try cache.save(refreshToken: refreshToken, scopes: scopes)
        return response
    }

    /// The plist's `redirectUri` when it is a loopback http URL (validated at load for auth browser).
    private func loopbackRedirect(_ text: String) -> URL? {
        guard let url = URL(string: text), url.scheme == "http", let host = url.host, LoopbackHost.isLoopback(host)
        else { return nil }
        return url
    }
}
