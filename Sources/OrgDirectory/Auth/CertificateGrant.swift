import Foundation

/// Client credentials with a certificate: a signed JWT assertion in place of a secret.
///
/// One assertion is reused for up to 9 minutes (MSAL's behaviour). If a server refuses a reused one as a
/// replay, a freshly signed assertion is tried once, so servers that enforce unique `jti`s work as well.
public struct CertificateGrant: CredentialGrant {
    public let endpoint: URL
    let clientId: String
    let scope: String
    let algorithm: AssertionAlgorithm
    private let certificate: ClientCertificate
    private let cache = AssertionCache()

    init(endpoint: URL, clientId: String, scope: String, algorithm: AssertionAlgorithm, certificate: ClientCertificate)
    {
        self.endpoint = endpoint
        self.clientId = clientId
        self.scope = scope
        self.algorithm = algorithm
        self.certificate = certificate
    }

    /// Loads the certificate and key named in the settings (errors name the file and the key).
    public init(settings: Settings) throws(AuthError) {
        guard let certificateFile = settings.signIn.certificateFile else {
            throw .credentialUnavailable(reason: "auth is certificate but certificateFile is not set")
        }
        self.init(
            endpoint: settings.tokenEndpoint, clientId: settings.clientId, scope: settings.defaultScope,
            algorithm: settings.signIn.assertionAlgorithm,
            certificate: try ClientCertificate.load(
                certificateFile: certificateFile, privateKeyFile: settings.signIn.privateKeyFile))
    }

    /// Posts the current assertion; a refused reused one is replaced by a fresh one once.
    public func requestToken(using transport: HTTPTransport) async throws(AuthError) -> AccessToken {
        let (assertion, reused) = try await currentAssertion()
        do {
            return try await post(assertion, using: transport)
        } catch .rejected(let error) where reused && error.error == "invalid_client" {
            await cache.store(nil)
            let (fresh, _) = try await currentAssertion()
            return try await post(fresh, using: transport)
        }
    }

    private func post(_ assertion: ClientAssertion, using transport: HTTPTransport) async throws(AuthError)
        -> AccessToken
    {
        try await TokenEndpoint.post(
            AssertionGrantFields.fields(clientId: clientId, scope: scope, assertion: assertion.jwt), to: endpoint,
            using: transport)
    }

    /// The cached assertion while it is young enough, else a new one; `reused` says which.
    private func currentAssertion() async throws(AuthError) -> (ClientAssertion, reused: Bool) {
        let now = Date()
        if let cached = await cache.assertion, cached.isReusable(at: now) { return (cached, true) }
        let fresh = try ClientAssertion.make(
            certificate: certificate, algorithm: algorithm, clientId: clientId, audience: endpoint, now: now)
        await cache.store(fresh)
        return (fresh, false)
    }
}

/// The last assertion signed, shared by every request of one run.
actor AssertionCache {
    private(set) var assertion: ClientAssertion?

    func store(_ assertion: ClientAssertion?) { self.assertion = assertion }
}
