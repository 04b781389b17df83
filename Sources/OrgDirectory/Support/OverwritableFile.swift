import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file that nothing else links to, open to be written over from its start and then cut to the new length.
///
/// Why write over rather than empty or replace: a file written over keeps the pages it has, where an emptied or new
/// one takes fresh ones that the kernel must find and clear (and this machine's host back). 160 MB written over four
/// files of 40 MB took 29–32 ms against 77–82 ms emptied or new, and 6,000 files of 6,000 bytes 32–34 ms against 54
/// emptied and 83 new, on tmpfs (`Benchmarks/rewrite/overwrite.c`). Used where a run writes again a file it owns
/// alone: the spare site's pages (`StagingDirectory`) and the state caches' spares (`FileReplacement`).
struct OverwritableFile {
    let descriptor: Int32
    /// The length before the write: what is left past the new bytes is cut by `cut(to:)`.
    let size: off_t

    /// `name` in `folder` (`AT_FDCWD` for a path) opened to be written over; nil when there is nothing there, it has
    /// another link (a hard link into the published site, which must never change through it) or it is not a regular
    /// file, and the caller makes a new one. `O_NOFOLLOW` and `O_NONBLOCK`: a symbolic link or a FIFO put there fails
    /// to open instead of being written through or blocking.
    static func open(_ name: UnsafePointer<CChar>, in folder: Int32 = AT_FDCWD) -> OverwritableFile? {
        let descriptor = openat(folder, name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1 else {
            close(descriptor)
            return nil
        }
        return OverwritableFile(descriptor: descriptor, size: status.st_size)
    }

    /// Cuts the file to the `newSize` bytes just written over it, when it was longer; nil on success, else the `errno`.
    func cut(to newSize: Int) -> Int32? {
        guard size > off_t(newSize), ftruncate(descriptor, off_t(newSize)) != 0 else { return nil }
        return errno
    }
}
