import Foundation

/// OAuth 2.0 client credentials with a client secret, for unattended runs with application permissions.
public struct ClientSecretGrant: CredentialGrant {
    public let endpoint: URL
    let clientId: String
    let scope: String
    private let secret: ClientSecret

    public init(endpoint: URL, clientId: String, scope: String, secret: ClientSecret) {
        self.endpoint = endpoint
        self.clientId = clientId
        self.scope = scope
        self.secret = secret
    }

    public func requestToken(using transport: HTTPTransport) async throws(AuthError) -> AccessToken {
        try await TokenEndpoint.post(
            [
                ("client_id", clientId), ("scope", scope), ("client_secret", secret.value),
                ("grant_type", "client_credentials"),
            ], to: endpoint, using: transport)
    }
}

/// A client secret, read from the environment or a file, never printed.
public struct ClientSecret: Sendable, CustomStringConvertible {
    let value: String

    public init(_ value: String) { self.value = value }

    public var description: String { "<redacted>" }

    /// The environment variable that holds the secret.
    public static let environmentVariable = "ORGDIR_CLIENT_SECRET"

    /// Finds the secret: the environment variable first, then the file the plist names.
    public static func resolve(file: URL?, environment: [String: String]) throws(AuthError) -> ClientSecret {
        if let value = environment[environmentVariable]?.trimmingCharacters(in: .whitespacesAndNewlines),
            !value.isEmpty
        {
            return ClientSecret(value)
        }
        guard let file else {
            throw .credentialUnavailable(
                reason: "no client secret: set \(environmentVariable) or name a file with the key clientSecretFile")
        }
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw .credentialUnavailable(
                reason: "cannot read clientSecretFile \(file.path): \(error.localizedDescription)")
        }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else { throw .credentialUnavailable(reason: "clientSecretFile \(file.path) is empty") }
        return ClientSecret(value)
    }
}
