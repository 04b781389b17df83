/// Why the sandbox could not start or be driven.
public enum SandboxError: Error, Sendable, CustomStringConvertible {
    /// The loopback port could not be bound or the server did not come up.
    case cannotListen(port: UInt16, reason: String)
    /// `start()` was called on a running sandbox.
    case alreadyRunning

    public var description: String {
        switch self {
        case .cannotListen(let port, let reason):
            "graph sandbox: cannot listen on 127.0.0.1:\(port == 0 ? "any port" : String(port)): \(reason); "
                + "pick another port or free this one"
        case .alreadyRunning:
            "graph sandbox: already running; call stop() first"
        }
    }
}
