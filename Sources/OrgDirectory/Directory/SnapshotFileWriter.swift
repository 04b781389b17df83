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
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(
            Self.temporaryPrefix + destination.lastPathComponent + "." + String(getpid()) + "."
                + String(UInt32.random(in: 0...UInt32.max), radix: 16) + Self.temporarySuffix)
        do {
            try Self.writeAndSync(to: temporary.path, produce)
            try beforeRename?(temporary)
            guard rename(temporary.path, destination.path) == 0 else {
                throw SnapshotError.writeFailed(path: destination.path, reason: Self.lastError("rename"))
            }
        } catch {
            unlink(temporary.path)
            if let error = error as? SnapshotError { throw error }
            throw .writeFailed(path: destination.path, reason: error.localizedDescription)
        }
        Self.syncFolder(folder.path)
    }

    /// Creates `path` (which must not exist), writes every piece and flushes it to the disk.
    private static func writeAndSync(
        to path: String, _ produce: ((Data) throws(SnapshotError) -> Void) throws(SnapshotError) -> Void
    ) throws(SnapshotError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .writeFailed(path: path, reason: lastError("create")) }
        defer { close(descriptor) }
        try produce { (piece: Data) throws(SnapshotError) in
            try writeAll(piece, to: descriptor, path: path)
        }
        guard fsync(descriptor) == 0 else { throw .writeFailed(path: path, reason: lastError("fsync")) }
    }

    /// `write(2)` until every byte is out (it may write less than asked).
    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(SnapshotError) {
        let failure: String? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = posixWrite(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return lastError("write")
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .writeFailed(path: path, reason: failure) }
    }

    /// Flushes a folder's entries (the rename). Best effort: some file systems refuse fsync on folders.
    private static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    static func lastError(_ operation: String) -> String {
        "\(operation): " + String(cString: strerror(errno))
    }
}

/// `write(2)`, named apart from `SnapshotFileWriter.write(_:to:)`.
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
    #else
        Darwin.write(descriptor, buffer, count)
    #endif
}
