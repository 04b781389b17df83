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
        guard mimallocVersion != nil else {
            MallocTuning.apply()
            return
        }
        #if canImport(CMimalloc)
            // Memory freed and not reused within mimalloc's 25 ms (2.0's default) goes back to the kernel, and the
            // next allocation faults it in again, zeroed. A build frees and makes a page of people's strings every
            // few milliseconds per core: at 100,000 people, half a second kept 136,000 page faults down to 94,000
            // for about 20 MB more at the peak (Benchmarks/README.md, the table of changes under "no one-core
            // stretches, list rows made once, mimalloc keeps freed memory"). The environment's
            // MIMALLOC_DECOMMIT_DELAY, when set, still wins.
            if getenv("MIMALLOC_DECOMMIT_DELAY") == nil { mi_option_set(mi_option_decommit_delay, decommitDelay) }
            // Each fresh 4 KiB page the kernel hands out is faulted in and zeroed one by one, and on these virtual
            // machines the first touch of a page the machine has not used recently costs several times more: on a
            // busy host the faults were a fifth of a 100,000-person nightly run's CPU (`clear_page_erms` under
            // `do_anonymous_page`). With large OS pages mimalloc asks for transparent huge pages
            // (`madvise(MADV_HUGEPAGE)`), one fault per 2 MiB, and keeps them to the end of the run: in three
            // side-by-side runs a nightly's system time medians fell 1.19 → 0.65, 1.16 → 0.83 and 0.68 → 0.59 s and
            // its peak rose by about 20 MB (Benchmarks/README.md, "mimalloc on large OS pages" and "What memory
            // costs here"). Where the kernel has transparent huge pages off, the advice is ignored. The
            // environment's MIMALLOC_LARGE_OS_PAGES, when set, still wins.
            if getenv("MIMALLOC_LARGE_OS_PAGES") == nil { mi_option_enable(mi_option_large_os_pages) }
        #endif
    }

    /// Milliseconds mimalloc keeps freed memory before handing it back to the kernel.
    static let decommitDelay = 500

    /// How `--verbose` names the allocator (and, for mimalloc, how long it keeps freed memory).
    static var description: String {
        guard let version = mimallocVersion else { return "the C library's malloc" }
        #if canImport(CMimalloc)
            let pages = mi_option_is_enabled(mi_option_large_os_pages) ? ", large OS pages" : ""
            return "mimalloc \(version) (freed memory kept \(mi_option_get(mi_option_decommit_delay)) ms\(pages))"
        #else
            return "mimalloc \(version)"
        #endif
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
