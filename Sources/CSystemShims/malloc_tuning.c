#include "CSystemShims.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int orgdir_tune_malloc(int arenas) {
#if defined(__GLIBC__)
    /* A fixed mmap threshold of 4 MiB: only the largest buffers (whole-directory arrays, big export pieces) come
       from mmap and go straight back, instead of glibc raising the threshold after the first free and carving
       them out of the arenas between long-lived strings, where the holes they leave raise the peak. */
    mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024);
    /* Freed memory is kept for the next allocation instead of being handed back to the kernel: a run is one
       batch job, and every page handed back and asked for again is faulted in and zeroed again. With the 128 KiB
       default (and a 256 KiB mmap threshold before it), zeroing pages was a tenth of a nightly run's samples and
       a full build spent twice the floor writer's kernel time. */
    mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
    mallopt(M_TOP_PAD, 64 * 1024 * 1024);
    return mallopt(M_ARENA_MAX, arenas);
#else
    (void)arenas;
    return 0;
#endif
}
