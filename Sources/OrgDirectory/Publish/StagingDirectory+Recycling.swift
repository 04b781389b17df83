import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a recycled staging folder (the publisher's spare, see `StagingDirectory`) adds: leaving current files
/// where they are, and sweeping away what the new site no longer has.
extension StagingDirectory {
    /// Counts `fileCount` files as unchanged without touching them: the caller knows from the render fingerprints
    /// that the recycled folder already holds exactly what the new site needs there, or, in a folder of changes, that
    /// the published site does. False (and nothing counted) in a folder that starts empty.
    public func keepInPlace(fileCount: Int) -> Bool {
        guard isRecycled || holdsChangesOnly else { return false }
        state.withLock { $0.unchanged += fileCount }
        return true
    }

    /// Whether `keepInPlace` counts files here: only in a recycled folder or a folder of changes.
    public var keepsInPlace: Bool { isRecycled || holdsChangesOnly }

    /// Removes every file and emptied folder of a folder holding an earlier site's files (`holdsEarlierFiles`: the
    /// recycled spare, or an orphaned one a first build took) under `folder` ("" for all of it, the folders in
    /// `skipped` aside) whose relative path `keep` rejects: the pages of people who left, a department that is gone,
    /// an asset dropped from the templates. Top-level dotfiles are left to `carryOverDotfiles`.
    /// Does nothing in a folder that started empty (it holds only this run's files).
    public func removeStale(
        in folder: String = "", skipping skipped: Set<String> = [], keeping keep: (String) -> Bool
    ) throws(PublishError) {
        if holdsChangesOnly {
            try noteStale(in: folder, skipping: skipped, keeping: keep)
            return
        }
        guard holdsEarlierFiles else { return }
        try sweepEarlierFiles(in: folder, skipping: skipped, keeping: keep)
    }

    /// `removeStale`'s sweep of this folder's own files, whatever kind of folder it is.
    func sweepEarlierFiles(
        in folder: String = "", skipping skipped: Set<String> = [], keeping keep: (String) -> Bool
    ) throws(PublishError) {
        let path = folder.isEmpty ? rootPath : rootPath + "/" + folder
        let top = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if top < 0 && errno == ENOENT { return }
        guard top >= 0 else { throw .writeFailure(errno, at: path) }
        defer { close(top) }
        try sweep(top, prefix: folder.isEmpty ? "" : folder + "/", skipping: skipped, keep: keep)
    }

    /// Sweeps the open folder `folder` whose relative path, with a trailing slash, is `prefix`.
    private func sweep(
        _ folder: Int32, prefix: String, skipping skipped: Set<String> = [], keep: (String) -> Bool
    ) throws(PublishError) {
        let (folders, stale) = FolderListing.staleEntries(of: folder, prefix: prefix, skipping: skipped, keep: keep)
        for name in folders {
            let path = prefix + name
            let child = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard child >= 0 else { throw .writeFailure(errno, at: rootPath + "/" + path) }
            defer { close(child) }
            try sweep(child, prefix: path + "/", keep: keep)
            // A folder still holding kept files stays (ENOTEMPTY).
            _ = unlinkat(folder, name, AT_REMOVEDIR)
        }
        for name in stale {
            guard unlinkat(folder, name, 0) == 0 || errno == ENOENT else {
                throw .writeFailure(errno, at: rootPath + "/" + prefix + name)
            }
        }
    }
}
