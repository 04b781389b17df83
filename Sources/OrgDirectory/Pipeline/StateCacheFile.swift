import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file in the state folder holding what a run keeps for the next one only to save time (search tokens, export
/// rows): read whole, replaced through a temporary file and a rename, and removed when it cannot be written, so a
/// stale one is never trusted. A missing or unreadable file reads as nil: the next run does the work itself.
struct StateCacheFile: Sendable {
    let url: URL

    init(_ name: String, in stateDirectory: URL) {
        url = stateDirectory.appendingPathComponent(name)
    }

    /// What `decode` makes of the file's bytes, else nil. The bytes are the file mapped when it can be
    /// (`MappedFile.contents`), valid only during `decode`.
    func read<Value>(_ decode: (UnsafeRawBufferPointer) -> Value?) -> Value? {
        Self.read(url, decode)
    }

    /// `read(_:)` of any file: nil when it cannot be read.
    static func read<Value>(_ url: URL, _ decode: (UnsafeRawBufferPointer) -> Value?) -> Value? {
        guard let data = try? MappedFile.contents(of: url) else { return nil }
        return data.withUnsafeBytes(decode)
    }

    /// Replaces the file with the bytes handed over by `contents`, a piece at a time, written over the contents it
    /// had the run before last (see `FileReplacement.replace(_:mode:sync:recycling:contents:)`); on failure, removes
    /// it and throws.
    func replace(
        contents: FileReplacement.Contents
    ) throws(FileReplacement.Failure) {
        do {
            try FileReplacement.replace(url, mode: 0o644, sync: false, recycling: true, contents: contents)
        } catch {
            remove()
            throw error
        }
    }

    /// `replace(contents:)` with the bytes `encode` appends to the buffer it is handed, written a piece of about
    /// `pieceSize` bytes at a time: `encode` calls `flush` with the buffer after each entry, and a buffer that holds a
    /// piece goes to the file and starts over.
    ///
    /// Why: encoded whole, a state cache was a fresh buffer of its whole size (11 MB of search tokens, 8 MB of export
    /// rows at 100,000 people), and on these machines each fresh 2 MiB page costs about a millisecond to fault in and
    /// clear: writing the search token file was some 60 of a 100,000-person nightly run's 1,200 samples, 40 of them
    /// clearing pages (`PROFILE_CALL_GRAPH=dwarf Benchmarks/profile-nightly.sh`). One piece's buffer is reused all
    /// the way through.
    func replace(
        pieceSize: Int = 256 << 10, encodingInPieces encode: (inout [UInt8], _ flush: (inout [UInt8]) -> Void) -> Void
    ) throws(FileReplacement.Failure) {
        try replace { write in
            // The writer outlives nothing here; escaping only lets `flush` hand it to `encode`.
            withoutActuallyEscaping(write) { write in
                let piece = PieceWriter(size: pieceSize, write: write)
                var buffer: [UInt8] = []
                buffer.reserveCapacity(pieceSize + 4096)
                encode(&buffer) { piece.flush(&$0, whole: false) }
                piece.flush(&buffer, whole: true)
                return (piece.written, piece.failed)
            }
        }
    }

    /// Where `replace(encodingInPieces:)` sends the full buffers, and what came of it.
    final class PieceWriter {
        let size: Int
        let write: (UnsafeRawBufferPointer) -> Int32?
        private(set) var written = 0
        /// The error code of the first piece that could not be written; nothing is written after it.
        private(set) var failed: Int32?

        init(size: Int, write: @escaping (UnsafeRawBufferPointer) -> Int32?) {
            self.size = size
            self.write = write
        }

        /// Writes `bytes` and empties them, when they hold a piece or are the `whole` rest.
        func flush(_ bytes: inout [UInt8], whole: Bool) {
            guard whole || bytes.count >= size else { return }
            if failed == nil {
                failed = bytes.withUnsafeBytes(write)
                if failed == nil { written += bytes.count }
            }
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Forgets the file (and the spare its replacements keep).
    func remove() {
        FileReplacement.remove(url)
    }

    /// Forgets the file's contents until the next `replace`, which writes over them: the file becomes the spare
    /// (`FileReplacement.spare(of:)`, never read), where removing it left the next `replace` to make a new file.
    /// The export row table is cleared this way before every publish; the run read the table before, and `read`
    /// decodes (copies) what it needs while the file is mapped, so nothing reads the file after. Anything but a
    /// regular file at the name (a folder in the way) is removed.
    func clear() {
        if FileReplacement.isRegularFile(url.path), rename(url.path, FileReplacement.spare(of: url).path) == 0 {
            return
        }
        try? FileManager.default.removeItem(at: url)
    }
}
