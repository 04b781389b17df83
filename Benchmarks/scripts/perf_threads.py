#!/usr/bin/env python3
"""What each thread ran, window by window: reads `perf script` output with thread ids and times (demangled, as
`Benchmarks/profile-nightly.sh` leaves it in Benchmarks/work/profile-nightly/script.txt) and prints, for each window
of WIDTH seconds from FROM to TO (seconds from the first sample), each thread's two commonest parts and their samples.
A part is the most specific stage of `perf_timeline.STAGES` (and of any `--part LABEL=NEEDLE`, taken as more specific
still) on the sample's stack, else its leaf frame. Where one
thread shows nothing for a window, its core was idle or busy elsewhere; where a part holds one thread while the other
waits, that is a one-core stretch.

    python3 Benchmarks/scripts/perf_threads.py Benchmarks/work/profile-nightly/script.txt 0.10 0.36 0.01
    python3 Benchmarks/scripts/perf_threads.py --part "snapshot's file=SnapshotFileWriter" script.txt 0 0.6 0.02
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_timeline import STAGES, thread_samples  # noqa: E402


def part(stack, parts):
    label = None
    for name, needle in parts:
        if any(needle in frame for frame in stack):
            label = name.strip()  # later entries are the more specific ones (a stage's parts follow it)
    return label or (stack[0][:40] if stack else "?")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", action="append", default=[], help="LABEL=NEEDLE, after the stages")
    parser.add_argument("file")
    parser.add_argument("window", nargs="*", type=float, help="FROM TO WIDTH (seconds; default 0 to the end, 0.01)")
    arguments = parser.parse_args()
    if len(arguments.window) not in (0, 3):
        parser.error("give FROM, TO and WIDTH, or none")
    parts = list(STAGES.items()) + [tuple(given.split("=", 1)) for given in arguments.part]
    rows = list(thread_samples(arguments.file))
    if not rows:
        sys.exit("no samples")
    start = min(time for _, time, _ in rows)
    low, high, width = arguments.window or (0.0, float("inf"), 0.01)
    windows = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    for thread, time, stack in rows:
        offset = time - start
        if low <= offset < high:
            windows[int((offset - low) / width)][thread][part(stack, parts)] += 1
    for window in sorted(windows):
        threads = windows[window]
        print(f"{low + window * width:6.3f}  " + " | ".join(
            f"{thread}: " + ", ".join(f"{name} {count}" for name, count in threads[thread].most_common(2))
            for thread in sorted(threads)))


if __name__ == "__main__":
    main()
