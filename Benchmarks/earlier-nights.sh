#!/usr/bin/env bash
# One nightly past a keepSnapshots limit (3) replayed with and without 100,000 extra ids in the history's `earlier`
# (scripts/inject_earlier.py: 80 dates, ids no one has), alternated, with the stages that read and record the history.
#   Benchmarks/earlier-nights.sh ORGDIR [ROUNDS=4]     (needs the release graph-sandbox in .build-bench/release)
set -euo pipefail
cd "$(dirname "$0")/.."
exe=$(realpath "$1") rounds=${2:-4}
export bin=.build-bench/release dir=/dev/shm/orgdir-earlier users=100000
rm -rf "$dir"; mkdir -p "$dir"
export SANDBOX_SETTINGS_EXTRA="<key>keepSnapshots</key><integer>3</integer>"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
export ORGDIR_CLIENT_SECRET=sandbox-secret
"$exe" build --config "$dir/settings.plist" --quiet
for night in 1 2 3; do change_people $((3000 + night)) > /dev/null; "$exe" build --config "$dir/settings.plist" --quiet; done
change_people 3100 > /dev/null
mkdir -p "$dir/A" "$dir/B"
cp -a "$dir/Output" "$dir/State" "$dir/A/"; ls -a "$dir" | grep spare && cp -a "$dir/.Output.spare" "$dir/A/" || true
cp -a "$dir/A/." "$dir/B/"
python3 Benchmarks/scripts/inject_earlier.py "$dir/B/State/history.jsonl" 100000
for round in $(seq 1 "$rounds"); do
  for side in A B; do
    rm -rf "$dir/Output" "$dir/State" "$dir/.Output.spare"; cp -a "$dir/$side/." "$dir/"
    /usr/bin/time -o "$dir/time" -f "%e s wall %U user %S sys %M KB" "$exe" build --config "$dir/settings.plist" --verbose 2> "$dir/log" > /dev/null
    echo "round $round $side: $(cat "$dir/time"); $(sed -n 's/.*stage \(.*\) took \([0-9.]*\) ms.*/\1 \2/p' "$dir/log" | grep -E 'history|render into|sign-in' | paste -sd ';' -)"
  done
done
rm -rf "$dir"
