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
///
/// Where the system will not map a regular file (a file system without `mmap`, or no room left for another mapping),
/// the file is read into memory of the process's own instead: the callers get the same bytes, and the pages are then
/// never handed back.
final class MappedFile: @unchecked Sendable {
    /// The file's bytes, valid while this object lives.
    let bytes: UnsafeRawBufferPointer
    /// Whether `bytes` are a mapping of the file (else a copy read into memory, see `readWhole`).
    let isMapping: Bool
    private let pageSize: Int

    /// The file at `path` mapped, or read into memory when it cannot be mapped (`mapping: false` reads it so
    /// always, for tests); nil when it cannot be opened or read (or is empty). With `copyOnWrite` the pages can be
    /// written too, each write going to a copy of the page of the process's own (never to the file).
    init?(path: String, copyOnWrite: Bool = false, mapping: Bool = true) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        pageSize = max(1, Int(sysconf(Int32(_SC_PAGESIZE))))
        if mapping,
            let base = mmap(nil, size, copyOnWrite ? PROT_READ | PROT_WRITE : PROT_READ, MAP_PRIVATE, descriptor, 0),
            base != UnsafeMutableRawPointer(bitPattern: -1)
        {
            bytes = UnsafeRawBufferPointer(start: base, count: size)
            isMapping = true
        } else {
            guard let copy = Self.readWhole(descriptor, size: size) else { return nil }
            bytes = UnsafeRawBufferPointer(start: copy, count: size)
            isMapping = false
        }
    }

    /// The `size` bytes of the open file, read into memory from `malloc` (nil when there is no room, the file
    /// cannot be read, a folder say, or it is shorter than `size`).
    private static func readWhole(_ descriptor: Int32, size: Int) -> UnsafeMutableRawPointer? {
        guard let buffer = malloc(size) else { return nil }
        var offset = 0
        while offset < size {
            let count = pread(descriptor, buffer + offset, size - offset, off_t(offset))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                free(buffer)
                return nil
            }
            offset += count
        }
        return buffer
    }

    /// Drops the whole pages within `range` from the process's memory; reading them again reads the file again.
    func release(_ range: Range<Int>) {
        // A copy in memory has no file to read the pages from again: handing them back would zero them.
        guard isMapping, let base = bytes.baseAddress else { return }
        let lower = (range.lowerBound + pageSize - 1) / pageSize * pageSize
        let upper = min(range.upperBound, bytes.count) / pageSize * pageSize
        guard upper > lower else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + lower), upper - lower, MADV_DONTNEED)
    }

    /// The bytes of the file at `path` without reading them into memory of the process's own: a mapping of the
    /// file, unmapped when the last copy of the `Data` goes (a copy in memory where the system will not map it, see
    /// the type); nil when the file cannot be opened or read, or is empty (read it the usual way then, for the error
    /// or the empty data).
    ///
    /// Why: a nightly run reads the last snapshot (46 MB at 100,000 people) and the state caches (29 MB) whole,
    /// and `orgdir diff` two snapshots. Read into fresh memory, every page was zeroed by the kernel and then copied
    /// into (`clear_page_erms` and `_copy_to_iter` under `Data(contentsOf:)` in `PROFILE_USERS=100000
    /// Benchmarks/profile-nightly.sh`); mapped, the bytes are the file system's cached pages, and `orgdir diff` of
    /// two 100,000-person snapshots went from 0.11–0.12 s to 0.06–0.07 s. (`Data(contentsOf:options:
    /// .mappedIfSafe)` reads the file on Linux.)
    ///
    /// Safe for the files orgdir reads this way because it never rewrites them in place: snapshots and state files
    /// are replaced through a new file and a rename, so a mapping keeps the old file's bytes; reading past the end
    /// of a file shortened under a mapping would fault instead.
    ///
    /// Mapped copy-on-write: a `Data` made without copying may write into its bytes when it alone holds them.
    static func data(path: String) -> Data? {
        guard let file = MappedFile(path: path, copyOnWrite: true), let base = file.bytes.baseAddress else {
            return nil
        }
        return Data(
            bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: file.bytes.count,
            deallocator: .custom { _, _ in withExtendedLifetime(file) {} })
    }

    /// The bytes of the file at `url`: mapped (`data(path:)`) when it can be, else read the usual way, which also
    /// says why a file cannot be read.
    static func contents(of url: URL) throws -> Data {
        if let mapped = data(path: url.path) { return mapped }
        return try Data(contentsOf: url)
    }

    deinit {
        guard let base = bytes.baseAddress else { return }
        if isMapping {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        } else {
            free(UnsafeMutableRawPointer(mutating: base))
        }
    }
}
