import Foundation

/// A file in the state folder holding what a run keeps for the next one only to save time (search tokens, export
/// rows): read whole, replaced through a temporary file and a rename, and removed when it cannot be written, so a
/// stale one is never trusted. A missing or unreadable file reads as nil: the next run does the work itself.
struct StateCacheFile: Sendable {
    let url: URL

    init(_ name: String, in stateDirectory: URL) {
        url = stateDirectory.appendingPathComponent(name)
    }

    /// The file's bytes, else nil.
    func read() -> [UInt8]? {
        (try? Data(contentsOf: url)).map { Array($0) }
    }

    /// Replaces the file with `bytes`; on failure, removes it and throws.
    func replace(with bytes: [UInt8]) throws(FileReplacement.Failure) {
        do {
            try FileReplacement.replace(url, with: bytes, mode: 0o644, sync: false)
        } catch {
            remove()
            throw error
        }
    }

    /// Forgets the file.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
