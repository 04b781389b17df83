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
    static func describe(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return advice(code).map { text + " (" + $0 + ")" } ?? text
    }

    /// What to do about `code` when the system's words leave it out, else nil: a full disk is the likeliest way a
    /// scheduled run fails to write, and "No space left on device" alone does not say that a run writes its new site
    /// beside the published one until the swap, so the file system needs room for both.
    static func advice(_ code: Int32) -> String? {
        switch code {
        case ENOSPC, EDQUOT:
            "free space on that file system and run again: a run keeps the published site until the new one is "
                + "complete, so it needs room for both"
        case EROFS: "the output and state folders must be on a writable file system"
        default: nil
        }
    }
}
