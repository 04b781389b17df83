import CSystemShims

/// Caps glibc's malloc arenas; called first thing in `orgdir`'s `main`, before threads start allocating.
///
/// glibc gives threads that contend for the allocator arenas of their own (up to eight per core); the render
/// tasks' many short-lived strings then leave free pages scattered over all of them, which adds to the peak
/// resident memory of a large build. Two arenas, one per core of the machines this runs on, keep the render
/// parallel. A no-op where the C library has no such setting.
public enum MallocArenas {
    public static func limit(to count: Int32 = 2) {
        _ = orgdir_limit_malloc_arenas(count)
    }
}
