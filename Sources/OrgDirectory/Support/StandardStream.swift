import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output and standard error written with `write(2)` directly.
///
/// Why not `FileHandle.standardError.write(_:)`: on Linux it traps on any write error (a `try!` inside
/// Foundation), so `orgdir diff | head` or a signal landing mid-write would crash the tool instead of
/// ending it quietly. Here an interrupted write is retried and a closed reader ends the writing.
public enum StandardStream: Sendable {
    case output
    case error

    private var descriptor: Int32 {
        switch self {
        case .output: STDOUT_FILENO
        case .error: STDERR_FILENO
        }
    }

    /// Writes all of `text`; gives up silently when the reader has gone (nobody is left to tell).
    public func write(_ text: String) {
        write(Data(text.utf8))
    }

    /// Writes all of `data`, retrying writes a signal interrupted (see `FileDescriptorWrite`).
    public func write(_ data: Data) {
        _ = data.withUnsafeBytes { FileDescriptorWrite.all($0, to: descriptor) }
    }
}
