#!/usr/bin/env bash
# Nightly rebuilds one after another, as cron runs them: one first build of a sandbox tenant, then per round 1% of
# the people changed (POST /_sandbox/changes) and an `orgdir build --verbose`, with GNU time and the stage log of
# each. The first round has no spare site yet (it links every unchanged file); the later ones update the spare.
#   Benchmarks/nightly-rounds.sh [ORGDIR=.build-bench/release/orgdir] [PEOPLE=100000] [ROUNDS=3]
#   SANDBOX_ARGS="--delta-support none" Benchmarks/nightly-rounds.sh   # against a Graph without /users/delta
#   ROUNDS_DIR=Benchmarks/work/disk-rounds Benchmarks/nightly-rounds.sh   # on disk, what users see: dirty pages are
#                                                                         # flushed (sync) before each timed run
# At the end it prints the state folder's size and the spares' share of it.
# Needs a release graph-sandbox in .build-bench/release.
set -euo pipefail
cd "$(dirname "$0")/.."
orgdir=${1:-.build-bench/release/orgdir}
export users=${2:-100000} bin=.build-bench/release dir=$(realpath -m "${ROUNDS_DIR:-/dev/shm/orgdir-nightly-rounds}")
rounds=${3:-3}
rm -rf "$dir" && mkdir -p "$dir"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
trap 'kill "$sandbox" 2>/dev/null || true; rm -rf "$dir"' EXIT
export ORGDIR_CLIENT_SECRET=sandbox-secret
# ROUNDS_SETTINGS: plist entries added to the settings, e.g. '<key>publish</key><string>wholeSite</string>'.
[ -n "${ROUNDS_SETTINGS:-}" ] && sed -i "s#</dict></plist>#${ROUNDS_SETTINGS}</dict></plist>#" "$dir/settings.plist"
sync
/usr/bin/time -f 'first build: %e s wall, %U s user, %S s sys, %M KB peak' "$orgdir" build --config "$dir/settings.plist" --quiet
for round in $(seq 1 "$rounds"); do
  change_people $((1000 + round)) > /dev/null
  sync
  /usr/bin/time -f "nightly $round: %e s wall, %U s user, %S s sys, %M KB peak" \
    "$orgdir" build --config "$dir/settings.plist" --verbose 2>&1 | grep -E 'stage |published|nightly|^delta| at [0-9.]+ ms'
done
# What the state folder holds after the last round, and how much of it is the spares the state caches are written over.
spares=$(find "$dir/State" -maxdepth 1 -name '.*.spare' -type f -printf '%s\n' | awk '{s += $1} END {printf "%.1f", s / 1e6}')
echo "state folder: $(du -sm "$dir/State" | cut -f1) MiB, of which spares (State/.*.spare): $spares MB"
