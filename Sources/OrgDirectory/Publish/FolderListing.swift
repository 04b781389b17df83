#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names in an open folder, split into folders and everything else, for the tree walks of the publish stage
/// (`TreeRemoval`, a recycled `StagingDirectory`'s sweep), which work relative to open folders instead of whole paths.
enum FolderListing {
    /// The names in the open folder `descriptor` (without `.` and `..`), split into non-folders and folders by
    /// `d_type`. Unknown types count as files: the callers' own calls find out what they are. The descriptor is
    /// left open and its position unchanged (the listing reads through a duplicate).
    static func entries(of descriptor: Int32) -> (files: [String], folders: [String]) {
        var files: [String] = []
        var folders: [String] = []
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return ([], [])
        }
        defer { closedir(stream) }
        rewinddir(stream)
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            if Int32(entry.pointee.d_type) == Int32(DT_DIR) { folders.append(name) } else { files.append(name) }
        }
        return (files, folders)
    }
}
