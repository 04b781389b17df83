#!/usr/bin/env python3
"""Where a profile's CPU went, by the system call or fault it was under: orgdir's own code, `write`, `openat`,
`close`, page faults and so on. Reads `perf script -F tid,ip,sym` output with call chains (a `perf record -g` profile
taken as root, so the kernel's samples are in it) on standard input.

    perf record -F 999 -g -o perf.data COMMAND...
    perf script -i perf.data -F tid,ip,sym | python3 Benchmarks/scripts/perf_split.py

Used to compare a full build's profile with the floor writer's (Benchmarks/README.md, "What memory costs here").
"""
import collections
import sys

# The first of these found in a sample's call chain names it; a sample under none is the program's own code.
PARTS = ["exc_page_fault", "ksys_write", "do_sys_openat2", "__x64_sys_close", "unlink", "rename", "linkat",
         "newfstat", "sys_mmap", "munmap", "madvise", "__x64_sys_futex", "sys_read", "tcp_", "sched"]


def part(frames):
    chain = " ".join(frames)
    return next((name for name in PARTS if name in chain), "own code")


def main():
    counts = collections.Counter()
    frames = []
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line.strip():
            if frames:
                counts[part(frames)] += 1
            frames = []
        elif line[0] in " \t":
            fields = line.split(None, 1)
            frames.append(fields[1] if len(fields) == 2 else fields[0])
        else:
            frames = []
    if frames:
        counts[part(frames)] += 1
    total = sum(counts.values())
    for name, count in counts.most_common():
        print(f"{name:16s} {count:7d} {100 * count / total:5.1f} %")
    print(f"{'samples':16s} {total:7d}")


if __name__ == "__main__":
    main()
