import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file so that readers (and a crash) see either the old state or the complete new file, never a part.
///
/// The bytes go to a hidden temporary file in the same folder, are flushed to disk with `fsync`, and the file is
/// renamed into place; the folder is synced too so the rename itself survives a power cut.
struct SnapshotFileWriter: Sendable {
    /// Called after the temporary file is complete and before it is renamed; tests use it to fail at that moment.
    var beforeRename: (@Sendable (URL) throws -> Void)?

    /// The prefix and suffix of temporary files, so leftovers from a crashed run can be recognised.
    static let temporaryPrefix = "."
    static let temporarySuffix = ".tmp"

    /// Writes `data` to `destination` atomically, replacing any file already there.
    func write(_ data: Data, to destination: URL) throws(SnapshotError) {
        try write(to: destination) { (emit: (Data) throws(SnapshotError) -> Void) throws(SnapshotError) in
            try emit(data)
        }
    }

    /// Writes the pieces `produce` hands to its `emit` argument, in order, to `destination` atomically.
    func write(
        to destination: URL,
        _ produce: ((Data) throws(SnapshotError) -> Void) throws(SnapshotError) -> Void
    ) throws(SnapshotError) {
        try prepare(to: destination, produce).commit()
    }

    /// Writes and flushes the pieces under a temporary name next to `destination`, to be renamed into place by
    /// `commit` later (or removed by `discard`): a build writes its snapshot while the site renders and renames
    /// it only once the site is published.
    func prepare(
        to destination: URL,
        _ produce: ((Data) throws(SnapshotError) -> Void) throws(SnapshotError) -> Void
    ) throws(SnapshotError) -> PendingFile {
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(
            Self.temporaryPrefix + destination.lastPathComponent + "." + String(getpid()) + "."
                + String(UInt32.random(in: 0...UInt32.max), radix: 16) + Self.temporarySuffix)
        do {
            try Self.writeAndSync(to: temporary.path, produce)
        } catch {
            unlink(temporary.path)
            throw error
        }
        return PendingFile(temporary: temporary, destination: destination, beforeRename: beforeRename)
    }

    /// A complete file under its temporary name, waiting to be renamed into place.
    struct PendingFile: Sendable {
        let temporary: URL
        let destination: URL
        let beforeRename: (@Sendable (URL) throws -> Void)?

        /// Renames the file into place (replacing any file there) and syncs the folder; on failure the temporary
        /// file is removed.
        func commit() throws(SnapshotError) {
            do {
                try beforeRename?(temporary)
                guard rename(temporary.path, destination.path) == 0 else {
                    throw SnapshotError.writeFailed(
                        path: destination.path, reason: SnapshotFileWriter.lastError("rename", at: destination.path))
                }
            } catch {
                discard()
                if let error = error as? SnapshotError { throw error }
                throw .writeFailed(path: destination.path, reason: error.localizedDescription)
            }
            SnapshotFileWriter.syncFolder(destination.deletingLastPathComponent().path)
        }

        /// Removes the temporary file.
        func discard() {
            unlink(temporary.path)
        }
    }

    /// Creates `path` (which must not exist), writes every piece and flushes it to the disk.
    private static func writeAndSync(
        to path: String, _ produce: ((Data) throws(SnapshotError) -> Void) throws(SnapshotError) -> Void
    ) throws(SnapshotError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .writeFailed(path: path, reason: lastError("create", at: path)) }
        defer { close(descriptor) }
        try produce { (piece: Data) throws(SnapshotError) in
            try writeAll(piece, to: descriptor, path: path)
        }
        guard fsync(descriptor) == 0 else { throw .writeFailed(path: path, reason: lastError("fsync", at: path)) }
    }

    /// Writes all of `data` (see `FileDescriptorWrite`).
    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(SnapshotError) {
        if let code = data.withUnsafeBytes({ FileDescriptorWrite.all($0, to: descriptor) }) {
            throw .writeFailed(path: path, reason: "write: " + FileDescriptorWrite.describe(code, at: path))
        }
    }

    /// Flushes a folder's entries (the rename). Best effort: some file systems refuse fsync on folders.
    fileprivate static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// `errno`'s words after a failed `operation` at `path`; `errno` is read before any text is made.
    static func lastError(_ operation: String, at path: String) -> String {
        let code = errno
        return "\(operation): " + FileDescriptorWrite.describe(code, at: path)
    }
}
