#ifndef ORGDIR_CSYSTEMSHIMS_H
#define ORGDIR_CSYSTEMSHIMS_H

/// Atomically exchanges two paths (Linux renameat2 RENAME_EXCHANGE, macOS renamex_np RENAME_SWAP).
/// Returns 0 on success, -1 with errno set otherwise (EINVAL/ENOSYS/ENOTSUP when the filesystem cannot).
int orgdir_exchange_paths(const char *first, const char *second);

#endif
