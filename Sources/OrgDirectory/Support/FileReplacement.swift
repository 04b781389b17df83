import CSystemShims
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file whole: the bytes go to a temporary file beside it (so a reader never sees half of them),
/// optionally synced, then renamed over it (or exchanged with it, when recycling). The one mechanism behind the
/// token cache and the state caches.
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
    ///
    /// With `recycling`, the bytes are written over the file that held `target`'s contents before the last
    /// replacement (kept beside it as `spare(of:)`), which then trades places with `target` in one atomic exchange:
    /// the contents just replaced become the next replacement's spare. Written over, a file keeps the pages it has
    /// (`OverwritableFile`): a nightly run replaces some 60 MB of state this way. Only for files that are not secret
    /// (the spare keeps the contents before) and replaced at most once a run: the spare may be the file the run read,
    /// mapped.
    /// Where the file system cannot exchange, the spare is renamed over `target` (no spare is kept).
    static func replace(
        _ target: URL, with bytes: some ContiguousBytes, then more: [[UInt8]] = [], mode: mode_t, sync: Bool,
        recycling: Bool = false
    ) throws(Failure) {
        try replace(target, mode: mode, sync: sync, recycling: recycling) { write in
            if let failed = bytes.withUnsafeBytes(write) { return (0, failed) }
            var size = bytes.withUnsafeBytes { $0.count }
            for part in more {
                if let failed = part.withUnsafeBytes(write) { return (size, failed) }
                size += part.count
            }
            return (size, nil)
        }
    }

    /// A file's contents written a piece at a time: handed a `write` that returns the error code of a piece that
    /// could not be written, it returns how many bytes it wrote and the error code that stopped it, if any.
    typealias Contents = (_ write: (UnsafeRawBufferPointer) -> Int32?) -> (size: Int, failed: Int32?)

    /// `replace(_:with:then:mode:sync:recycling:)` with the new contents handed over by `contents`.
    static func replace(
        _ target: URL, mode: mode_t, sync: Bool, recycling: Bool = false, contents: Contents
    ) throws(Failure) {
        try prepare(target, mode: mode, sync: sync, recycling: recycling, contents: contents).commit()
    }

    /// The first half of `replace(_:mode:sync:recycling:contents:)`: the new contents written under the temporary
    /// name, `target` untouched until `commit`. On failure nothing is left beside `target`.
    static func prepare(
        _ target: URL, mode: mode_t, sync: Bool, recycling: Bool = false, contents: Contents
    ) throws(Failure) -> Prepared {
        let temporary = try openTemporary(beside: target, mode: mode, recycling: recycling)
        let descriptor = temporary.descriptor
        var (size, failed) = contents { FileDescriptorWrite.all($0, to: descriptor) }
        if failed == nil, let reused = temporary.reused { failed = reused.cut(to: size) }
        if failed == nil, sync, fsync(descriptor) != 0 { failed = errno }
        if close(descriptor) != 0, failed == nil { failed = errno }
        if let code = failed {
            unlink(temporary.path)
            throw Failure(code, at: target.path, creating: false)
        }
        return Prepared(target: target, temporary: temporary.path, isSpare: temporary.isSpare)
    }

    /// A replacement whose new contents are complete under their temporary name (`prepare`), waiting to take the
    /// target's place.
    struct Prepared: Sendable {
        let target: URL
        let temporary: String
        /// Whether the temporary file is the target's spare, exchanged with it rather than renamed over it.
        let isSpare: Bool

        /// Puts the new contents in place: exchanged with the target (which becomes the spare) or renamed over it. On
        /// failure the temporary file is removed.
        func commit() throws(Failure) {
            guard
                isSpare && FileReplacement.exchange(temporary, with: target.path) || rename(temporary, target.path) == 0
            else {
                let code = errno
                unlink(temporary)
                throw Failure(code, at: target.path, creating: false)
            }
        }

        /// Removes the new contents; the target stays as it was.
        func discard() {
            unlink(temporary)
        }
    }

    /// The file `replace` writes before it takes `target`'s place, open to write: with `recycling`, the spare
    /// written over when it is a file of its own (`reused`, cut to length after the write) or else made again there;
    /// otherwise, or when something that is no file sits at the spare's name (a folder), a new file of a unique name.
    private static func openTemporary(beside target: URL, mode: mode_t, recycling: Bool) throws(Failure) -> (
        path: String, descriptor: Int32, reused: OverwritableFile?, isSpare: Bool
    ) {
        if recycling {
            let path = spare(of: target).path
            if let reused = OverwritableFile.open(path) { return (path, reused.descriptor, reused, true) }
            unlink(path)
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if descriptor >= 0 { return (path, descriptor, nil, true) }
            guard errno == EEXIST else {
                throw Failure(errno, at: path, creating: true)
            }
        }
        let path = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw Failure(errno, at: path, creating: true)
        }
        return (path, descriptor, nil, false)
    }

    /// Whether `spare` and `target` traded places in one atomic exchange. Only with a regular file: anything else at
    /// `target` (a folder) is no contents to keep, and the caller's rename fails on it as it would without recycling;
    /// false too where the file system cannot exchange (the caller renames, keeping no spare).
    private static func exchange(_ spare: String, with target: String) -> Bool {
        isRegularFile(target) && orgdir_exchange_paths(spare, target) == 0
    }

    /// Where a recycling `replace` keeps the contents `target` had before its last replacement: `.<name>.spare`
    /// beside it. Whoever removes `target` removes this too (`remove(_:)`).
    static func spare(of target: URL) -> URL {
        target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).spare")
    }

    /// Copies `target` as its spare when it has none, so that its next recycling replacement writes over pages the file
    /// system holds already rather than making a new file: what a first build leaves its first nightly, as every
    /// nightly leaves the next (`SitePublisher.keepCopiesForFirstUpdate` says why). The spare is never read, so a copy
    /// left short does no harm. False when a spare (or anything) is there already, `target` is no regular file, or
    /// the copy fails.
    @discardableResult
    static func keepSpareCopy(of target: URL) -> Bool {
        var status = stat()
        let spare = spare(of: target).path
        guard lstat(spare, &status) != 0, errno == ENOENT else { return false }
        return FileCopy.copy(target.path, to: spare)
    }

    /// Removes `target` and its spare, whatever they are (a folder in the way too), if there are.
    static func remove(_ target: URL) {
        try? FileManager.default.removeItem(at: target)
        try? FileManager.default.removeItem(at: spare(of: target))
    }

    /// Whether `path` is a regular file (not followed if it is a symbolic link).
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}

extension FileReplacement.Failure {
    /// The failure of the `errno` `code` at `path`, in `FileDescriptorWrite.describe`'s words (with the advice for a
    /// full or inode-less file system, which needs the path).
    init(_ code: Int32, at path: String, creating: Bool) {
        self.init(path: path, reason: FileDescriptorWrite.describe(code, at: path), creating: creating)
    }
}
