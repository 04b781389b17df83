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

    /// The text of an `errno`, for messages.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
