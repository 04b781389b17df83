#!/usr/bin/env python3
"""How many samples of a profile hold each part of a nightly run on their stack, for several profiles side by side:
reads `perf script -F time,tid,ip,sym` output (demangled, as `Benchmarks/profile-nightly.sh` leaves it in
Benchmarks/work/profile-nightly/script.txt) and prints one row per part, one column per file. Compare runs part by
part: the kernel's page zeroing (`clear_page_erms`) swings by hundreds of samples from one run of the same binary
to the next, so the total is also given without it.

    python3 Benchmarks/scripts/perf_parts.py A-1.txt A-2.txt B-1.txt B-2.txt
    python3 Benchmarks/scripts/perf_parts.py --part "row keys=RowMatch.make" A-1.txt B-1.txt
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_timeline import samples  # noqa: E402

# Label -> a substring of a frame name on the stack.
PARTS = [
    ("snapshot decode", "decodeInPlace"),
    ("preparation", "SiteDirectory.prepare"),
    ("the directory's ordered pass", "SiteDirectory.init(prepared"),
    # makeSlugsAndLists before 2026-11-29 23:20, makeSlugsAndLetters since (the departments moved to the lookups).
    ("  slugs and letters (and lists)", "makeSlugsAnd"),
    ("  lookups", "makeLookups"),
    ("    departments", "makeDepartments"),
    ("row keys", "RowMatch.make"),
    ("search", "renderSearch"),
    ("  token shards", "tokenShards"),
    ("  phone shards", "phoneShards"),
    ("  records", "recordChunks"),
    ("people", "renderPeople"),
    ("  fingerprint input", "addFingerprintInput"),
    ("state saved after the publish", "BuildPipeline.save"),
    ("page zeroing", "clear_page_erms"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", action="append", default=[], help="LABEL=NEEDLE, added to the default parts")
    parser.add_argument("files", nargs="+")
    arguments = parser.parse_args()
    parts = PARTS + [tuple(part.split("=", 1)) for part in arguments.part]
    columns = []
    for path in arguments.files:
        counts = {label: 0 for label, _ in parts}
        total = 0
        for _, stack in samples(path):
            total += 1
            text = " ".join(stack)
            for label, needle in parts:
                if needle in text:
                    counts[label] += 1
        columns.append((total, counts))
    names = [os.path.basename(path) for path in arguments.files]
    width = max(len(label) for label, _ in parts + [("all, page zeroing left out", "")])
    print(f"{'part':<{width}}  " + "  ".join(f"{name:>10}" for name in names))
    print(f"{'all':<{width}}  " + "  ".join(f"{total:>10}" for total, _ in columns))
    print(f"{'all, page zeroing left out':<{width}}  "
          + "  ".join(f"{total - counts['page zeroing']:>10}" for total, counts in columns))
    for label, _ in parts:
        print(f"{label:<{width}}  " + "  ".join(f"{counts[label]:>10}" for _, counts in columns))


if __name__ == "__main__":
    main()
