/// How the sandbox's simulated person behaves during delegated sign-in, so tests can walk every branch
/// quickly: how long device-code polling stays pending, whether it is told to slow down, whether the person
/// declines.
public struct DelegatedSignInScript: Sendable {
    /// `interval` the device code endpoint announces, in seconds (Entra: 5).
    public var interval: Int
    /// How many polls answer `authorization_pending` before anything else.
    public var pendingAnswers: Int
    /// How many polls then answer `slow_down` (each raises the expected interval by 5 s, RFC 8628).
    public var slowDownAnswers: Int
    /// Seconds a device code lives (`expires_in`; Entra: 900).
    public var codeLifetime: Int
    /// The person declines: device code polling ends in `authorization_declined`, `/authorize` redirects
    /// with `access_denied`.
    public var declines: Bool

    public init(
        interval: Int = 5, pendingAnswers: Int = 2, slowDownAnswers: Int = 1, codeLifetime: Int = 900,
        declines: Bool = false
    ) {
        self.interval = interval
        self.pendingAnswers = pendingAnswers
        self.slowDownAnswers = slowDownAnswers
        self.codeLifetime = codeLifetime
        self.declines = declines
    }
}

/// A workload identity federation trust on the app: tokens from `issuer` about `subject`, for `audience`,
/// signed by the key in `publicKeyPEM` (an RSA `PUBLIC KEY` or a certificate), are accepted as assertions.
public struct FederatedCredential: Sendable {
    public var issuer: String
    public var subject: String
    public var audience: String
    public var publicKeyPEM: String

    public init(
        issuer: String, subject: String, audience: String = "api://AzureADTokenExchange", publicKeyPEM: String
    ) {
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.publicKeyPEM = publicKeyPEM
    }
}
