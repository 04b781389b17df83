import CSystemShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A new file holding another file's bytes, copied by the kernel where it can (`orgdir_copy_file`: Linux
/// `copy_file_range`, macOS `fcopyfile`), never through the run's own memory. For the copies a first build keeps for
/// the first nightly to write over (`SitePublisher.keepCopiesForFirstUpdate`, `FileReplacement.keepSpareCopy`).
enum FileCopy {
    /// Copies the regular file `sourceName` of the open folder `sourceFolder` to a new file `targetName` of the open
    /// folder `targetFolder` (`AT_FDCWD` for either takes the name as a path). False, with nothing left at the target,
    /// when the source is no regular file (a link is not followed; a FIFO is opened without waiting for a writer and
    /// refused), something is at the target already, or the copy fails (a full file system).
    static func copy(
        _ sourceName: String, in sourceFolder: Int32 = AT_FDCWD, to targetName: String,
        in targetFolder: Int32 = AT_FDCWD
    ) -> Bool {
        let input = openat(sourceFolder, sourceName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0 else { return false }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        let output = openat(targetFolder, targetName, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { return false }
        let failed = orgdir_copy_file(input, output) != 0
        guard close(output) == 0, !failed else {
            unlinkat(targetFolder, targetName, 0)
            return false
        }
        return true
    }
}
