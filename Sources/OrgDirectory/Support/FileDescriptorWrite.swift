import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `write(2)` until every byte is out: it may write less than asked, and a signal may interrupt it (EINTR).
///
/// The one loop behind snapshots, staged site files and standard output; each caller turns the returned
/// `errno` into its own error.
enum FileDescriptorWrite {
    /// Writes all of `bytes` to `descriptor`; nil on success, else the `errno` of the failed write.
    static func all(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    /// The text of an `errno`, for messages, with what to do where the system's words do not say it (`advice`).
    /// `path`, the file or folder the failed call was about, lets a full file system say which room it ran out of.
    static func describe(_ code: Int32, at path: String? = nil) -> String {
        let text = String(cString: strerror(code))
        return advice(code, at: path).map { text + " (" + $0 + ")" } ?? text
    }

    /// What to do about `code` when the system's words leave it out, else nil: a full disk is the likeliest way a
    /// scheduled run fails to write, and "No space left on device" alone does not say that a run writes its new site
    /// beside the published one until the swap, so the file system needs room for both.
    ///
    /// Nor does it say which room ran out. A file system with a fixed number of files (inodes: ext4, tmpfs) refuses a
    /// new file with the same error once they are used up, while `df` still shows free space; a site has some three
    /// files a person, so a large directory meets that limit first (a million people need about 3.05 million). Then
    /// the advice names `df -i`.
    static func advice(_ code: Int32, at path: String? = nil) -> String? {
        switch code {
        case ENOSPC, EDQUOT:
            if code == ENOSPC, let path, let room = FileSystemRoom(around: path), room.isOutOfFiles {
                return "the file system has no free inodes left, though it may have free space: `df -i \(room.path)` "
                    + "shows them; a site takes some three files a person, and a run keeps the published site until "
                    + "the new one is complete, so it needs files for both; remove files there or give the file system "
                    + "more inodes, then run again"
            }
            return "free space on that file system and run again: a run keeps the published site until the new one is "
                + "complete, so it needs room for both"
        case EROFS: return "the output and state folders must be on a writable file system"
        default: return nil
        }
    }
}

extension FileDescriptorWrite {
    /// The `errno` a Foundation file error carries (its own domain's, or the underlying POSIX error's), if any.
    ///
    /// Why: folders are made through `FileManager`, whose words for a full or read-only file system ("couldn't be
    /// saved because there isn't enough space") give no advice, and say nothing of inodes. A file system already out
    /// of them refuses the run's first folder, before any file.
    static func code(of error: any Error) -> Int32? {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: error.code) }
        // Cast to `Error` first: on Linux the underlying error does not cast to `NSError` straight from `Any`.
        guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error else { return nil }
        let posix = underlying as NSError
        return posix.domain == NSPOSIXErrorDomain ? Int32(truncatingIfNeeded: posix.code) : nil
    }

    /// A Foundation file error about `path` described as `describe(_:at:)` describes its `errno`, with the advice;
    /// its own words when it carries none.
    static func describe(_ error: any Error, at path: String) -> String {
        code(of: error).map { describe($0, at: path) } ?? error.localizedDescription
    }
}

/// How many more files a file system can hold (`statvfs`), for the advice on a full one.
struct FileSystemRoom {
    /// The path asked about: `path` itself or the nearest folder above it that exists.
    let path: String
    /// The file system's files (inodes) in all, and those still free; 0 in all where it has no fixed number.
    let files: UInt64
    let freeFiles: UInt64

    /// Whether it has a fixed number of files and none is left.
    var isOutOfFiles: Bool { files > 0 && freeFiles == 0 }
}

extension FileSystemRoom {
    /// The room of the file system holding `path`, or of the nearest folder above it that exists (a file that could
    /// not be made does not); nil when none can be asked.
    init?(around path: String) {
        var candidate = path
        while true {
            var status = statvfs()
            if statvfs(candidate, &status) == 0 {
                self.path = candidate
                files = UInt64(status.f_files)
                freeFiles = UInt64(min(status.f_ffree, status.f_favail))
                return
            }
            guard candidate != "/", let slash = candidate.lastIndex(of: "/") else { return nil }
            candidate = slash == candidate.startIndex ? "/" : String(candidate[..<slash])
        }
    }
}
