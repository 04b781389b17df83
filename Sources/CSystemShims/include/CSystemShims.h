#ifndef ORGDIR_CSYSTEMSHIMS_H
#define ORGDIR_CSYSTEMSHIMS_H

/// Atomically exchanges two paths (Linux renameat2 RENAME_EXCHANGE, macOS renamex_np RENAME_SWAP).
/// Returns 0 on success, -1 with errno set otherwise (EINVAL/ENOSYS/ENOTSUP when the filesystem cannot).
int orgdir_exchange_paths(const char *first, const char *second);

/// `orgdir_exchange_paths` for names relative to open folders (Linux renameat2, macOS renameatx_np), so that many
/// exchanges in the same two folders do not walk the whole paths each time.
int orgdir_exchange_at(int first_folder, const char *first, int second_folder, const char *second);

/// Tunes glibc's malloc for one batch run: caps the arenas (M_ARENA_MAX) at `arenas`, fixes the mmap threshold at
/// 4 MiB and keeps freed memory instead of trimming it; returns 1 when applied, 0 where the C library has no such
/// setting (macOS, musl).
int orgdir_tune_malloc(int arenas);

/// Whether `path` is the root of a mount, bind mounts of the same file system included (Linux statx's
/// STATX_ATTR_MOUNT_ROOT, kernel 5.8 and later): 1 when it is, 0 when it is not, -1 when the system cannot tell
/// (an older kernel, macOS, or a path that cannot be looked at), where comparing devices is what is left.
int orgdir_is_mount_root(const char *path);

/// Copies the rest of the open file `source` to the open file `target` from their current offsets: in the kernel where
/// it can (Linux copy_file_range, macOS fcopyfile), else through a buffer. Returns 0, or the errno code that stopped it.
int orgdir_copy_file(int source, int target);

#endif
