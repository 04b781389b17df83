#!/usr/bin/env bash
# What a first build does after its last Graph page: a 100,000-person `orgdir build` against the sandbox with
# 100 ms of latency per users page, recorded by `perf record -g` from PROFILE_DELAY seconds on (about when the
# fetch ends), then `scripts/perf_timeline.py` prints when each part ran. Needs the release binaries
# Benchmarks/run.sh builds.
#   PROFILE_USERS=100000  people in the tenant
#   PROFILE_DELAY=11.3    seconds after the start to begin recording
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=${BENCH_SCRATCH:-$root/.build-bench}
work=${BENCH_WORK:-$root/Benchmarks/work}
users=${PROFILE_USERS:-100000}
delay_ms=$(python3 -c "print(int(float('${PROFILE_DELAY:-11.3}') * 1000))")
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
dir=${PROFILE_DIR:-/dev/shm/orgdir-profile-tail}
report=$work/profile-tail
rm -rf "$dir" "$report" && mkdir -p "$dir" "$report"

. Benchmarks/sandbox.sh
export ORGDIR_CLIENT_SECRET=sandbox-secret
curl -sf -X POST -H 'Content-Type: application/json' \
    -d '{"rules": [{"fault": "latency", "milliseconds": 100, "on": "users"}]}' "$base/_sandbox/faults" > /dev/null
perf record --delay="$delay_ms" -F 999 -g -o "$dir/perf.data" /usr/bin/time -f '%e %U %S %M' -o "$report/build.time" \
    "$bin/orgdir" build --config "$dir/settings.plist" --verbose > "$report/build.out" 2> "$report/build.err"
perf script -i "$dir/perf.data" -F time,tid,ip,sym 2>/dev/null | { swift demangle --simplified 2>/dev/null || cat; } \
    > "$dir/script.txt"
python3 Benchmarks/scripts/perf_timeline.py "$dir/script.txt" | tee "$report/timeline.txt"
grep -o 'stage .*' "$report/build.err" >&2 || true
echo "build (wall user sys KB): $(cat "$report/build.time")" >&2
