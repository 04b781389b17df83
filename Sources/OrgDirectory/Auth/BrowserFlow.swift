import Foundation

/// Browser sign-in: the authorization code flow with PKCE (S256) and `state`, the code delivered to a
/// loopback port, as MSAL does for desktop apps.
///
/// The authorize URL is always printed on stderr too, so a person on a machine without a browser (or a test)
/// can open it by hand.
struct BrowserFlow: Sendable {
    let authorizeEndpoint: URL
    let tokenEndpoint: URL
    let clientId: String
    let scopes: [String]
    /// The configured loopback redirect (port 0 or none: any free port).
    let redirect: URL?
    let timeout: TimeInterval
    let say: @Sendable (String) -> Void
    let openBrowser: @Sendable (URL) -> Void

    /// Listens, opens the browser, waits for the redirect, checks `state` and redeems the code with the verifier.
    func run(using transport: HTTPTransport) async throws(AuthError) -> TokenResponse {
        let pkce = PKCE()
        let listener = try await LoopbackRedirectListener.start(port: UInt16(redirect?.port ?? 0))
        let redirectURI = redirectURI(port: listener.port)
        let url = try authorizeURL(redirectURI: redirectURI, pkce: pkce)
        say("Opening the browser to sign in. If it does not open, visit this URL:\n\(url.absoluteString)")
        openBrowser(url)
        let query = await listener.waitForRedirect(timeout: timeout)
        await listener.stop()
        guard let query else {
            throw .interactiveSignInFailed(
                reason: "no sign-in arrived on \(redirectURI) within \(Int(timeout)) s; run `orgdir login --browser` "
                    + "again")
        }
        guard query["state"] == pkce.state else {
            throw .interactiveSignInFailed(
                reason: "the redirect's state did not match this sign-in (possible forgery); nothing was saved")
        }
        if let error = query["error"] {
            let description = (query["error_description"] ?? "").components(separatedBy: .newlines).first ?? ""
            let hint = AADSTSHints.hint(code: nil, error: error).map { " — hint: \($0)" } ?? ""
            throw .interactiveSignInFailed(reason: "the browser sign-in returned \(error): \(description)\(hint)")
        }
        guard let code = query["code"], !code.isEmpty else {
            throw .interactiveSignInFailed(reason: "the redirect carried no authorization code")
        }
        return try await TokenEndpoint.exchange(
            [
                ("client_id", clientId), ("grant_type", "authorization_code"), ("code", code),
                ("redirect_uri", redirectURI), ("code_verifier", pkce.verifier),
                ("scope", scopes.joined(separator: " ")),
            ], to: tokenEndpoint, using: transport)
    }

    /// `http://localhost:PORT` plus the configured path, the form Entra ID matches against a registered
    /// `http://localhost` redirect whatever the port.
    private func redirectURI(port: UInt16) -> String {
        let path = redirect.map(\.path) ?? ""
        return "http://localhost:\(port)\(path == "/" ? "" : path)"
    }

    /// The authorize URL with the PKCE challenge, `state` and the loopback redirect.
    private func authorizeURL(redirectURI: String, pkce: PKCE) throws(AuthError) -> URL {
        var components = URLComponents(url: authorizeEndpoint, resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "client_id", value: clientId),
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "response_mode", value: "query"),
            URLQueryItem(name: "scope", value: scopes.joined(separator: " ")),
            URLQueryItem(name: "state", value: pkce.state),
            URLQueryItem(name: "code_challenge", value: pkce.challenge),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        // URLComponents leaves '+' alone in queries, where servers read it as a space.
        let query = components?.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        components?.percentEncodedQuery = query
        guard let url = components?.url else {
            throw .interactiveSignInFailed(reason: "cannot build the authorize URL from \(authorizeEndpoint)")
        }
        return url
    }
}
