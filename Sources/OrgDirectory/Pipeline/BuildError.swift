import Foundation

/// Why `orgdir build` stopped, with the exit code a scheduler can act on.
public enum BuildError: Error, Sendable, LocalizedError {
    case config(ConfigError)
    case auth(AuthError)
    case graph(GraphError)
    case site(String)
    case publish(PublishError)
    case state(String)
    case locked(RunLockError)
    case removalGuard(RemovalGuardError)

    public var errorDescription: String? {
        switch self {
        case .config(let error): error.errorDescription
        case .auth(let error): error.errorDescription
        case .graph(let error): error.errorDescription
        case .site(let message): "rendering the site failed: \(message)"
        case .publish(let error): error.errorDescription
        case .state(let message): message
        case .locked(let error): error.errorDescription
        case .removalGuard(let error): error.errorDescription
        }
    }

    /// The process exit code (see README, "Exit codes").
    public var exitCode: Int32 {
        switch self {
        case .config: ExitStatus.config
        case .auth(let error): error.isTransient ? ExitStatus.tryAgainLater : ExitStatus.signIn
        case .graph(.auth(let error)): error.isTransient ? ExitStatus.tryAgainLater : ExitStatus.signIn
        case .graph(let error): error.isTransient ? ExitStatus.tryAgainLater : ExitStatus.graphRejected
        case .site: ExitStatus.output
        case .publish: ExitStatus.output
        case .state: ExitStatus.output
        case .locked(.held): ExitStatus.locked
        // A lock file that cannot be made or written (a full disk, a read-only folder) is a state folder that cannot
        // be written, not another run: exit 4 told a scheduler to wait for a run that was never there.
        case .locked(.unavailable): ExitStatus.output
        case .removalGuard: ExitStatus.removalGuard
        }
    }
}

/// orgdir's exit codes, from sysexits(3) where one fits.
public enum ExitStatus {
    public static let success: Int32 = 0
    /// `orgdir diff`: the snapshots differ (like diff(1)).
    public static let different: Int32 = 1
    /// The mass-removal guard stopped the run; rerun with --accept-removals if the removals are real.
    public static let removalGuard: Int32 = 3
    /// Another orgdir run holds the lock.
    public static let locked: Int32 = 4
    /// Bad command line (EX_USAGE).
    public static let usage: Int32 = 64
    /// Graph refused the request and retrying will not help (EX_UNAVAILABLE).
    public static let graphRejected: Int32 = 69
    /// Internal error (EX_SOFTWARE).
    public static let software: Int32 = 70
    /// Cannot write the output or state folder (EX_CANTCREAT).
    public static let output: Int32 = 73
    /// Network, throttling or outage: try again later (EX_TEMPFAIL).
    public static let tryAgainLater: Int32 = 75
    /// Sign-in failed: credentials, tenant, consent (EX_NOPERM).
    public static let signIn: Int32 = 77
    /// settings.plist is invalid (EX_CONFIG).
    public static let config: Int32 = 78
}
