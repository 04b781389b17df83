#!/usr/bin/env bash
# A first build that finds the spare of an output deleted with its state (`rm -rf Output State`, the spare
# `.Output.spare` beside it left, as a clean-up that knows only the configured folders leaves it), against a first
# build from nothing, interleaved: A from nothing, B over the orphaned spare, ROUNDS times, GNU time for each.
# Since ae71ca6 a first build writes over such a spare (and sweeps what it does not write) instead of removing it.
#   Benchmarks/orphaned-spare.sh [ORGDIR=.build-bench/release/orgdir] [PEOPLE=100000] [ROUNDS=3]
#   ORPHAN_EMPTIED=1 Benchmarks/orphaned-spare.sh   # B's output and state emptied with `rm -rf Output/* State/*`
#                                                   # (the output's dotfiles stay) instead of deleted
# Needs a release graph-sandbox in .build-bench/release.
set -euo pipefail
cd "$(dirname "$0")/.."
orgdir=${1:-.build-bench/release/orgdir}
export bin=.build-bench/release dir=/dev/shm/orgdir-orphaned-spare users=${2:-100000}
rounds=${3:-3}
rm -rf "$dir"; mkdir -p "$dir"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
trap 'kill "$sandbox" 2>/dev/null || true; rm -rf "$dir"' EXIT
export ORGDIR_CLIENT_SECRET=sandbox-secret
# A first build and a nightly, which leaves the first build's site as the spare; that spare is kept aside.
"$orgdir" build --config "$dir/settings.plist" --quiet
change_people 1000 > /dev/null
"$orgdir" build --config "$dir/settings.plist" --quiet
mv "$dir/.Output.spare" "$dir/spare.saved"
for round in $(seq 1 "$rounds"); do
  rm -rf "${dir:?}/Output" "$dir/State" "$dir"/.Output*
  /usr/bin/time -f "round $round A, from nothing:     %e s wall, %U s user, %S s sys, %M KB peak" \
    "$orgdir" build --config "$dir/settings.plist" --quiet
  if [ -n "${ORPHAN_EMPTIED:-}" ]; then
    rm -rf "${dir:?}"/Output/* "$dir"/State/* "$dir"/.Output.spare
  else
    rm -rf "${dir:?}/Output" "$dir/State" "$dir"/.Output*
  fi
  cp -a "$dir/spare.saved" "$dir/.Output.spare"
  /usr/bin/time -f "round $round B, orphaned spare:  %e s wall, %U s user, %S s sys, %M KB peak" \
    "$orgdir" build --config "$dir/settings.plist" --quiet
done
