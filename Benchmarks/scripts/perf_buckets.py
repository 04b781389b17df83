#!/usr/bin/env python3
"""How busy the cores were, slice by slice: reads `perf script -F time,tid,ip,sym` output (demangled, as
`Benchmarks/profile-nightly.sh` leaves it in Benchmarks/work/profile-nightly/script.txt) and prints, for each slice of
WIDTH seconds from the first sample, its sample count and the parts (`perf_timeline.STAGES`, the innermost on the
stack) with the most samples in it. At 999 Hz on two cores a 20 ms slice holds at most 40 samples: a slice well
below that had a core waiting.

    python3 Benchmarks/scripts/perf_buckets.py Benchmarks/work/profile-nightly/script.txt [WIDTH=0.02]
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_timeline import STAGES, thread_samples  # noqa: E402


def label(stack):
    """The innermost part on the stack, else the outermost frame of orgdir's own code, else the leaf."""
    text = " ".join(stack)
    found = None
    for name, needle in STAGES.items():
        if needle in text:
            found = name.strip()
    if found:
        return found
    ours = [frame for frame in stack if any(word in frame for word in ("OrgDirectory", "Site", "Build"))]
    return "~" + ours[-1][:60] if ours else (stack[0][:40] if stack else "?")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    width = float(sys.argv[2]) if len(sys.argv) == 3 else 0.02
    rows = list(thread_samples(sys.argv[1]))
    if not rows:
        sys.exit("no samples")
    start = min(time for _, time, _ in rows)
    slices = collections.defaultdict(collections.Counter)
    for _, time, stack in rows:
        slices[int((time - start) / width)][label(stack)] += 1
    for index in sorted(slices):
        counts = slices[index]
        parts = ", ".join(f"{name}: {count}" for name, count in counts.most_common(4))
        print(f"{index * width:5.2f} {sum(counts.values()):4d}  {parts}")


if __name__ == "__main__":
    main()
