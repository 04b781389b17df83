#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names in an open folder, split into folders and everything else, for the tree walks of the publish stage
/// (`TreeRemoval`, a recycled `StagingDirectory`'s sweep), which work relative to open folders instead of whole paths.
enum FolderListing {
    /// The names in the open folder `descriptor` (without `.` and `..`), split into non-folders and folders by
    /// `d_type` (or, where the file system leaves it unknown, by `fstatat`). The descriptor is left open and its
    /// position unchanged (the listing reads through a duplicate).
    static func entries(of descriptor: Int32) -> (files: [String], folders: [String]) {
        var files: [String] = []
        var folders: [String] = []
        forEachEntry(of: descriptor) { name, isFolder in
            if isFolder { folders.append(name) } else { files.append(name) }
        }
        return (files, folders)
    }

    /// Calls `body` with each name in the open folder `descriptor` (without `.` and `..`) and whether `d_type` marks
    /// it a folder, as the names are read: a caller that keeps only a few of them (a sweep of a recycled site's
    /// `people/`, some 3,000,000 names at a million people) never holds the whole listing.
    static func forEachEntry(of descriptor: Int32, _ body: (_ name: String, _ isFolder: Bool) -> Void) {
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return
        }
        defer { closedir(stream) }
        rewinddir(stream)
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            let type = Int32(entry.pointee.d_type)
            body(name, type == Int32(DT_UNKNOWN) ? isFolder(name, in: descriptor) : type == Int32(DT_DIR))
        }
    }

    /// The subfolders of the open folder `descriptor` of a site, whose relative path with a trailing slash is `prefix`,
    /// and the names of its files whose relative path `keep` rejects: what the sweeps of an earlier site's files (a
    /// recycled staging folder's, the published site's for a folder of changes) look at. Top-level dotfiles (the
    /// marker, an `.htaccess`) and the paths in `skipped` are left out. Only those names are kept from the listing,
    /// never every name.
    static func staleEntries(
        of descriptor: Int32, prefix: String, skipping skipped: Set<String>, keep: (String) -> Bool
    ) -> (folders: [String], stale: [String]) {
        var folders: [String] = []
        var stale: [String] = []
        forEachEntry(of: descriptor) { name, isFolder in
            if prefix.isEmpty && name.hasPrefix(".") { return }
            let path = prefix + name
            if skipped.contains(path) { return }
            if isFolder {
                folders.append(name)
            } else if !keep(path) {
                stale.append(name)
            }
        }
        return (folders, stale)
    }

    /// Whether `name` in the open folder `folder` is a folder (not a link to one), for file systems whose listings
    /// leave the type unknown.
    private static func isFolder(_ name: String, in folder: Int32) -> Bool {
        var info = stat()
        return fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
