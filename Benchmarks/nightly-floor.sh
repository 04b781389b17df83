#!/usr/bin/env bash
# The least a nightly rebuild can cost: the files one nightly run writes (1% of the people changed, the bench's churn),
# written by the floor writer alone (open + one write + close each, no templating). One full build and one nightly
# first (untimed, so the spare site exists), then 1% more changed and the timed nightly; every file it wrote (newer
# than its start) goes into a manifest the floor writer replays ROUNDS times, alone and with the state files the
# nightly wrote (snapshot and caches). Needs the release binaries of
# Benchmarks/run.sh and cc.
#   Benchmarks/nightly-floor.sh [PEOPLE=100000] [ROUNDS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
export users=${1:-100000} bin=.build-bench/release dir=/dev/shm/orgdir-nightly-floor
rounds=${2:-3}
rm -rf "$dir" && mkdir -p "$dir"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
trap 'kill "$sandbox" 2>/dev/null || true; rm -rf "$dir"' EXIT
cc -O2 -o "$dir/floor" Benchmarks/floor/floor.c
export ORGDIR_CLIENT_SECRET=sandbox-secret
ready_second_nightly "$bin/orgdir"
touch "$dir/started" && sleep 1
/usr/bin/time -f 'nightly: %e s wall, %U s user, %S s sys' "$bin/orgdir" build --config "$dir/settings.plist" --quiet
(cd "$dir/Output" && find . -type f -newer "$dir/started" -printf '%s\t%P\n' | sort -k2) > "$dir/manifest"
awk -F'\t' '{ split($2, part, "/"); n[part[1]]++; s[part[1]] += $1; t += $1 }
  END { for (k in n) printf "  %-16s %6d files %12d bytes\n", k, n[k], s[k]; printf "  total %d bytes\n", t }' \
  "$dir/manifest" | sort -k4 -n -r
# The state a nightly writes too (the snapshot, the caches it keeps for the next run), beside the site's files.
(cd "$dir/State" && find . -type f -newer "$dir/started" -printf '%s\tstate/%P\n' | sort -k2) > "$dir/state"
awk -F'\t' '{ t += $1 } END { printf "  state: %d files %d bytes\n", NR, t }' "$dir/state"
sort -k2 "$dir/manifest" "$dir/state" > "$dir/manifest+state"
for _ in $(seq 1 "$rounds"); do
  rm -rf "$dir/floor-out"
  /usr/bin/time -f 'floor writer, the nightly'"'"'s files: %e s wall, %U s user, %S s sys' \
    "$dir/floor" "$dir/manifest" "$dir/floor-out" > /dev/null
  rm -rf "$dir/floor-out"
  /usr/bin/time -f 'floor writer, the same and the state: %e s wall, %U s user, %S s sys' \
    "$dir/floor" "$dir/manifest+state" "$dir/floor-out" > /dev/null
done
