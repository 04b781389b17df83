import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file whole: the bytes go to a new temporary file beside it (so a reader never sees half of them),
/// optionally synced, then renamed over it. The one mechanism behind the token cache and the state caches.
enum FileReplacement {
    /// Why a replacement failed: the file the failing step worked on, the system's reason, and whether the
    /// temporary file could not even be created.
    struct Failure: LocalizedError {
        let path: String
        let reason: String
        let creating: Bool

        var errorDescription: String? { "cannot \(creating ? "create" : "write") \(path): \(reason)" }
    }

    /// Replaces `target` with `bytes` followed by the parts `more` (written as they are, not joined first), the new
    /// file made with `mode`; `sync` flushes it to disk before the rename.
    /// On failure nothing is left beside `target`.
    static func replace(
        _ target: URL, with bytes: some ContiguousBytes, then more: [[UInt8]] = [], mode: mode_t, sync: Bool
    ) throws(Failure) {
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw Failure(path: temporary, reason: FileDescriptorWrite.describe(errno), creating: true)
        }
        var failed = bytes.withUnsafeBytes { FileDescriptorWrite.all($0, to: descriptor) }
        if failed == nil {
            for part in more {
                failed = part.withUnsafeBytes { FileDescriptorWrite.all($0, to: descriptor) }
                if failed != nil { break }
            }
        }
        if failed == nil, sync, fsync(descriptor) != 0 { failed = errno }
        if close(descriptor) != 0, failed == nil { failed = errno }
        if failed == nil, rename(temporary, target.path) != 0 { failed = errno }
        if let code = failed {
            unlink(temporary)
            throw Failure(path: target.path, reason: FileDescriptorWrite.describe(code), creating: false)
        }
    }
}
