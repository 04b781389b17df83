#!/usr/bin/env python3
"""When each part of a build ran: reads `perf script -F time,tid,ip,sym` output (demangled) and prints, for each
stage found on the sampled stacks, the first and last sample time (seconds from the first sample) and the sample
count. Parts that overlap ran on different cores; a part alone in its span ran on one core while the other waited.

    perf script -i perf.data -F time,tid,ip,sym | swift demangle --simplified > script.txt
    python3 Benchmarks/scripts/perf_timeline.py script.txt

Used by Benchmarks/profile-tail.sh (see Benchmarks/README.md).
"""
import collections
import sys

# Label -> a substring of a frame name on the stack.
STAGES = {
    "snapshot load": "SnapshotStore.latest",
    "sync": "DirectorySync.run",
    "  delta merge": "DeltaMerge",
    "  manager names": "namingManagers",
    "diff": "DirectoryDiff.between",
    "rules": "LocalRules",
    "prepare": "SiteDirectory.prepare",
    "directory": "SiteDirectory.init(prepared",
    "search": "renderSearch",
    "  token postings": "tokenPostings",
    "  token shards": "tokenShards",
    "  phone shards": "phoneShards",
    "  records": "recordChunks",
    "exports": "renderExports",
    "  csv rows": "ExportWriter.appendCSVRow",
    "  json objects": "ExportWriter.appendJSONObject",
    "  row keys": "ExportRows.rowKey",
    "browse": "renderBrowse",
    "departments": "renderDepartments",
    "people": "renderPeople",
    "snapshot": "SnapshotUserCodec",
    "fingerprint file": "RenderFingerprints.encoded",
    "old tree removal": "TreeRemoval",
    "stale sweep": "removeStale",
    "snapshot write": "SnapshotStore.prepareSave",
}


def thread_samples(path):
    """Each sample as (thread id, time, stack), the stack's frames leaf first."""
    current = None
    for line in open(path, errors="replace"):
        if not line.strip():
            continue
        if not line.startswith("\t"):
            if current:
                yield current
            fields = line.split()
            current = (fields[0], float(fields[1].rstrip(":")), [])
        elif current:
            frame = line.strip()
            current[2].append(frame.split(" ", 1)[1] if " " in frame else frame)
    if current:
        yield current


def samples(path):
    """Each sample as (time, stack)."""
    for _, time, stack in thread_samples(path):
        yield time, stack


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: perf_timeline.py PERF_SCRIPT_OUTPUT")
    all_samples = list(samples(sys.argv[1]))
    if not all_samples:
        sys.exit("no samples")
    start = min(time for time, _ in all_samples)
    spans = collections.OrderedDict()
    for time, stack in all_samples:
        text = " ".join(stack)
        for label, needle in STAGES.items():
            if needle in text:
                first, last, count = spans.get(label, (time, time, 0))
                spans[label] = (min(first, time), max(last, time), count + 1)
    print(f"{'part':<18} {'from s':>7} {'to s':>7} {'samples':>8}")
    for label, (first, last, count) in sorted(spans.items(), key=lambda item: item[1][0]):
        print(f"{label:<18} {first - start:7.2f} {last - start:7.2f} {count:8d}")
    print(f"{len(all_samples)} samples over {max(t for t, _ in all_samples) - start:.2f} s")


if __name__ == "__main__":
    main()
