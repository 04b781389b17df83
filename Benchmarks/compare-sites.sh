#!/usr/bin/env bash
# Do two orgdir binaries build the same site? Both build one sandbox tenant (managers expanded, so person pages
# carry manager and report links) into their own output; every file is compared with the run's "data as of"
# stamps masked. Prints the files that differ (none is the answer a pure optimisation must give).
#
#   Benchmarks/compare-sites.sh OLD_ORGDIR NEW_ORGDIR [PEOPLE=5000]
#   COMPARE_NIGHTLIES=3 Benchmarks/compare-sites.sh OLD NEW   # then three nightly rebuilds each, 1% changed
#   COMPARE_SETTINGS_A='<key>publish</key><string>wholeSite</string>' COMPARE_NIGHTLIES=3 \
#     Benchmarks/compare-sites.sh NEW NEW   # the two ways of publishing a nightly build the same site?
#   COMPARE_STALE_SPARE=1 Benchmarks/compare-sites.sh NEW NEW # B's first build finds the spare of an output that was
#   deleted with its state (made by two earlier builds of B, the people changed since, an .htaccess in it), which
#   it writes over instead of removing: the result must equal A's build from nothing
#   (each nightly's GNU time is printed: A and B run one after the other on the same changes, so the later nights
#   are an interleaved A/B of the nightly; the first has no spare site yet)
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
  sed "s#$dir/Output#$dir/Out$side#; s#$dir/State#$dir/State$side#" "$dir/settings.plist" > "$dir/$side.plist"
done
# COMPARE_SETTINGS_A / COMPARE_SETTINGS_B: plist entries added to one side's settings, e.g. one binary with
# '<key>publish</key><string>wholeSite</string>' against itself with the default publish of changed files.
for side in A B; do
  extra_var=COMPARE_SETTINGS_$side
  [ -n "${!extra_var:-}" ] && sed -i "s#</dict></plist>#${!extra_var}</dict></plist>#" "$dir/$side.plist"
done
if [ -n "${COMPARE_STALE_SPARE:-}" ]; then
  "$second" build --config "$dir/B.plist" > /dev/null
  echo 'Options -Indexes' > "$dir/OutB/.htaccess"
  change_people 400 > /dev/null
  "$second" build --config "$dir/B.plist" > /dev/null
  rm -rf "$dir/OutB" "$dir/StateB"
  echo "stale spare beside B's output: $(find "$dir/.OutB.spare" -type f | wc -l) files"
fi
for side in A B; do
  exe=$first; [ "$side" = B ] && exe=$second
  "$exe" build --config "$dir/$side.plist" > /dev/null
done
# Nightly rounds on top (COMPARE_NIGHTLIES=N): 1% of the people changed, then both build again on their own
# output and state, so what a run carries over from the one before (or from the site before that) is compared too.
for round in $(seq 1 "${COMPARE_NIGHTLIES:-0}"); do
  change_people $((500 + round)) > /dev/null
  /usr/bin/time -f "night $round A: %e s wall, %U s user, %S s sys, %M KB peak" "$first" build --config "$dir/A.plist" > /dev/null
  /usr/bin/time -f "night $round B: %e s wall, %U s user, %S s sys, %M KB peak" "$second" build --config "$dir/B.plist" > /dev/null
done
python3 - "$dir/OutA" "$dir/OutB" <<'PY'
import collections, os, re, sys
a, b = sys.argv[1], sys.argv[2]
# Stamps, and the names of nights (snapshot times: the two sides' runs are seconds apart).
# (Markdown escapes the colon of "07\:40 UTC".)
stamp = re.compile(rb"\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\dZ| \d\d\\?:\d\d UTC|T\d\d-\d\d-\d\dZ(-\d+)?)|urn:uuid:[0-9a-f-]+")
night = re.compile(r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ(-\d+)?")
def files(root):
    found = collections.defaultdict(list)
    for d, _, names in os.walk(root):
        for f in names:
            path = os.path.relpath(os.path.join(d, f), root)
            found[night.sub("X", path)].append(stamp.sub(b"X", open(os.path.join(root, path), "rb").read()))
    return {path: sorted(contents) for path, contents in found.items()}
left, right = files(a), files(b)
differ = sorted(p for p in left.keys() & right.keys() if left[p] != right[p])
for path in sorted(left.keys() ^ right.keys()): print("only in one:", path)
for path in differ: print("differs:", path)
print(f"{len(differ) + len(left.keys() ^ right.keys())} of {len(left.keys() | right.keys())} files differ")
sys.exit(1 if differ or left.keys() ^ right.keys() else 0)
PY
[ -n "${COMPARE_KEEP:-}" ] || rm -rf "$dir"
