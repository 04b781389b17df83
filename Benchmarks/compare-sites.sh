#!/usr/bin/env bash
# Do two orgdir binaries build the same site? Both build one sandbox tenant (managers expanded, so person pages
# carry manager and report links) into their own output; every file is compared with the run's "data as of"
# stamps masked. Prints the files that differ (none is the answer a pure optimisation must give).
#
#   Benchmarks/compare-sites.sh OLD_ORGDIR NEW_ORGDIR [PEOPLE=5000]
#
# Needs a release graph-sandbox in .build-bench/release.
set -euo pipefail
cd "$(dirname "$0")/.."
first=$1 second=$2
export bin=.build-bench/release dir=/dev/shm/orgdir-compare users=${3:-5000}
rm -rf "$dir"; mkdir -p "$dir"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
export ORGDIR_CLIENT_SECRET=sandbox-secret
sed -i 's#</dict></plist>#<key>expandManager</key><true/></dict></plist>#' "$dir/settings.plist"
for side in A B; do
  exe=$first; [ "$side" = B ] && exe=$second
  sed "s#$dir/Output#$dir/Out$side#; s#$dir/State#$dir/State$side#" "$dir/settings.plist" > "$dir/$side.plist"
  "$exe" build --config "$dir/$side.plist" > /dev/null
done
python3 - "$dir/OutA" "$dir/OutB" <<'PY'
import os, re, sys
a, b = sys.argv[1], sys.argv[2]
stamp = re.compile(rb"\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\dZ| \d\d:\d\d UTC)")
def files(root):
    return {os.path.relpath(os.path.join(d, f), root) for d, _, names in os.walk(root) for f in names}
left, right = files(a), files(b)
differ = sorted(p for p in left & right
                if stamp.sub(b"X", open(os.path.join(a, p), "rb").read())
                != stamp.sub(b"X", open(os.path.join(b, p), "rb").read()))
for path in sorted(left ^ right): print("only in one:", path)
for path in differ: print("differs:", path)
print(f"{len(differ) + len(left ^ right)} of {len(left | right)} files differ")
sys.exit(1 if differ or left ^ right else 0)
PY
rm -rf "$dir"
