#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a staging folder that holds changes only (`holdsChangesOnly`) does differently: the published site stays
/// where it is and counts as the new one wherever nothing is written, a file equal to the published one is not
/// kept, and the files the new site no longer has are noted for `SitePublisher.publishChanges` rather than removed.
///
/// Why: a nightly run changes a few thousand of some 300,000 files. A whole new site beside the output needs an entry
/// for every one of them (linked or kept as a spare from the night before), and 300,000 hard links alone took longer
/// on tmpfs than a tenth of a full build (`Benchmarks/rewrite/link.c`).
extension StagingDirectory {
    /// The published files this run's site no longer has, by relative path: noted by `remove` and `removeStale`,
    /// minus any path written again since.
    public var deletedPaths: Set<String> {
        state.withLock { $0.deleted }
    }

    /// The files this run holds in a folder of changes, by relative path: what its publish moves in.
    public var stagedPaths: Set<String> {
        state.withLock { $0.staged }
    }

    /// A write whose bytes equal the published file's: the published file stays, and a file this run staged at the
    /// same path earlier (a page written twice) goes, so that nothing replaces it.
    func settleUnchanged(_ relativePath: String, in handles: FolderHandles, nameOffset: Int) {
        _ = relativePath.withCString { path in unlinkat(handles.staging, path + nameOffset, 0) }
        countUnchanged(relativePath)
    }

    /// Counts the published file at `relativePath` as this run's, unchanged, in a folder of changes that holds no file
    /// of this run's there any more: not to be deleted, and no longer counted as written.
    func countUnchanged(_ relativePath: String) {
        state.withLock { state in
            if state.staged.remove(relativePath) != nil { state.written -= 1 }
            state.unchanged += 1
            if !state.deleted.isEmpty { state.deleted.remove(relativePath) }
        }
    }

    /// Counts a file written at `relativePath`: once per path in a folder of changes, where a path written again
    /// (written over in place) is still one file, and no longer one to delete, whatever was noted before.
    func countWritten(_ relativePath: String) {
        state.withLock { state in
            if !holdsChangesOnly || state.staged.insert(relativePath).inserted { state.written += 1 }
            if holdsChangesOnly && !state.deleted.isEmpty { state.deleted.remove(relativePath) }
        }
    }

    /// `remove` in a folder of changes: this run's file at the path (if any) goes, and so does the published one,
    /// when the changes are moved in.
    func removeChange(_ relativePath: String, in handles: FolderHandles, nameOffset: Int) throws(PublishError) {
        let code: Int32? = relativePath.withCString { path in
            unlinkat(handles.staging, path + nameOffset, 0) == 0 || errno == ENOENT ? nil : errno
        }
        if let code { throw .writeFailure(code, at: rootPath + "/" + relativePath) }
        state.withLock { state in
            state.deleted.insert(relativePath)
            if state.staged.remove(relativePath) != nil { state.written -= 1 }
        }
    }

    /// Removes what a folder of changes holds beside this run's files (an earlier update's files that this run did
    /// not write over, and the folders left empty), so that only this run's changes are moved in: the sweep of a
    /// recycled folder (`removeStale`), keeping this run's files. Top-level dotfiles are left: the only one such a
    /// folder holds is the marker, which the publish writes over.
    func dropEarlierFiles() throws(PublishError) {
        guard holdsEarlierFiles else { return }
        let staged = state.withLock { $0.staged }
        try sweepEarlierFiles(keeping: { staged.contains($0) })
    }

    /// `carryOver` in a folder of changes: the published files stay where they are, so it only checks that each is
    /// there (all or none, as `carryOver` promises) and counts them.
    func keepPublished(_ relativePaths: [String]) -> Bool {
        for relativePath in relativePaths {
            guard let folder = try? Self.parentFolder(of: relativePath),
                let handles = try? folderHandles(folder), let previous = handles.previous
            else { return false }
            let nameOffset = folder.isEmpty ? 0 : folder.utf8.count + 1
            let present = relativePath.withCString { path in
                var info = stat()
                return fstatat(previous, path + nameOffset, &info, AT_SYMLINK_NOFOLLOW) == 0
                    && (info.st_mode & S_IFMT) == S_IFREG
            }
            guard present else { return false }
        }
        state.withLock { state in
            state.unchanged += relativePaths.count
            if !state.deleted.isEmpty { state.deleted.subtract(relativePaths) }
        }
        return true
    }

    /// `removeStale` in a folder of changes: notes every published file under `folder` (top-level dotfiles and the
    /// folders in `skipped` aside) whose relative path `keep` rejects, for the publish to delete.
    func noteStale(in folder: String, skipping skipped: Set<String>, keeping keep: (String) -> Bool)
        throws(PublishError)
    {
        guard let previousPath else { return }
        let path = folder.isEmpty ? previousPath : previousPath + "/" + folder
        let top = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if top < 0 && (errno == ENOENT || errno == ENOTDIR) { return }
        guard top >= 0 else { throw .writeFailure(errno, at: path) }
        defer { close(top) }
        var stale: [String] = []
        try collectStale(top, prefix: folder.isEmpty ? "" : folder + "/", skipping: skipped, keep: keep, into: &stale)
        guard !stale.isEmpty else { return }
        state.withLock { $0.deleted.formUnion(stale) }
    }

    /// The stale files under the open published folder `folder`, whose relative path with a trailing slash is `prefix`.
    private func collectStale(
        _ folder: Int32, prefix: String, skipping skipped: Set<String>, keep: (String) -> Bool,
        into stale: inout [String]
    ) throws(PublishError) {
        let (folders, names) = FolderListing.staleEntries(of: folder, prefix: prefix, skipping: skipped, keep: keep)
        stale += names.map { prefix + $0 }
        for name in folders {
            let child = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard child >= 0 else { throw .writeFailure(errno, at: (previousPath ?? "") + "/" + prefix + name) }
            defer { close(child) }
            try collectStale(child, prefix: prefix + name + "/", skipping: [], keep: keep, into: &stale)
        }
    }
}
