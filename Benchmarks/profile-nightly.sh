#!/usr/bin/env bash
# Where a nightly rebuild's time goes: one full `orgdir build` of a sandbox tenant (untimed), 1% of the people
# changed through POST /_sandbox/changes (the bench's churn) and an untimed nightly, 1% more changed, then the nightly `orgdir build` under
# `perf record -g` and GNU time. Writes the top functions (inclusive and self) and the run's summary to
# Benchmarks/work/profile-nightly/. Needs the release binaries Benchmarks/run.sh builds.
#   PROFILE_USERS=100000  people in the tenant
#   PROFILE_ORGDIR=PATH   the orgdir binary to profile (default: the release build's; `profile-ab.sh` sets it)
#   PROFILE_CALL_GRAPH=dwarf  unwind stacks from DWARF rather than frame pointers: slower and larger, but it names
#                             the code that faulted in a fresh page from inside libc or mimalloc, which frame
#                             pointers leave as [unknown]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=${BENCH_SCRATCH:-$root/.build-bench}
work=${BENCH_WORK:-$root/Benchmarks/work}
users=${PROFILE_USERS:-100000}
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
orgdir=${PROFILE_ORGDIR:-$bin/orgdir}
dir=${PROFILE_DIR:-/dev/shm/orgdir-profile-nightly}
report=$work/profile-nightly
rm -rf "$dir" "$report" && mkdir -p "$dir" "$report"

. Benchmarks/sandbox.sh
export ORGDIR_CLIENT_SECRET=sandbox-secret
/usr/bin/time -f '%e %U %S %M' -o "$report/full.time" "$orgdir" build --config "$dir/settings.plist" --json \
    > "$report/full.json" 2> "$report/full.err"
# One untimed nightly first, as cron would have run: it leaves the replaced site as the spare the next run updates.
change_people 1000 > /dev/null
"$orgdir" build --config "$dir/settings.plist" --quiet
change_people 1001 > "$report/changes.json"
callgraph=(-g)
[ "${PROFILE_CALL_GRAPH:-}" = dwarf ] && callgraph=(--call-graph dwarf,16384)
perf record -F 999 "${callgraph[@]}" -o "$dir/perf.data" /usr/bin/time -f '%e %U %S %M' -o "$report/nightly.time" \
    "$orgdir" build --config "$dir/settings.plist" --json --verbose > "$report/nightly.json" 2> "$report/nightly.err"
demangle() { swift demangle --simplified 2>/dev/null || cat; }
perf report -i "$dir/perf.data" --children --sort symbol --stdio -g none 2>/dev/null | grep '%' | head -n 80 \
    | demangle > "$report/top-inclusive.txt" || true
perf report -i "$dir/perf.data" --no-children --sort symbol --stdio -g none 2>/dev/null | grep '%' \
    | head -n 60 | demangle > "$report/top-self.txt" || true
perf script -i "$dir/perf.data" -F time,tid,ip,sym 2>/dev/null | demangle > "$dir/script.txt"
cp "$dir/script.txt" "$report/script.txt"
python3 Benchmarks/scripts/perf_timeline.py "$dir/script.txt" > "$report/timeline.txt" || true
grep -o 'stage .*' "$report/nightly.err" > "$report/stages.txt" || true
echo "full build (wall user sys KB): $(cat "$report/full.time")" >&2
echo "nightly    (wall user sys KB): $(cat "$report/nightly.time")" >&2
echo "top functions: $report/top-inclusive.txt, $report/top-self.txt; when each part ran: $report/timeline.txt;" \
    "samples by part: python3 Benchmarks/scripts/perf_parts.py $report/script.txt" >&2
