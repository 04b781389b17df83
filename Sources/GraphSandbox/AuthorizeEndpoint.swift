import Foundation

/// `GET /{tenant}/oauth2/v2.0/authorize`: the browser step of the authorization code flow. The simulated
/// person is already signed in and consents at once (or declines, per the script), so the answer is a 302
/// to the loopback redirect with `code` and `state`, or with `error`.
///
/// As in Entra, a bad client id or redirect URI gets an error page (there is nowhere safe to redirect);
/// every other problem is reported to the redirect URI. PKCE with S256 is required.
struct AuthorizeEndpoint: Sendable {
    let configuration: SandboxConfiguration
    let tokenEndpoint: TokenEndpoint
    /// Seconds an authorization code may wait for redemption.
    static let codeLifetime: TimeInterval = 600

    /// Answers one `/authorize` request: an error page, or a redirect carrying a code or an error.
    func handle(tenant: String, request: IncomingRequest, state: inout IdentityState, now: Date) -> SandboxResponse {
        var query: [String: String] = [:]
        for pair in FormEncoding.pairs(request.rawQuery) where query[pair.name] == nil { query[pair.name] = pair.value }
        if !DeviceCodeEndpoint.isOrganizationsAlias(tenant), let error = tokenEndpoint.validateTenant(tenant) {
            return Self.page(error)
        }
        guard let clientId = query["client_id"], clientId.caseInsensitiveCompare(configuration.clientId) == .orderedSame
        else {
            return Self.page(.unknownApplication(query["client_id"] ?? "", tenant: tenant))
        }
        guard let redirect = query["redirect_uri"], let redirectURL = URL(string: redirect),
            Self.isLoopback(redirectURL)
        else {
            return Self.page(
                IdentityError(
                    status: 400, error: "invalid_request", code: 50011,
                    message: "The redirect URI '\(query["redirect_uri"] ?? "")' specified in the request does not "
                        + "match the redirect URIs configured for the application (http://localhost)."))
        }
        let echo = query["state"]
        guard query["response_type"] == "code" else {
            return Self.redirect(redirectURL, ["error": "unsupported_response_type"], state: echo)
        }
        let scopes: [String]
        switch DelegatedScopes(resources: DeviceCodeEndpoint.resources(tokenEndpoint)).validate(query["scope"]) {
        case .success(let valid): scopes = valid
        case .failure(let error):
            return Self.redirect(
                redirectURL, ["error": error.error, "error_description": "AADSTS\(error.code): \(error.message)"],
                state: echo)
        }
        guard let challenge = query["code_challenge"], !challenge.isEmpty, query["code_challenge_method"] == "S256"
        else {
            return Self.redirect(
                redirectURL,
                [
                    "error": "invalid_request",
                    "error_description": "AADSTS9002325: Proof Key for Code Exchange (S256) is required.",
                ], state: echo)
        }
        if configuration.signInScript.declines {
            return Self.redirect(
                redirectURL,
                [
                    "error": "access_denied",
                    "error_description": "AADSTS65004: User declined to consent to access the app.",
                ], state: echo)
        }
        let code = IdentityState.randomToken(bytes: 48)
        state.authorizationCodes[code] = IdentityState.AuthorizationCode(
            clientId: clientId, redirectURI: redirect, scopes: scopes, challenge: challenge,
            expiresAt: now.addingTimeInterval(Self.codeLifetime))
        state.sensitiveValues.append(code)
        return Self.redirect(redirectURL, ["code": code], state: echo)
    }

    /// Entra accepts any port for a registered `http://localhost` (RFC 8252 §7.3).
    private static func isLoopback(_ url: URL) -> Bool {
        guard url.scheme == "http", let host = url.host?.lowercased() else { return false }
        return host == "localhost" || host == "127.0.0.1" || host == "[::1]" || host == "::1"
    }

    /// A 302 to `target` with `fields` and the echoed `state` (`+` escaped: servers read it as a space).
    private static func redirect(_ target: URL, _ fields: [String: String], state: String?) -> SandboxResponse {
        var components = URLComponents(url: target, resolvingAgainstBaseURL: false)
        var items = components?.queryItems ?? []
        for key in fields.keys.sorted() { items.append(URLQueryItem(name: key, value: fields[key])) }
        if let state { items.append(URLQueryItem(name: "state", value: state)) }
        components?.queryItems = items
        let query = components?.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        components?.percentEncodedQuery = query
        let location = components?.url?.absoluteString ?? target.absoluteString
        var response = SandboxResponse(status: 302, headers: [("Location", location)])
        response.setHeader("Cache-Control", "no-store, no-cache")
        return response
    }

    /// The error page a browser shows when the request cannot be redirected.
    private static func page(_ error: IdentityError) -> SandboxResponse {
        let text = "<!doctype html><title>Sign in error</title><p>AADSTS\(error.code): \(error.message)</p>"
        return SandboxResponse(
            status: error.status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Data(text.utf8))
    }
}
