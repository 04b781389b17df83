#!/usr/bin/env bash
# Nightlies under snapshot retention: a first build with `keepSnapshots` KEEP, then NIGHTS nightlies of 1 % churn (the
# sandbox's, `change_people`), each timed, with how many people it rendered and carried and how many files it wrote
# (`orgdir build --json`). From night KEEP on every run drops the oldest snapshot and the night recorded against it.
#
#   Benchmarks/retention-nights.sh [ORGDIR] [KEEP=3] [NIGHTS=6] [PEOPLE=100000]
#
# Needs the release graph-sandbox in .build-bench/release (`make bench` or `Benchmarks/run.sh` builds it).
set -euo pipefail
cd "$(dirname "$0")/.."
exe=$(realpath "${1:-.build-bench/release/orgdir}") keep=${2:-3} nights=${3:-6}
export bin=.build-bench/release dir=/dev/shm/orgdir-retention users=${4:-100000}
rm -rf "$dir"; mkdir -p "$dir"
export SANDBOX_SETTINGS_EXTRA="<key>keepSnapshots</key><integer>$keep</integer>"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
export ORGDIR_CLIENT_SECRET=sandbox-secret
"$exe" build --config "$dir/settings.plist" --quiet
for night in $(seq 1 "$nights"); do
  change_people $((2000 + night)) > /dev/null
  /usr/bin/time -o "$dir/time" -f "%e s wall, %U s user, %S s sys, %M KB peak" \
    "$exe" build --config "$dir/settings.plist" --json > "$dir/summary.json"
  python3 - "$dir/summary.json" "$dir/time" "$night" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
print(f"night {sys.argv[3]}: {open(sys.argv[2]).read().strip()}; rendered {summary.get('peopleRendered')}, "
      f"carried {summary.get('fingerprintsCarried')}, change pages carried {summary.get('changePagesCarried')}, "
      f"files written {summary.get('filesWritten')}")
PY
done
rm -rf "$dir"
