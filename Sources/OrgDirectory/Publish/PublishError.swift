import Foundation

/// Publishing the site failed; the previously published output is untouched in every case.
public enum PublishError: Error, Sendable, Equatable, LocalizedError {
    case foreignOutput(path: String)
    case unsafePath(relativePath: String)
    case cannotCreate(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case swapFailed(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .foreignOutput(let path):
            "the output folder \(path) holds files orgdir did not write (no .orgdir-site marker); orgdir replaces "
                + "its output folder on every run, so choose an empty or new folder (output key or --output)"
        case .unsafePath(let relativePath):
            "refused to write '\(relativePath)': it would land outside the output folder"
        case .cannotCreate(let path, let reason): "cannot create \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .swapFailed(let path, let reason): "cannot publish into \(path): \(reason); the previous site is unchanged"
        }
    }
}
