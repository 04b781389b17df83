import Foundation

/// Where rendered files go; the Publish stage implements it over a staging folder.
///
/// The renderer writes deterministic bytes (same input, same bytes) so an implementation can skip
/// files whose bytes equal the published ones. `write` is called from several tasks at once.
public protocol SiteOutput: Sendable {
    /// Writes one file; `relativePath` uses `/` and never starts with `/` or contains `..`.
    func write(_ bytes: [UInt8], to relativePath: String) throws

    /// Puts the published site's files at `relativePaths` into the new site unchanged, all or none; false when
    /// any of them is missing or this output has no published site. Called instead of rendering files whose
    /// inputs are known to be unchanged.
    func carryOver(_ relativePaths: [String]) -> Bool
}

extension SiteOutput {
    /// Outputs without a published site to take files from render everything.
    public func carryOver(_ relativePaths: [String]) -> Bool { false }
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
}
