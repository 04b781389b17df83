#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include "CSystemShims.h"

#if defined(__linux__) && !defined(STATX_ATTR_MOUNT_ROOT)
#  define STATX_ATTR_MOUNT_ROOT 0x00002000
#endif

int orgdir_is_mount_root(const char *path) {
#if defined(__linux__) && defined(STATX_BASIC_STATS)
    struct statx details;
    if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &details) != 0) return -1;
    if ((details.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) == 0) return -1;
    return (details.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0 ? 1 : 0;
#else
    (void)path;
    return -1;
#endif
}
