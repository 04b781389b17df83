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
    /// that the recycled folder already holds exactly what the new site needs there. False (and nothing counted)
    /// in a folder that was not recycled.
    public func keepInPlace(fileCount: Int) -> Bool {
        guard isRecycled else { return false }
        state.withLock { $0.unchanged += fileCount }
        return true
    }

    /// Whether `keepInPlace` counts files here: only in a recycled folder.
    public var keepsInPlace: Bool { isRecycled }

    /// Removes every file and emptied folder of a recycled folder under `folder` ("" for all of it, the
    /// folders in `skipped` aside) whose relative path `keep` rejects: the pages of people who left, a department
    /// that is gone, an asset dropped from the templates. Top-level dotfiles are left to `carryOverDotfiles`.
    /// Does nothing in a folder that was not recycled (it holds only this run's files).
    public func removeStale(
        in folder: String = "", skipping skipped: Set<String> = [], keeping keep: (String) -> Bool
    ) throws(PublishError) {
        guard isRecycled else { return }
        let path = folder.isEmpty ? rootPath : rootPath + "/" + folder
        let top = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if top < 0 && errno == ENOENT { return }
        guard top >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        defer { close(top) }
        try sweep(top, prefix: folder.isEmpty ? "" : folder + "/", skipping: skipped, keep: keep)
    }

    /// Sweeps the open folder `folder` whose relative path, with a trailing slash, is `prefix`.
    private func sweep(
        _ folder: Int32, prefix: String, skipping skipped: Set<String> = [], keep: (String) -> Bool
    ) throws(PublishError) {
        for entry in Self.entries(of: folder) {
            if prefix.isEmpty && entry.name.hasPrefix(".") { continue }
            let path = prefix + entry.name
            if skipped.contains(path) { continue }
            if entry.isFolder {
                let child = openat(folder, entry.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { throw .cannotWrite(path: rootPath + "/" + path, reason: Self.lastError) }
                defer { close(child) }
                try sweep(child, prefix: path + "/", keep: keep)
                // A folder still holding kept files stays (ENOTEMPTY).
                _ = unlinkat(folder, entry.name, AT_REMOVEDIR)
            } else if !keep(path) {
                guard unlinkat(folder, entry.name, 0) == 0 || errno == ENOENT else {
                    throw .cannotWrite(path: rootPath + "/" + path, reason: Self.lastError)
                }
            }
        }
    }

    private static var lastError: String { String(cString: strerror(errno)) }

    /// The names in the open folder `descriptor` (without `.` and `..`), folders marked by `d_type`.
    private static func entries(of descriptor: Int32) -> [(name: String, isFolder: Bool)] {
        var found: [(name: String, isFolder: Bool)] = []
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            found.append((name, Int32(entry.pointee.d_type) == Int32(DT_DIR)))
        }
        return found
    }
}
