import Foundation

/// How long a request may keep trying through throttling and outages before the run gives up.
///
/// Microsoft's SDKs retry 429/503/504 a few times and cap the total wait; a nightly job can afford more
/// patience, but must still end so the next night can try again.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts per request, the first one included.
    public var maxAttempts: Int
    /// Upper bound on the seconds one request may spend waiting between attempts, in total.
    public var maxTotalWait: TimeInterval
    /// First backoff step when the server gives no `Retry-After`; doubles each attempt.
    public var baseDelay: TimeInterval
    /// Cap on a single wait.
    public var maxDelay: TimeInterval

    public init(maxAttempts: Int, maxTotalWait: TimeInterval, baseDelay: TimeInterval = 1, maxDelay: TimeInterval = 120)
    {
        self.maxAttempts = maxAttempts
        self.maxTotalWait = maxTotalWait
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    public static let standard = RetryPolicy(maxAttempts: 8, maxTotalWait: 600)

    /// Exponential backoff with full jitter for attempt `n` (1-based) when the server gave no hint.
    func backoff(afterAttempt attempt: Int) -> TimeInterval {
        let exponential = min(maxDelay, baseDelay * pow(2, Double(max(0, attempt - 1))))
        return Double.random(in: (exponential / 2)...exponential)
    }
}
