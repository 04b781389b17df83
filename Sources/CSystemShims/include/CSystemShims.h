#ifndef ORGDIR_CSYSTEMSHIMS_H
#define ORGDIR_CSYSTEMSHIMS_H

/// Atomically exchanges two paths (Linux renameat2 RENAME_EXCHANGE, macOS renamex_np RENAME_SWAP).
/// Returns 0 on success, -1 with errno set otherwise (EINVAL/ENOSYS/ENOTSUP when the filesystem cannot).
int orgdir_exchange_paths(const char *first, const char *second);

/// Caps glibc's malloc arenas (mallopt M_ARENA_MAX) at `count` and fixes the mmap threshold at 256 KiB; returns 1
/// when applied, 0 where the C library has no such setting (macOS, musl).
int orgdir_limit_malloc_arenas(int count);

#endif
