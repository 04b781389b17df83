import CSystemShims

/// Tunes glibc's malloc for a batch run; `orgdir`'s `main` calls it first thing (before threads start allocating)
/// when mimalloc does not serve the process's `malloc` (see `ProcessAllocator` in the executable).
///
/// - Arenas: glibc gives threads that contend for the allocator arenas of their own (up to eight per core); the
///   render tasks' many short-lived strings then leave free pages scattered over all of them, which adds to the
///   peak resident memory of a large build. Two arenas, one per core of the machines this runs on, keep the render
///   parallel.
/// - Freed memory is kept: glibc's defaults hand freed memory back to the kernel, and the next allocation
///   faults it in again, zeroed page by page. At 100,000 people that zeroing was about a tenth of a nightly run and
///   half a full build's kernel time (see Benchmarks/README.md, "malloc keeps what it frees").
///
/// A no-op where the C library has no such settings.
public enum MallocTuning {
    public static func apply(arenas: Int32 = 2) {
        _ = orgdir_tune_malloc(arenas)
    }
}
