import Foundation

/// Where rendered files go; the Publish stage implements it over a staging folder.
///
/// The renderer writes deterministic bytes (same input, same bytes) so an implementation can skip
/// files whose bytes equal the published ones. `write` is called from several tasks at once.
public protocol SiteOutput: Sendable {
    /// Writes one file; `relativePath` uses `/` and never starts with `/` or contains `..`.
    func write(_ bytes: [UInt8], to relativePath: String) throws

    /// Writes one large file from pieces that `produce` hands to its `emit` argument in order, so an export of
    /// a million people is never whole in memory.
    func write(to relativePath: String, pieces produce: SitePieceProducer) throws

    /// Puts the published site's files at `relativePaths` into the new site unchanged, all or none; false when
    /// any of them is missing or this output has no published site. Called instead of rendering files whose
    /// inputs are known to be unchanged.
    func carryOver(_ relativePaths: [String]) -> Bool

    /// Removes a file written earlier in the same render (a page prerendered on links that turned out wrong);
    /// a missing file is not an error.
    func remove(_ relativePath: String) throws

    /// Counts `fileCount` files as left as they already are in this output, true when that is possible: an
    /// output that starts as an earlier copy of the site (a recycled staging folder) already holds the files of
    /// people whose fingerprint matches that copy's, so the caller need not even name them.
    func keepInPlace(fileCount: Int) -> Bool

    /// Whether `keepInPlace` can count files here, asked without counting any: a render asks once and counts a
    /// chunk's kept files at once.
    var keepsInPlace: Bool { get }

    /// Whether this output started holding files of an earlier site, which the render must sweep away where it
    /// does not write them (`removeStale`), even with no fingerprints saying which they are.
    var holdsEarlierFiles: Bool { get }

    /// Removes what an output that started as an earlier copy of the site holds under `folder` ("" for all of
    /// it, the folders in `skipped` aside) beyond the paths `keep` accepts; the paths of files this render writes
    /// must all be accepted.
    func removeStale(in folder: String, skipping skipped: Set<String>, keeping keep: (String) -> Bool) throws
}

/// Produces a file in pieces: calls `emit` with each piece, in order.
public typealias SitePieceProducer = (_ emit: @escaping ([UInt8]) throws -> Void) throws -> Void

extension SiteOutput {
    /// Gathers the pieces and writes them at once: right for outputs that hold files in memory anyway.
    public func write(to relativePath: String, pieces produce: SitePieceProducer) throws {
        let gathered = GatheredPieces()
        try produce { gathered.bytes += $0 }
        try write(gathered.bytes, to: relativePath)
    }

    /// Outputs without a published site to take files from render everything.
    public func carryOver(_ relativePaths: [String]) -> Bool { false }

    /// Outputs that start empty hold nothing to keep.
    public func keepInPlace(fileCount: Int) -> Bool { false }

    /// Outputs that start empty hold nothing to keep.
    public var keepsInPlace: Bool { false }

    /// Outputs that start empty hold nothing stale.
    public var holdsEarlierFiles: Bool { false }

    /// Outputs that start empty hold nothing stale.
    public func removeStale(in folder: String, skipping skipped: Set<String>, keeping keep: (String) -> Bool) throws {}
}

/// The pieces of one file, gathered (the producer's `emit` is escaping, so it cannot capture a local `var`).
private final class GatheredPieces {
    var bytes: [UInt8] = []
}

/// A `SiteOutput` writing straight into a folder, creating subfolders as needed (tests, `render` tooling).
public struct DirectorySiteOutput: SiteOutput {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public func write(_ bytes: [UInt8], to relativePath: String) throws {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    public func remove(_ relativePath: String) throws {
        let url = root.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }
}
