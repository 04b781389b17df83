import Foundation

/// Reads and writes `render-fingerprints.txt` in the state folder: the per-person render fingerprints of the
/// run that published the current site; and `render-fingerprints-spare.txt`, those of the site that run
/// replaced, kept beside the output as the publisher's spare.
///
/// The published file is moved to the spare's name before a new site is swapped in (the site it describes
/// becomes the spare), and written again after, so it never describes a site other than the published one: a
/// run that dies in between leaves no file, and the next run renders everyone. The spare's file is taken (read
/// and deleted) before the spare is changed, for the same reason.
public struct RenderFingerprintStore: Sendable {
    public let file: URL
    /// The fingerprints of the publisher's spare folder.
    public let spareFile: URL
    /// The published folder the fingerprints must describe.
    let output: String

    public init(stateDirectory: URL, output: URL) {
        file = stateDirectory.appendingPathComponent("render-fingerprints.txt")
        spareFile = stateDirectory.appendingPathComponent("render-fingerprints-spare.txt")
        self.output = output.standardizedFileURL.path
    }

    /// The published site's fingerprints and, with `spare`, the spare folder's, both read and neither taken.
    /// A run reads them while it syncs: decoded on the way into the render, two files of a hundred thousand lines
    /// each were a tenth of a second in which nothing else could run. The spare's file stays until `clearSpare()`,
    /// called when the spare is about to change, so a run that fails before that leaves it usable.
    /// With `publishedSlugs`, the published site's are read with their slugs, as the spare's are: a run that moves
    /// its changes into the published site updates that site in place, as a whole-site publish updates its spare.
    public func read(spare: Bool, publishedSlugs: Bool = false) -> Stored {
        Stored(published: decoded(file, slugs: publishedSlugs), spare: spare ? decoded(spareFile) : nil)
    }

    /// What `read(spare:)` found.
    public struct Stored: Sendable {
        public var published: RenderFingerprints?
        public var spare: RenderFingerprints?
    }

    /// Makes the published site's fingerprints the spare's (before the published site becomes the spare).
    public func retirePublished() {
        if rename(file.path, spareFile.path) != 0 { clear() }
    }

    /// Forgets the spare's fingerprints (the replaced site was not kept).
    public func clearSpare() {
        try? FileManager.default.removeItem(at: spareFile)
    }

    /// The stored fingerprints, or nil when there are none or they belong to another version or output folder.
    public func load() -> RenderFingerprints? {
        decoded(file)
    }

    /// The fingerprints in `url`, or nil when it cannot be read or does not describe `output` in this version;
    /// with `slugs`, the people's slugs too (needed only for the spare, which a run updates in place).
    private func decoded(_ url: URL, slugs: Bool = true) -> RenderFingerprints? {
        // With slugs, the lines a run copies from: the file stays mapped for that (`LineText`).
        if slugs, let file = MappedFile(path: url.path) { return RenderFingerprints.decode(file, output: output) }
        return StateCacheFile.read(url) { RenderFingerprints.decode($0, output: output, slugs: slugs) }
    }

    /// Writes through a synced temporary file and a rename, as snapshots are written.
    public func save(_ fingerprints: RenderFingerprints) throws(SnapshotError) {
        try written(fingerprints).commit()
    }

    /// The first half of `save`: the fingerprints written and synced under a temporary name, renamed into place by
    /// the pending save's `commit`.
    func prepareSave(_ fingerprints: RenderFingerprints) throws(SnapshotError) -> PendingStateSave {
        let pending = try written(fingerprints)
        return PendingStateSave(commit: { try pending.commit() }, discard: pending.discard)
    }

    private func written(_ fingerprints: RenderFingerprints) throws(SnapshotError) -> SnapshotFileWriter.PendingFile {
        try SnapshotFileWriter().prepare(to: file) {
            (emit: (Data) throws(SnapshotError) -> Void) throws(SnapshotError) in
            try fingerprints.encode { (piece: [UInt8]) throws(SnapshotError) in try emit(Data(piece)) }
        }
    }

    /// Forgets the fingerprints (before the published site is replaced).
    public func clear() {
        try? FileManager.default.removeItem(at: file)
    }
}
