/*
 * touch: what touching fresh memory costs on this machine, the price of every page a build allocates or writes.
 *
 * Maps SIZE MiB of anonymous memory ROUNDS times, writes one byte per 4 KiB page (the kernel faults each page in
 * and zeroes it), and prints the time; with "huge" it first asks for transparent huge pages (MADV_HUGEPAGE, one
 * fault per 2 MiB). Each round unmaps what it touched, so the next round's pages are the ones just freed: the first
 * round shows memory the machine had not handed out recently, the later ones memory it just took back.
 *
 * Build: cc -O2 -o touch touch.c      Run: touch SIZE-MIB [small|huge] [ROUNDS=3]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: touch SIZE-MIB [small|huge] [ROUNDS]\n");
        return 2;
    }
    size_t size = (size_t)atol(argv[1]) << 20;
    int huge = argc > 2 && strcmp(argv[2], "huge") == 0;
    int rounds = argc > 3 ? atoi(argv[3]) : 3;
    for (int round = 1; round <= rounds; round++) {
        char *memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (memory == MAP_FAILED) {
            perror("mmap");
            return 1;
        }
        if (huge) madvise(memory, size, MADV_HUGEPAGE);
        double start = now();
        for (size_t offset = 0; offset < size; offset += 4096) memory[offset] = 1;
        double seconds = now() - start;
        printf("round %d, %s pages, %zu MiB: %.3f s (%.2f ms per MiB)\n", round, huge ? "huge" : "4 KiB", size >> 20,
               seconds, seconds * 1000 / (double)(size >> 20));
        munmap(memory, size);
    }
    return 0;
}
