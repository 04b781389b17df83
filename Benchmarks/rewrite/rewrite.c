/*
 * rewrite: what writing a file again costs in a large folder, removed and created again against emptied in place
 * (the two ways StagingDirectory can write a file of a recycled spare site; see Benchmarks/README.md).
 *
 * Creates FILES files of 3,000 bytes in FOLDER, then ROUNDS times rewrites every FILES/COUNT-th of them both ways
 * (different files each way) and prints the time of each.
 *
 * Build: cc -O2 -o rewrite rewrite.c      Run: rewrite FOLDER [FILES=300000] [COUNT=6000] [ROUNDS=3]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void name(char *out, int index) { snprintf(out, 64, "person-%07d.html", index); }

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: rewrite FOLDER [FILES] [COUNT] [ROUNDS]\n");
        return 2;
    }
    int files = argc > 2 ? atoi(argv[2]) : 300000, count = argc > 3 ? atoi(argv[3]) : 6000;
    int rounds = argc > 4 ? atoi(argv[4]) : 3, step = files / count;
    char bytes[3000], path[64];
    memset(bytes, 'x', sizeof bytes);
    if (mkdir(argv[1], 0755) != 0) {
        perror(argv[1]);
        return 1;
    }
    int folder = open(argv[1], O_RDONLY | O_DIRECTORY);
    for (int index = 0; index < files; index++) {
        name(path, index);
        int file = openat(folder, path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (file < 0 || write(file, bytes, sizeof bytes) != (ssize_t)sizeof bytes) return 1;
        close(file);
    }
    for (int round = 0; round < rounds; round++) {
        double start = now();
        for (int index = 2 * round; index < files; index += step) {
            name(path, index);
            unlinkat(folder, path, 0);
            int file = openat(folder, path, O_WRONLY | O_CREAT | O_EXCL, 0644);
            if (file < 0 || write(file, bytes, sizeof bytes) != (ssize_t)sizeof bytes) return 1;
            close(file);
        }
        double middle = now();
        for (int index = 2 * round + 1; index < files; index += step) {
            name(path, index);
            int file = openat(folder, path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK);
            struct stat status;
            if (file < 0 || fstat(file, &status) != 0 || ftruncate(file, 0) != 0) return 1;
            if (write(file, bytes, sizeof bytes) != (ssize_t)sizeof bytes) return 1;
            close(file);
        }
        printf("%d of %d files: removed and created %.1f ms, emptied in place %.1f ms\n", count, files,
               (middle - start) * 1000, (now() - middle) * 1000);
    }
    return 0;
}
