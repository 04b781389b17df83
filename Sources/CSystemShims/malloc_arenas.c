#include "CSystemShims.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int orgdir_limit_malloc_arenas(int count) {
#if defined(__GLIBC__)
    /* A fixed mmap threshold: Graph page bodies and export pieces (hundreds of KB each) then always come from
       mmap and go straight back, instead of glibc raising the threshold after the first free and carving them
       out of the arenas between long-lived strings, where the holes they leave raise the peak. */
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    return mallopt(M_ARENA_MAX, count);
#else
    (void)count;
    return 0;
#endif
}
