/*
 * overwrite: what writing a file of the same length again costs, three ways (see Benchmarks/README.md):
 *   emptied   opened with O_TRUNC and written (its pages given back, fresh ones taken and cleared);
 *   over      opened as it is, written from the start, cut to the new length (its pages written over);
 *   fresh     a new file created, written and removed (what a first build, or a replaced file, does).
 *
 * Creates FILES files of SIZE bytes in FOLDER, then ROUNDS times rewrites all of them each way and prints the
 * time of each. Big files are what a nightly's exports and state are; small ones what its pages are.
 *
 * Build: cc -O2 -o overwrite overwrite.c      Run: overwrite FOLDER [SIZE=41943040] [FILES=4] [ROUNDS=3]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void write_all(int fd, const char *bytes, size_t size, const char *path) {
    size_t done = 0;
    while (done < size) {
        size_t chunk = size - done > (1 << 20) ? (1 << 20) : size - done;
        ssize_t written = write(fd, bytes + done, chunk);
        if (written < 0) { perror(path); exit(1); }
        done += (size_t)written;
    }
}

static int open_or_die(const char *path, int flags) {
    int fd = open(path, flags, 0644);
    if (fd < 0) { perror(path); exit(1); }
    return fd;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: overwrite FOLDER [SIZE] [FILES] [ROUNDS]\n"); return 2; }
    const char *folder = argv[1];
    size_t size = argc > 2 ? (size_t)atol(argv[2]) : (size_t)40 << 20;
    int files = argc > 3 ? atoi(argv[3]) : 4;
    int rounds = argc > 4 ? atoi(argv[4]) : 3;
    char *bytes = malloc(size);
    if (!bytes) return 1;
    memset(bytes, 'x', size);
    char path[4096];
    for (int f = 0; f < files; f++) {
        snprintf(path, sizeof path, "%s/file-%d", folder, f);
        int fd = open_or_die(path, O_CREAT | O_WRONLY | O_TRUNC);
        write_all(fd, bytes, size, path);
        close(fd);
    }
    for (int round = 0; round < rounds; round++) {
        bytes[round % size]++;
        double start = now();
        for (int f = 0; f < files; f++) {
            snprintf(path, sizeof path, "%s/file-%d", folder, f);
            int fd = open_or_die(path, O_WRONLY | O_TRUNC);
            write_all(fd, bytes, size, path);
            close(fd);
        }
        double emptied = now() - start;
        start = now();
        for (int f = 0; f < files; f++) {
            snprintf(path, sizeof path, "%s/file-%d", folder, f);
            int fd = open_or_die(path, O_WRONLY);
            write_all(fd, bytes, size, path);
            if (ftruncate(fd, (off_t)size) != 0) { perror(path); return 1; }
            close(fd);
        }
        double over = now() - start;
        start = now();
        for (int f = 0; f < files; f++) {
            snprintf(path, sizeof path, "%s/new-%d", folder, f);
            int fd = open_or_die(path, O_CREAT | O_EXCL | O_WRONLY);
            write_all(fd, bytes, size, path);
            close(fd);
            unlink(path);
        }
        double fresh = now() - start;
        printf("%d files of %zu bytes: emptied %.3f s, written over %.3f s, fresh %.3f s\n", files, size, emptied,
               over, fresh);
    }
    for (int f = 0; f < files; f++) {
        snprintf(path, sizeof path, "%s/file-%d", folder, f);
        unlink(path);
    }
    free(bytes);
    return 0;
}
