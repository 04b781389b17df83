import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file mapped read-only, whose pages can be handed back once read.
///
/// Why not `Data(contentsOf:options: .alwaysMapped)`: a nightly run copies unchanged rows from all three published
/// exports at once, front to back, and every page it had read stayed in its resident set (about 60 MB more at
/// 100,000 people). Handing back pages is only safe for a mapping of a file (the pages are read again from it);
/// `Data` may hold the bytes in memory instead, where handing them back would zero them.
final class MappedFile: @unchecked Sendable {
    /// The file's bytes, valid while this object lives.
    let bytes: UnsafeRawBufferPointer
    private let pageSize: Int

    /// The file at `path` mapped, or nil when it cannot be opened or mapped (or is empty).
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
            base != UnsafeMutableRawPointer(bitPattern: -1)
        else { return nil }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
        pageSize = max(1, Int(sysconf(Int32(_SC_PAGESIZE))))
    }

    /// Drops the whole pages within `range` from the process's memory; reading them again reads the file again.
    func release(_ range: Range<Int>) {
        guard let base = bytes.baseAddress else { return }
        let lower = (range.lowerBound + pageSize - 1) / pageSize * pageSize
        let upper = min(range.upperBound, bytes.count) / pageSize * pageSize
        guard upper > lower else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + lower), upper - lower, MADV_DONTNEED)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
