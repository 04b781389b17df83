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
        try prepare(contents: contents).commit()
    }

    /// `replace(contents:)` with the bytes `encode` writes through a `PieceBuffer` of `pieceSize` bytes.
    ///
    /// Why: encoded whole, a state cache was a fresh buffer of its whole size (11 MB of search tokens, 8 MB of export
    /// rows at 100,000 people): writing the search token file was some 60 of a 100,000-person nightly run's 1,200
    /// samples, most of them clearing fresh pages (`PROFILE_CALL_GRAPH=dwarf Benchmarks/profile-nightly.sh`, then
    /// `python3 Benchmarks/scripts/perf_parts.py --part "token file=SearchTokenCache.encode"`).
    func replace(
        pieceSize: Int = 256 << 10,
        encodingInPieces encode: (inout PieceBuffer<WriteFailure>) throws(WriteFailure) -> Void
    ) throws(FileReplacement.Failure) {
        try prepare(pieceSize: pieceSize, encodingInPieces: encode).commit()
    }

    /// The first half of `replace(contents:)`: the new bytes written beside the file, which stays as it is until
    /// `Pending.commit`. On failure, removes the file and throws.
    func prepare(contents: FileReplacement.Contents) throws(FileReplacement.Failure) -> Pending {
        do {
            return Pending(
                cache: self,
                replacement: try FileReplacement.prepare(
                    url, mode: 0o644, sync: false, recycling: true, contents: contents))
        } catch {
            remove()
            throw error
        }
    }

    /// The first half of `replace(pieceSize:encodingInPieces:)`.
    func prepare(
        pieceSize: Int = 256 << 10,
        encodingInPieces encode: (inout PieceBuffer<WriteFailure>) throws(WriteFailure) -> Void
    ) throws(FileReplacement.Failure) -> Pending {
        try prepare { write in PieceBuffer.writing(pieceSize: pieceSize, to: write, encode) }
    }

    /// New contents written beside the file (`prepare`), waiting to replace it.
    struct Pending: Sendable {
        let cache: StateCacheFile
        let replacement: FileReplacement.Prepared

        /// Puts the new contents in place; on failure, removes the file and throws.
        func commit() throws(FileReplacement.Failure) {
            do {
                try replacement.commit()
            } catch {
                cache.remove()
                throw error
            }
        }

        /// Drops the new contents; the file stays as it was.
        func discard() {
            replacement.discard()
        }
    }

    /// A piece that could not be written: the error code the write gave.
    typealias WriteFailure = PieceWriteFailure

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
