import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file in the state folder holding what a run keeps for the next one only to save time (search tokens, export
/// rows): read whole, replaced through a temporary file and a rename, and removed when it cannot be written, so a
/// stale one is never trusted. A missing or unreadable file reads as nil: the next run does the work itself.
struct StateCacheFile: Sendable {
    let url: URL

    /// Why a cache file could not be replaced, with the path and the system's reason (Foundation's own error
    /// only said "The operation could not be completed" here).
    struct WriteError: LocalizedError {
        let path: String
        let reason: String

        var errorDescription: String? { "cannot write \(path): \(reason)" }
    }

    init(_ name: String, in stateDirectory: URL) {
        url = stateDirectory.appendingPathComponent(name)
    }

    /// The file's bytes, else nil.
    func read() -> [UInt8]? {
        (try? Data(contentsOf: url)).map { Array($0) }
    }

    /// Replaces the file with `bytes`; on failure, removes it and throws.
    func replace(with bytes: [UInt8]) throws(WriteError) {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).tmp"
        ).path
        do throws(WriteError) {
            try Self.write(bytes, to: temporary)
            guard rename(temporary, url.path) == 0 else {
                throw WriteError(path: url.path, reason: FileDescriptorWrite.describe(errno))
            }
        } catch {
            unlink(temporary)
            remove()
            throw error
        }
    }

    /// Forgets the file.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `bytes` to a new file at `path` (replacing one there).
    private static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: FileDescriptorWrite.describe(errno)) }
        let failed = bytes.withUnsafeBytes { FileDescriptorWrite.all($0, to: descriptor) }
        let closed = close(descriptor) == 0 ? nil : errno
        if let code = failed ?? closed { throw WriteError(path: path, reason: FileDescriptorWrite.describe(code)) }
    }
}
