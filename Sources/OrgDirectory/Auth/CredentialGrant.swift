import Foundation

/// One way of asking the token endpoint for an access token: secret, certificate, federated token, refresh token.
public protocol CredentialGrant: Sendable {
    /// The token endpoint this grant talks to, for messages.
    var endpoint: URL { get }
    /// Performs one token request.
    func requestToken(using transport: HTTPTransport) async throws(AuthError) -> AccessToken
}

/// Shared token-endpoint plumbing: POST the form, parse success or Microsoft's error JSON.
enum TokenEndpoint {
    /// Posts a grant and returns just the access token (the client-credentials flows).
    static func post(
        _ fields: [(String, String)], to endpoint: URL, headers: [(String, String)] = [], using transport: HTTPTransport
    ) async throws(AuthError) -> AccessToken {
        try await exchange(fields, to: endpoint, headers: headers, using: transport).accessToken
    }

    /// Posts a grant and returns everything a delegated flow needs (refresh token, granted scopes).
    static func exchange(
        _ fields: [(String, String)], to endpoint: URL, headers: [(String, String)] = [], using transport: HTTPTransport
    ) async throws(AuthError) -> TokenResponse {
        let response = try await send(fields, to: endpoint, headers: headers, using: transport)
        guard (200..<300).contains(response.status) else {
            throw .rejected(TokenEndpointError.parse(status: response.status, body: response.body))
        }
        return try TokenResponse.decode(response.body, endpoint: endpoint)
    }

    /// One form POST with orgdir's headers; no answer at all is `unreachable`.
    static func send(
        _ fields: [(String, String)], to endpoint: URL, headers: [(String, String)] = [], using transport: HTTPTransport
    ) async throws(AuthError) -> HTTPResponse {
        let requestHeaders =
            headers + [
                ("Accept", "application/json"), ("client-request-id", UUID().uuidString.lowercased()),
                ("User-Agent", "orgdir/\(OrgDirVersion.current)"),
            ]
        do {
            return try await transport.send(.form(endpoint, fields: fields, headers: requestHeaders))
        } catch {
            throw .unreachable(endpoint: endpoint.absoluteString, reason: error.description)
        }
    }
}
