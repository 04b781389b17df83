import Foundation

/// Everything that can go wrong reading, writing or finding snapshots, each naming the file and what to do.
public enum SnapshotError: Error, Sendable, Equatable, LocalizedError {
    /// The snapshot folder cannot be created or read.
    case folderUnavailable(path: String, reason: String)
    /// Writing a snapshot failed; nothing was recorded and earlier snapshots are untouched.
    case writeFailed(path: String, reason: String)
    case readFailed(path: String, reason: String)
    /// The file is not a complete snapshot (truncated, edited, or not a snapshot at all).
    case corrupt(path: String, reason: String)
    /// Written by a newer orgdir whose format this one does not know.
    case newerSchema(path: String, found: Int, supported: Int)
    case encodingFailed(reason: String)
    /// A reference (`latest`, a date, a name, a path) that matches no snapshot.
    case notFound(reference: String, folder: String, available: [String])
    /// `latest` or `previous` asked for more snapshots than there are.
    case notEnoughSnapshots(reference: String, folder: String, count: Int)

    public var errorDescription: String? {
        switch self {
        case .folderUnavailable(let path, let reason):
            "\(path): cannot use the snapshot folder: \(reason) (check the plist's 'state' key or --state)"
        case .writeFailed(let path, let reason):
            "\(path): cannot write the snapshot: \(reason); earlier snapshots are untouched"
        case .readFailed(let path, let reason):
            "\(path): cannot read the snapshot: \(reason)"
        case .corrupt(let path, let reason):
            "\(path): not a complete orgdir snapshot: \(reason)"
        case .newerSchema(let path, let found, let supported):
            "\(path): snapshot schema version \(found) was written by a newer orgdir; this one reads up to "
                + "version \(supported): upgrade orgdir"
        case .encodingFailed(let reason):
            "cannot encode as JSON: \(reason)"
        case .notFound(let reference, let folder, let available):
            "no snapshot matches '\(reference)' in \(folder)"
                + (available.isEmpty
                    ? " (the folder holds no snapshots yet: run `orgdir build` first)"
                    : "; use latest, previous, a date (YYYY-MM-DD), a path, or one of: "
                        + Self.listing(available))
        case .notEnoughSnapshots(let reference, let folder, let count):
            "'\(reference)' needs more snapshots than the \(count) in \(folder)"
                + (count == 0 ? "; run `orgdir build` first" : "; run `orgdir build` again to record another")
        }
    }

    /// The newest few names, so a long history does not flood the terminal.
    private static func listing(_ names: [String]) -> String {
        let shown = names.suffix(5)
        return (names.count > shown.count ? "…, " : "") + shown.joined(separator: ", ")
    }
}
