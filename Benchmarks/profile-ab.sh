#!/usr/bin/env bash
# Two orgdir binaries profiled side by side on a 100,000-person nightly: `profile-nightly.sh` for each, A B A B …,
# then the samples of each part of the run for every profile (`scripts/perf_parts.py`). Page zeroing swings by
# hundreds of samples between runs of one binary: compare the parts, and the total without it.
#   Benchmarks/profile-ab.sh OLD_ORGDIR NEW_ORGDIR [ROUNDS=3]
# Writes each profile's samples to Benchmarks/work/profile-ab/{A,B}-N.txt. Needs the release binaries
# Benchmarks/run.sh builds (the sandbox's).
set -euo pipefail
cd "$(dirname "$0")/.."
first=$(realpath "$1") second=$(realpath "$2") rounds=${3:-3}
work=${BENCH_WORK:-$PWD/Benchmarks/work}
out=$work/profile-ab
rm -rf "$out" && mkdir -p "$out"
files=()
for round in $(seq 1 "$rounds"); do
  for side in A B; do
    exe=$first; [ "$side" = B ] && exe=$second
    echo "round $round $side" >&2
    PROFILE_ORGDIR=$exe Benchmarks/profile-nightly.sh 2>&1 | grep '^nightly' >&2
    cp "$work/profile-nightly/script.txt" "$out/$side-$round.txt"
    files+=("$out/$side-$round.txt")
  done
done
python3 Benchmarks/scripts/perf_parts.py "${files[@]}"
