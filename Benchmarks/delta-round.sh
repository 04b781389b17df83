#!/usr/bin/env bash
# How long a nightly's delta round takes by itself, against how long the nightly waits for it and for the snapshot's
# decode: a full build and the nightly before (`ready_second_nightly`), 1% changed, the round fetched ROUNDS times
# alone (scripts/delta_round_time.py), then the nightly with its `--verbose` times of both.
#   Benchmarks/delta-round.sh [ORGDIR=.build-bench/release/orgdir] [PEOPLE=100000] [ROUNDS=3]
# Needs a release graph-sandbox in .build-bench/release.
set -euo pipefail
cd "$(dirname "$0")/.."
orgdir=${1:-.build-bench/release/orgdir}
export users=${2:-100000} bin=.build-bench/release dir=/dev/shm/orgdir-delta-round
rounds=${3:-3}
rm -rf "$dir" && mkdir -p "$dir"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
trap 'kill "$sandbox" 2>/dev/null || true; rm -rf "$dir"' EXIT
export ORGDIR_CLIENT_SECRET=sandbox-secret
ready_second_nightly "$orgdir"
for _ in $(seq 1 "$rounds"); do python3 Benchmarks/scripts/delta_round_time.py "$base" "$dir/State"; done
"$orgdir" build --config "$dir/settings.plist" --verbose 2>&1 | grep -E "snapshot read|delta round fetched|sign-in and sync"
