#!/usr/bin/env python3
"""What the heap holds at its peak, by part of a run: reads the stacks `heaptrack_print` writes for a flame graph of
the peak (`-F FILE --flamegraph-cost-type peak`, demangled) and sums each stack's bytes under the innermost frame that
names a part (the first part in PARTS whose needle that frame holds); the rest is "other".

    heaptrack_print -f heaptrack.zst -F stacks.txt --flamegraph-cost-type peak
    swift demangle --simplified < stacks.txt > stacks-demangled.txt
    python3 Benchmarks/scripts/heap_parts.py stacks-demangled.txt

Used by Benchmarks/heap-nightly.sh (see Benchmarks/README.md).
"""
import collections
import sys

# Label -> a substring of a frame name.
PARTS = [
    ("decoded snapshot", "Snapshot.decodeInPlace"),
    ("merged copy of the people (PeopleByID)", "PeopleByID"),
    ("everyone's preparation (PreparationCache)", "PreparationCache"),
    ("search token cache", "SearchTokenCache"),
    ("export row table", "ExportRow"),
    ("render fingerprints", "RenderFingerprint"),
    ("directory lookups", "makeLookups"),
    ("site directory", "SiteDirectory"),
    ("person pages", "renderPeople"),
]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: heap_parts.py DEMANGLED_PEAK_STACKS")
    sums = collections.Counter()
    total = 0
    for line in open(sys.argv[1], errors="replace"):
        stack, _, cost = line.rstrip("\n").rpartition(" ")
        if not cost.isdigit():
            continue
        total += int(cost)
        label = "other"
        for frame in reversed(stack.split(";")):
            found = next((name for name, needle in PARTS if needle in frame), None)
            if found:
                label = found
                break
        sums[label] += int(cost)
    print(f"{'part':<45} {'MB at the peak':>15}")
    for label, cost in sums.most_common():
        print(f"{label:<45} {cost / 1e6:15.1f}")
    print(f"{'all':<45} {total / 1e6:15.1f}")


if __name__ == "__main__":
    main()
