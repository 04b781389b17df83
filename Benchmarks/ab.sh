#!/usr/bin/env bash
# Side-by-side A/B of two orgdir binaries: interleaved full builds (A B A B …) against one sandbox tenant, outputs
# on tmpfs, each run on an emptied output and state folder, GNU time per run. For a quick "did this change help"
# before a full `make bench`.
#
#   Benchmarks/ab.sh OLD_ORGDIR NEW_ORGDIR [ROUNDS=3] [PEOPLE=100000]
#   AB_LATENCY_MS=100 Benchmarks/ab.sh OLD NEW   # the same with that latency on every users page (whole builds
#                                                 # against a slow Graph, as the latency rows of `make bench`)
#   AB_PRELOAD_B=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 Benchmarks/ab.sh ORGDIR ORGDIR
#                                                 # the same binary with another allocator preloaded on side B
#   AB_WARMUP=0 Benchmarks/ab.sh OLD NEW 2 1000000    # a million people, no untimed warm-up (needs ~3.05M free
#                                                 # inodes in /dev/shm)
#
# Needs a release graph-sandbox in .build-bench/release (`make bench` or
# `swift build -c release --scratch-path .build-bench --product graph-sandbox`).
set -euo pipefail
cd "$(dirname "$0")/.."
first=$1 second=$2 rounds=${3:-3}
export bin=.build-bench/release dir=/dev/shm/orgdir-ab users=${4:-100000}
rm -rf "$dir"; mkdir -p "$dir"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
export ORGDIR_CLIENT_SECRET=sandbox-secret
if [ -n "${AB_LATENCY_MS:-}" ]; then
  curl -sf -X POST -H 'Content-Type: application/json' \
    -d "{\"rules\": [{\"fault\": \"latency\", \"milliseconds\": $AB_LATENCY_MS, \"on\": \"users\"}]}" \
    "$base/_sandbox/faults" > /dev/null
fi
# Warm-up, untimed (AB_WARMUP=0 skips it: a million-person build takes as long as a round).
[ "${AB_WARMUP:-1}" = 0 ] || "$first" build --config "$dir/settings.plist" > /dev/null 2>&1
for _ in $(seq 1 "$rounds"); do
  for side in A B; do
    exe=$first; [ "$side" = B ] && exe=$second
    rm -rf "$dir/Output" "$dir/State" "$dir"/.Output*
    preload=""; [ "$side" = B ] && preload=${AB_PRELOAD_B:-}
    LD_PRELOAD="$preload" /usr/bin/time -f "$side %e s wall %U s user %S s sys %M KB peak" "$exe" build --config "$dir/settings.plist" \
      2>&1 > /dev/null | tail -1 | tee -a "$dir/rounds"
  done
done
# Each side's medians, and in how many rounds B was faster.
python3 Benchmarks/scripts/ab_summary.py < "$dir/rounds"
rm -rf "$dir"
