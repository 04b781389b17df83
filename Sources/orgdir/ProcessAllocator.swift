import OrgDirectory

#if canImport(CMimalloc)
    import CMimalloc
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The allocator behind this process's `malloc`, chosen when `orgdir` starts.
///
/// On Linux the executable links mimalloc (Debian's libmimalloc-dev), which then serves every `malloc` and
/// `free` in the process, Swift's runtime and Foundation included. A site build is millions of short-lived
/// strings and arrays made on two cores at once, and glibc's allocator spent about an eighth of a
/// 100,000-person build in its own bookkeeping (`_int_malloc`, `_int_free`, consolidation); with mimalloc the
/// same build used about a fifth less CPU (Benchmarks/README.md, "mimalloc"). Where mimalloc is not linked
/// (macOS), or did not take over `malloc`, glibc's allocator is tuned instead (`MallocTuning`).
enum ProcessAllocator {
    /// Prepares the allocator for a batch run; call first thing in `main`, before other threads allocate.
    static func prepare() {
        if mimallocVersion == nil { MallocTuning.apply() }
    }

    /// How `--verbose` names the allocator.
    static var description: String {
        mimallocVersion.map { "mimalloc \($0)" } ?? "the C library's malloc"
    }

    /// mimalloc's version when it serves this process's `malloc`, nil otherwise. Linking is not enough: a
    /// library loaded before mimalloc could have won the symbol, so a fresh block is asked whether mimalloc owns it.
    static let mimallocVersion: String? = {
        #if canImport(CMimalloc)
            guard let probe = malloc(64) else { return nil }
            defer { free(probe) }
            guard mi_is_in_heap_region(probe) else { return nil }
            let version = Int(mi_version())
            return "\(version / 100).\(version / 10 % 10).\(version % 10)"
        #else
            return nil
        #endif
    }()
}
