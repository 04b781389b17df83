#!/usr/bin/env bash
# How long each stage of a first build takes (`orgdir build --verbose`): one untimed warm-up, then ROUNDS full
# builds on an emptied output and state, each with its stage log and GNU time. SANDBOX_ARGS reach the sandbox, e.g.
# SANDBOX_ARGS="--listing-order scrambled" for a Graph that does not list people by id.
#   Benchmarks/stages.sh [ORGDIR=.build-bench/release/orgdir] [PEOPLE=100000] [ROUNDS=2]
# Needs a release graph-sandbox in .build-bench/release (`make bench`, or
# `swift build -c release --scratch-path .build-bench --product graph-sandbox`).
set -euo pipefail
cd "$(dirname "$0")/.."
orgdir=${1:-.build-bench/release/orgdir}
export bin=.build-bench/release dir=/dev/shm/orgdir-stages users=${2:-100000}
rounds=${3:-2}
rm -rf "$dir"; mkdir -p "$dir"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
export ORGDIR_CLIENT_SECRET=sandbox-secret
"$orgdir" build --config "$dir/settings.plist" > /dev/null 2>&1
for round in $(seq 1 "$rounds"); do
  rm -rf "$dir/Output" "$dir/State" "$dir"/.Output*
  /usr/bin/time -f "round $round: %e s wall, %U s user, %S s sys, %M KB peak" \
    "$orgdir" build --config "$dir/settings.plist" --verbose 2>&1 > /dev/null | grep -E 'stage |^round '
done
rm -rf "$dir"
