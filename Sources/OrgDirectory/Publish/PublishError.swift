import Foundation

/// Publishing the site failed; the previously published output is untouched in every case.
public enum PublishError: Error, Sendable, Equatable, LocalizedError {
    case foreignOutput(path: String)
    /// The output path names a file, not a folder.
    case outputNotAFolder(path: String)
    /// Another file system is mounted on the output folder: a mount point cannot be renamed, so no site could ever
    /// be swapped in there.
    case outputIsMountPoint(path: String)
    case unsafePath(relativePath: String)
    case cannotCreate(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case swapFailed(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .foreignOutput(let path):
            "the output folder \(path) holds files orgdir did not write (no .orgdir-site marker); orgdir replaces "
                + "its output folder on every run, so choose an empty or new folder (output key or --output)"
        case .outputNotAFolder(let path):
            "the output \(path) is a file, not a folder: set the output key (or --output) to a folder, which orgdir "
                + "creates when it is missing"
        case .outputIsMountPoint(let path):
            "the output folder \(path) is a mount point (another file system is mounted on it): orgdir writes the new "
                + "site beside the output and renames it into place, which cannot be done to a mount point; set the "
                + "output key (or --output) to a folder inside it, such as \(path)/site, and serve that folder"
        case .unsafePath(let relativePath):
            "refused to write '\(relativePath)': it would land outside the output folder"
        case .cannotCreate(let path, let reason): "cannot create \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .swapFailed(let path, let reason): "cannot publish into \(path): \(reason); the previous site is unchanged"
        }
    }
}

extension PublishError {
    /// `.cannotWrite` at `path` for the `errno` `code`, in `FileDescriptorWrite.describe`'s words: with the advice for
    /// a full, inode-less or read-only file system, which needs the path. The code comes first, so that a caller's
    /// `errno` is read before the path is put together.
    static func writeFailure(_ code: Int32, at path: String) -> PublishError {
        .cannotWrite(path: path, reason: FileDescriptorWrite.describe(code, at: path))
    }

    /// `.cannotCreate` at `path` for the `errno` `code` (see `writeFailure`).
    static func createFailure(_ code: Int32, at path: String) -> PublishError {
        .cannotCreate(path: path, reason: FileDescriptorWrite.describe(code, at: path))
    }

    /// `.cannotCreate` at `path` for a Foundation error (`FileManager`'s), described by its `errno` when it has one.
    static func createFailure(_ error: any Error, at path: String) -> PublishError {
        .cannotCreate(path: path, reason: FileDescriptorWrite.describe(error, at: path))
    }
}
