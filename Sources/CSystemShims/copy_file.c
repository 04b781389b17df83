#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#if defined(__APPLE__)
#  include <copyfile.h>
#endif
#include "CSystemShims.h"

/// Copies through a buffer, what is left where the kernel cannot copy between the two files itself.
static int copy_through_buffer(int source, int target) {
    enum { size = 1 << 20 };
    char *buffer = malloc(size);
    if (buffer == NULL) return ENOMEM;
    int failed = 0;
    for (;;) {
        ssize_t got = read(source, buffer, size);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) { failed = errno; break; }
        if (got == 0) break;
        ssize_t done = 0;
        while (done < got) {
            ssize_t put = write(target, buffer + done, (size_t)(got - done));
            if (put < 0 && errno == EINTR) continue;
            if (put <= 0) { failed = put < 0 ? errno : EIO; break; }
            done += put;
        }
        if (failed != 0) break;
    }
    free(buffer);
    return failed;
}

int orgdir_copy_file(int source, int target) {
#if defined(__linux__)
    for (;;) {
        ssize_t done = copy_file_range(source, NULL, target, NULL, (size_t)1 << 30, 0);
        if (done > 0) continue;
        if (done == 0) return 0;
        if (errno == EINTR) continue;
        // A kernel or file system that cannot (or not between these two): through a buffer, from where it stopped.
        if (errno == ENOSYS || errno == EXDEV || errno == EINVAL || errno == EOPNOTSUPP || errno == EPERM) {
            return copy_through_buffer(source, target);
        }
        return errno;
    }
#elif defined(__APPLE__)
    if (fcopyfile(source, target, NULL, COPYFILE_DATA) == 0) return 0;
    return copy_through_buffer(source, target);
#else
    return copy_through_buffer(source, target);
#endif
}
