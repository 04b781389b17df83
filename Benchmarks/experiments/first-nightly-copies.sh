#!/usr/bin/env bash
# The trial that led to a first build keeping copies for its first nightly (0442df7), kept to be run again: one orgdir
# binary, the first nightly after a full build side by side, A as it is and B with copies made in the shell (`cp`)
# between the full build and the nightly, as the build itself now makes them. With a binary from 0442df7 on, both
# sides have the copies, so compare a binary from before it.
#   Benchmarks/experiments/first-nightly-copies.sh ORGDIR [ROUNDS=3] [site|all]
#     site: copies of the top-level files, browse/ and departments/ into .Output.replaced
#     all:  those and spares of list-rows.bin, preparations.bin and snapshot-people.bin (default)
# Needs a release graph-sandbox in .build-bench/release.
set -euo pipefail
cd "$(dirname "$0")/../.."
exe=$1 rounds=${2:-3} mode=${3:-all}
export bin=.build-bench/release dir=/dev/shm/orgdir-first-nightly-copies users=100000
rm -rf "$dir"; mkdir -p "$dir"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
export ORGDIR_CLIENT_SECRET=sandbox-secret
seed=3000
for round in $(seq 1 "$rounds"); do
  for side in A B; do
    rm -rf "${dir:?}/Output" "$dir/State" "$dir"/.Output*
    "$exe" build --config "$dir/settings.plist" --quiet
    if [ "$side" = B ]; then
      copies=$dir/.Output.replaced
      mkdir -p "$copies/browse" "$copies/departments"
      cp "$dir/Output/.orgdir-site" "$dir"/Output/people.* "$dir/Output/index.html" "$dir/Output/departments.html" "$copies/"
      cp "$dir"/Output/browse/* "$copies/browse/"
      cp "$dir"/Output/departments/* "$copies/departments/"
      if [ "$mode" = all ]; then
        for name in list-rows.bin snapshot-people.bin preparations.bin; do cp "$dir/State/$name" "$dir/State/.$name.spare"; done
      fi
    fi
    seed=$((seed + 1))
    change_people "$seed" > /dev/null
    /usr/bin/time -o "$dir/time" -f "round $round $side: %e s wall, %U s user, %S s sys, %M KB peak" \
      "$exe" build --config "$dir/settings.plist" --quiet
    tee -a "$dir/rounds" < "$dir/time"
  done
done
python3 Benchmarks/scripts/ab_summary.py < "$dir/rounds"
rm -rf "$dir"
