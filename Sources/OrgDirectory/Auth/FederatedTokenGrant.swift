import Foundation

/// Client credentials with a token issued by another identity provider (workload identity federation): the
/// token in a file (Kubernetes and CI write it to `AZURE_FEDERATED_TOKEN_FILE`) goes out as the assertion.
///
/// The file is read again for every token request, because its issuer replaces it before it expires.
public struct FederatedTokenGrant: CredentialGrant {
    /// The environment variable workload identity sets, used when the plist has no `federatedTokenFile`.
    public static let environmentVariable = "AZURE_FEDERATED_TOKEN_FILE"

    public let endpoint: URL
    let clientId: String
    let scope: String
    let tokenFile: URL

    /// The token file from the plist, else from the environment.
    public init(settings: Settings, environment: [String: String]) throws(AuthError) {
        let fromEnvironment = environment[Self.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        guard let file = settings.signIn.federatedTokenFile ?? fromEnvironment.map({ URL(fileURLWithPath: $0) }) else {
            throw .credentialUnavailable(
                reason: "auth is federatedToken but no token file: set federatedTokenFile in \(settings.sourcePath) "
                    + "or the environment variable \(Self.environmentVariable)")
        }
        endpoint = settings.tokenEndpoint
        clientId = settings.clientId
        scope = settings.defaultScope
        tokenFile = file
    }

    /// Posts the token file's current content as the client assertion.
    public func requestToken(using transport: HTTPTransport) async throws(AuthError) -> AccessToken {
        try await TokenEndpoint.post(
            AssertionGrantFields.fields(clientId: clientId, scope: scope, assertion: try readToken()), to: endpoint,
            using: transport)
    }

    /// The current token; an empty or unreadable file is a clear error rather than a confusing AADSTS one.
    private func readToken() throws(AuthError) -> String {
        let text: String
        do {
            text = try String(contentsOf: tokenFile, encoding: .utf8)
        } catch {
            throw .credentialUnavailable(
                reason: "cannot read the federated token file \(tokenFile.path): \(error.localizedDescription)")
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else {
            throw .credentialUnavailable(reason: "the federated token file \(tokenFile.path) is empty")
        }
        guard token.split(separator: ".", omittingEmptySubsequences: false).count == 3 else {
            throw .credentialUnavailable(
                reason: "the federated token file \(tokenFile.path) does not hold a JWT (three dot-separated parts)")
        }
        return token
    }
}
