#!/usr/bin/env bash
# How large a nightly's search overlay grows: one full build, then NIGHTS nightlies of the sandbox's churn
# (CHANGE_PERCENT % of the people a night, 1 by default, see sandbox.sh), printing after each how many people the
# overlay holds (the `at` list of search/o/0.js); 0 after the first night means that night made a new search base.
#
#   Benchmarks/overlay-nights.sh [ORGDIR] [PEOPLE=100000] [NIGHTS=3]
#   CHANGE_PERCENT=4 SANDBOX_SETTINGS_EXTRA='<key>maxRemovals</key><integer>5000</integer>' Benchmarks/overlay-nights.sh
#
# Needs release binaries in .build-bench/release (`make bench` builds them).
set -euo pipefail
cd "$(dirname "$0")/.."
export bin=.build-bench/release dir=/dev/shm/orgdir-overlay-nights users=${2:-100000}
exe=${1:-$bin/orgdir} nights=${3:-3}
rm -rf "$dir"; mkdir -p "$dir"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
export ORGDIR_CLIENT_SECRET=sandbox-secret
"$exe" build --config "$dir/settings.plist" --quiet
for night in $(seq 1 "$nights"); do
  change_people $((1000 + night)) > /dev/null
  "$exe" build --config "$dir/settings.plist" --quiet
  python3 - "$dir/Output/search/o/0.js" "$night" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
at = re.search(r'"at":\[([^\]]*)\]', text).group(1)
print(f"night {sys.argv[2]}: the overlay holds {0 if not at else at.count(',') + 1} people")
PY
done
rm -rf "$dir"
