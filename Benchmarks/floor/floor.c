/*
 * floor: the file-system floor for writing a static site.
 *
 * Reads a manifest ("SIZE<TAB>RELATIVE-PATH" per line, as Benchmarks/scripts/bench.py writes it from a
 * real orgdir or Hugo output) and writes exactly those files under OUTPUT-DIR: same names, same folders,
 * same sizes, no templating. Each file costs open + one write + close; folders are created once, when the
 * (sorted) manifest first reaches them. Whatever orgdir does beyond this is the price of its work.
 *
 * Build: cc -O2 -o floor floor.c      Run: floor MANIFEST OUTPUT-DIR
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Creates every missing folder of `path` (a path relative to the current directory), like mkdir -p. */
static int make_parents(char *path) {
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        int failed = mkdir(path, 0755) != 0 && errno != EEXIST;
        *p = '/';
        if (failed) return -1;
    }
    return 0;
}

/* Fills `buffer` with an HTML-looking page of exactly `size` bytes naming `path`. */
static void fill(char *buffer, size_t size, const char *path) {
    int head = snprintf(buffer, size, "<!doctype html><html><head><meta charset=\"utf-8\"><title>%s</title>"
                                      "</head><body><main><h1>%s</h1><p>", path, path);
    size_t used = head < 0 ? 0 : (size_t)head < size ? (size_t)head : size;
    static const char filler[] = "lorem ipsum dolor sit amet, consectetur adipiscing elit. ";
    for (size_t i = used; i < size; i++) buffer[i] = filler[(i - used) % (sizeof filler - 1)];
    if (size > 0) buffer[size - 1] = '\n';
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: floor MANIFEST OUTPUT-DIR\n");
        return 64;
    }
    FILE *manifest = fopen(argv[1], "r");
    if (!manifest) {
        fprintf(stderr, "floor: cannot read %s: %s\n", argv[1], strerror(errno));
        return 66;
    }
    if (mkdir(argv[2], 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "floor: cannot create %s: %s\n", argv[2], strerror(errno));
        return 73;
    }
    if (chdir(argv[2]) != 0) {
        fprintf(stderr, "floor: cannot enter %s: %s\n", argv[2], strerror(errno));
        return 73;
    }
    char *line = NULL, *buffer = NULL;
    size_t line_capacity = 0, buffer_capacity = 0;
    char last_folder[4096] = "";
    long files = 0;
    unsigned long long bytes = 0;
    ssize_t length;
    while ((length = getline(&line, &line_capacity, manifest)) > 0) {
        if (line[length - 1] == '\n') line[--length] = '\0';
        char *tab = strchr(line, '\t');
        if (!tab || tab[1] == '\0') continue;
        size_t size = strtoull(line, NULL, 10);
        char *path = tab + 1;
        char *slash = strrchr(path, '/');
        if (slash) {
            size_t folder_length = (size_t)(slash - path);
            if (folder_length >= sizeof last_folder) continue;
            if (strncmp(last_folder, path, folder_length) != 0 || last_folder[folder_length] != '\0') {
                if (make_parents(path) != 0) {
                    fprintf(stderr, "floor: cannot create folders for %s: %s\n", path, strerror(errno));
                    return 73;
                }
                memcpy(last_folder, path, folder_length);
                last_folder[folder_length] = '\0';
            }
        }
        if (size > buffer_capacity) {
            buffer_capacity = size * 2;
            free(buffer);
            buffer = malloc(buffer_capacity);
            if (!buffer) return 71;
        }
        fill(buffer, size, path);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) {
            fprintf(stderr, "floor: cannot create %s: %s\n", path, strerror(errno));
            return 73;
        }
        size_t done = 0;
        while (done < size) {
            ssize_t written = write(fd, buffer + done, size - done);
            if (written < 0) {
                if (errno == EINTR) continue;
                fprintf(stderr, "floor: cannot write %s: %s\n", path, strerror(errno));
                return 74;
            }
            done += (size_t)written;
        }
        close(fd);
        files++;
        bytes += size;
    }
    fprintf(stderr, "floor: %ld files, %llu bytes\n", files, bytes);
    free(line);
    free(buffer);
    fclose(manifest);
    return 0;
}
