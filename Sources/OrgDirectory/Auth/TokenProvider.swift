import Foundation

/// Hands out a valid access token, fetching a new one ahead of expiry and after a rejection.
///
/// One actor per run, so concurrent requests share one token and one refresh.
public actor TokenProvider {
    private let grant: any CredentialGrant
    private let transport: HTTPTransport
    /// Refresh when fewer than this many seconds remain (Microsoft's libraries use 5 minutes).
    private let margin: TimeInterval
    private var current: AccessToken?
    private var currentLifetime: TimeInterval = 3600
    private var pending: Task<AccessToken, any Error>?
    /// How many tokens were obtained, for the run summary and tests.
    public private(set) var tokensIssued = 0

    public init(grant: any CredentialGrant, transport: HTTPTransport, margin: TimeInterval = 300) {
        self.grant = grant
        self.transport = transport
        self.margin = margin
    }

    /// A token with at least `margin` seconds left (or a fresh one if the grant issues short-lived tokens).
    public func token() async throws(AuthError) -> AccessToken {
        if let current, !current.isExpiring(within: min(margin, lifetimeMargin(current))) { return current }
        return try await refresh()
    }

    /// Forgets `rejected` (Graph said 401) so the next call fetches a new one.
    public func invalidate(_ rejected: AccessToken) {
        if current == rejected { current = nil }
    }

    private func refresh() async throws(AuthError) -> AccessToken {
        if let pending {
            return try await Self.await(pending)
        }
        let grant = grant
        let transport = transport
        let task = Task { try await grant.requestToken(using: transport) }
        pending = task
        defer { pending = nil }
        let token = try await Self.await(task)
        current = token
        currentLifetime = max(0, token.expiresAt.timeIntervalSinceNow)
        tokensIssued += 1
        return token
    }

    /// A token issued for less than twice the margin is refreshed at half its life instead of at once.
    private func lifetimeMargin(_ token: AccessToken) -> TimeInterval {
        currentLifetime / 2
    }

    private static func await(_ task: Task<AccessToken, any Error>) async throws(AuthError) -> AccessToken {
        do {
            return try await task.value
        } catch let error as AuthError {
            throw error
        } catch {
            throw .unreachable(endpoint: "token endpoint", reason: String(describing: error))
        }
    }
}
