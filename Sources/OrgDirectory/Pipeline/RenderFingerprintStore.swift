import Foundation

/// Reads and writes `render-fingerprints.txt` in the state folder: the per-person render fingerprints of the
/// run that published the current site.
///
/// The file is removed before a new site is swapped in and written again after, so it never describes a site
/// other than the published one: a run that dies in between leaves no file, and the next run renders everyone.
public struct RenderFingerprintStore: Sendable {
    public let file: URL
    /// The published folder the fingerprints must describe.
    let output: String

    public init(stateDirectory: URL, output: URL) {
        file = stateDirectory.appendingPathComponent("render-fingerprints.txt")
        self.output = output.standardizedFileURL.path
    }

    /// The stored fingerprints, or nil when there are none or they belong to another version or output folder.
    public func load() -> RenderFingerprints? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return RenderFingerprints.decode(Array(data), output: output)
    }

    /// Writes through a synced temporary file and a rename, as snapshots are written.
    public func save(_ fingerprints: RenderFingerprints) throws(SnapshotError) {
        try SnapshotFileWriter().write(Data(fingerprints.encoded()), to: file)
    }

    /// Forgets the fingerprints (before the published site is replaced).
    public func clear() {
        try? FileManager.default.removeItem(at: file)
    }
}
