#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include "CSystemShims.h"

int orgdir_exchange_paths(const char *first, const char *second) {
#if defined(__linux__)
#  ifdef RENAME_EXCHANGE
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
#  else
    errno = ENOSYS;
    return -1;
#  endif
#elif defined(__APPLE__)
    return renamex_np(first, second, RENAME_SWAP);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int orgdir_exchange_at(int first_folder, const char *first, int second_folder, const char *second) {
#if defined(__linux__)
#  ifdef RENAME_EXCHANGE
    return renameat2(first_folder, first, second_folder, second, RENAME_EXCHANGE);
#  else
    errno = ENOSYS;
    return -1;
#  endif
#elif defined(__APPLE__)
    return renameatx_np(first_folder, first, second_folder, second, RENAME_SWAP);
#else
    errno = ENOSYS;
    return -1;
#endif
}
