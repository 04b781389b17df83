#!/usr/bin/env bash
# What a nightly rebuild's heap holds at its peak, by part: one full `orgdir build` of a sandbox tenant, 1% of the
# people changed and an untimed nightly (it leaves the spare site), 1% more changed, then the nightly under
# `heaptrack`; prints `scripts/heap_parts.py`'s table and keeps the recording in Benchmarks/work/heap-nightly/.
# Needs heaptrack (Debian: `apt-get install heaptrack`) and the release binaries Benchmarks/run.sh builds.
#   HEAP_USERS=100000     people in the tenant
#   HEAP_ORGDIR=PATH      the orgdir binary (default: the release build's)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v heaptrack > /dev/null || { echo "heaptrack is missing: apt-get install heaptrack" >&2; exit 1; }
root=$PWD
export users=${HEAP_USERS:-100000} bin=$root/.build-bench/release dir=/dev/shm/orgdir-heap-nightly
orgdir=${HEAP_ORGDIR:-$bin/orgdir}
report=${BENCH_WORK:-$root/Benchmarks/work}/heap-nightly
rm -rf "$dir" "$report" && mkdir -p "$dir" "$report"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
trap 'kill "$sandbox" 2>/dev/null || true; rm -rf "$dir"' EXIT
export ORGDIR_CLIENT_SECRET=sandbox-secret
ready_second_nightly "$orgdir"
heaptrack -o "$report/nightly" "$orgdir" build --config "$dir/settings.plist" --quiet > "$report/heaptrack.log" 2>&1
heaptrack_print -f "$report"/nightly.*zst -F "$report/peak-stacks.txt" --flamegraph-cost-type peak \
  --print-peaks 0 --print-allocators 0 --print-temporary 0 --print-leaks 0 > /dev/null
swift demangle --simplified < "$report/peak-stacks.txt" > "$report/peak-stacks-demangled.txt"
python3 Benchmarks/scripts/heap_parts.py "$report/peak-stacks-demangled.txt" | tee "$report/parts.txt"
