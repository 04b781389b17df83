/*
 * link: what the first nightly after a full build pays to carry a site's unchanged files into a new folder: FILES
 * hard links from one folder into a new one, on THREADS threads (each takes every THREADS-th file), ROUNDS times
 * (a new target folder each round). See Benchmarks/README.md.
 *
 * Build: cc -O2 -pthread -o link link.c      Run: link FOLDER [FILES=300000] [THREADS=1] [ROUNDS=2]
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int files, threads, source, target;
static int failures;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void *link_share(void *argument) {
    long first = (long)argument;
    char name[64];
    for (int index = (int)first; index < files; index += threads) {
        snprintf(name, sizeof name, "person-%07d.html", index);
        if (linkat(source, name, target, name, 0) != 0) __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

static int open_folder(const char *folder, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    if (mkdir(path, 0755) != 0) { perror(path); exit(1); }
    int descriptor = open(path, O_RDONLY | O_DIRECTORY);
    if (descriptor < 0) { perror(path); exit(1); }
    return descriptor;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: link FOLDER [FILES] [THREADS] [ROUNDS]\n"); return 2; }
    files = argc > 2 ? atoi(argv[2]) : 300000;
    threads = argc > 3 ? atoi(argv[3]) : 1;
    int rounds = argc > 4 ? atoi(argv[4]) : 2;
    if (threads < 1 || threads > 64) { fprintf(stderr, "THREADS: 1 to 64\n"); return 2; }
    source = open_folder(argv[1], "published");
    char page[3000];
    memset(page, 'x', sizeof page);
    for (int index = 0; index < files; index++) {
        char name[64];
        snprintf(name, sizeof name, "person-%07d.html", index);
        int descriptor = openat(source, name, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (descriptor < 0 || write(descriptor, page, sizeof page) != (ssize_t)sizeof page) { perror(name); return 1; }
        close(descriptor);
    }
    for (int round = 1; round <= rounds; round++) {
        char name[32];
        snprintf(name, sizeof name, "staging-%d", round);
        target = open_folder(argv[1], name);
        pthread_t workers[64];
        double start = now();
        for (long worker = 0; worker < threads; worker++) pthread_create(&workers[worker], NULL, link_share, (void *)worker);
        for (int worker = 0; worker < threads; worker++) pthread_join(workers[worker], NULL);
        printf("%d links on %d thread%s: %.3f s%s\n", files, threads, threads == 1 ? "" : "s", now() - start,
               failures ? " (some failed)" : "");
        close(target);
    }
    return failures ? 1 : 0;
}
