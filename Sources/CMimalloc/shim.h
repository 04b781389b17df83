// mimalloc (Debian: libmimalloc-dev). Linked into the orgdir executable on Linux, where it serves the whole
// process's malloc and free: see Sources/orgdir/ProcessAllocator.swift.
#include <mimalloc.h>
