#!/usr/bin/env python3
"""Medians of an A/B run's rounds: reads the lines `Benchmarks/ab-nightly.sh` and `Benchmarks/ab.sh` print
("round N A: W s wall, U s user, S s sys, K KB peak…" or "A W s wall, …") and prints, for each side, the median
wall, user and system seconds and peak (MiB), and page faults where every line gives them ("…, F page faults"), then
in how many rounds B was faster than A.

    Benchmarks/ab-nightly.sh OLD NEW 8 | tee ab.txt; python3 Benchmarks/scripts/ab_summary.py < ab.txt
"""
import re
import statistics
import sys

LINE = re.compile(r"(?:round (\d+) )?(A|B):? ([\d.]+) s wall,? ([\d.]+) s user,? ([\d.]+) s sys,? (\d+) KB peak")
FAULTS = re.compile(r"(\d+) page faults")


def main():
    sides = {"A": [], "B": []}
    for line in sys.stdin:
        match = LINE.match(line.strip())
        if match:
            faults = FAULTS.search(line)
            sides[match.group(2)].append(
                tuple(float(match.group(i)) for i in range(3, 7)) + (float(faults.group(1)) if faults else None,))
    if not sides["A"] or not sides["B"]:
        sys.exit("no rounds of both sides found")
    for side, runs in sides.items():
        median = lambda i: statistics.median(run[i] for run in runs)
        # The process's own page faults, where the lines give them (`ab-nightly.sh`).
        faults = [run[4] for run in runs if run[4] is not None]
        counted = f", {statistics.median(faults):.0f} page faults" if len(faults) == len(runs) else ""
        print(f"{side}: median {median(0):.3f} s wall, {median(1):.2f} s user, {median(2):.2f} s sys, "
              f"{median(3) / 1024:.0f} MiB peak{counted} ({len(runs)} rounds)")
    pairs = list(zip(sides["A"], sides["B"]))
    faster = sum(1 for a, b in pairs if b[0] < a[0])
    print(f"B faster in {faster} of {len(pairs)} rounds")


if __name__ == "__main__":
    main()
