import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells a person on stderr how the run is going: one updating line on a terminal, plain lines otherwise.
public final class ProgressReporter: Sendable {
    /// How much to say.
    public enum Mode: Sendable {
        /// Nothing (`--quiet`).
        case silent
        /// One line rewritten in place (stderr is a terminal).
        case terminal
        /// A line now and then, for logs (cron, CI).
        case lines
    }

    public let mode: Mode
    private let started = ContinuousClock.now

    public init(mode: Mode) {
        self.mode = mode
    }

    /// Picks `.terminal` or `.lines` from whether stderr is a TTY.
    public static func automatic(quiet: Bool) -> ProgressReporter {
        if quiet { return ProgressReporter(mode: .silent) }
        return ProgressReporter(mode: isatty(STDERR_FILENO) == 1 ? .terminal : .lines)
    }

    /// Reports fetch progress after a page.
    public func fetched(_ progress: FetchProgress) {
        let seconds = max(0.001, (ContinuousClock.now - started).seconds)
        let rate = Double(progress.users) / seconds
        var text = "fetching: \(progress.pages) page\(progress.pages == 1 ? "" : "s"), \(progress.users)"
        if let total = progress.expectedTotal { text += " of \(total)" }
        text += " people, \(Int(rate))/s"
        if let total = progress.expectedTotal, rate > 0, total > progress.users {
            text += ", about \(Int((Double(total - progress.users) / rate).rounded(.up))) s left"
        }
        switch mode {
        case .silent: return
        case .terminal: Self.writeStderr("\r\u{1B}[K" + text)
        case .lines: if progress.pages == 1 || progress.pages % 10 == 0 { Self.writeStderr(text + "\n") }
        }
    }

    /// Ends the updating line and prints a stage message.
    public func say(_ message: String) {
        switch mode {
        case .silent: return
        case .terminal: Self.writeStderr("\r\u{1B}[K" + message + "\n")
        case .lines: Self.writeStderr(message + "\n")
        }
    }

    static func writeStderr(_ text: String) {
        StandardStream.error.write(text)
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
