#ifndef ORGDIR_CSYSTEMSHIMS_H
#define ORGDIR_CSYSTEMSHIMS_H

/// Atomically exchanges two paths (Linux renameat2 RENAME_EXCHANGE, macOS renamex_np RENAME_SWAP).
/// Returns 0 on success, -1 with errno set otherwise (EINVAL/ENOSYS/ENOTSUP when the filesystem cannot).
int orgdir_exchange_paths(const char *first, const char *second);

/// Tunes glibc's malloc for one batch run: caps the arenas (M_ARENA_MAX) at `arenas`, fixes the mmap threshold at
/// 4 MiB and keeps freed memory instead of trimming it; returns 1 when applied, 0 where the C library has no such
/// setting (macOS, musl).
int orgdir_tune_malloc(int arenas);

#endif
