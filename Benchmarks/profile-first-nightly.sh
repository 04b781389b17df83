#!/usr/bin/env bash
# Where the first nightly after a full build spends its time: one full `orgdir build` of a sandbox tenant (untimed),
# 1% of the people changed through POST /_sandbox/changes (the bench's churn), then the nightly `orgdir build` under
# `perf record -g` and GNU time. That nightly has no spare site yet: it links every unchanged file into a new staging
# folder, which the split by system call (`linkat`) shows. Prints the run's stages and summary, the split, and the top
# functions (self). Needs the release binaries Benchmarks/run.sh builds.
#   PROFILE_USERS=100000  people in the tenant
set -euo pipefail
cd "$(dirname "$0")/.."
export users=${PROFILE_USERS:-100000} bin=.build-bench/release dir=${PROFILE_DIR:-/dev/shm/orgdir-profile-first-nightly}
rm -rf "$dir" && mkdir -p "$dir"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
trap 'kill "$sandbox" 2>/dev/null || true' EXIT
export ORGDIR_CLIENT_SECRET=sandbox-secret
/usr/bin/time -f 'full build: %e s wall, %U s user, %S s sys, %M KB peak' \
    "$bin/orgdir" build --config "$dir/settings.plist" --quiet
change_people 1001 > /dev/null
perf record -F 999 -g -o "$dir/perf.data" /usr/bin/time -o "$dir/time" \
    -f 'first nightly: %e s wall, %U s user, %S s sys, %M KB peak' \
    "$bin/orgdir" build --config "$dir/settings.plist" --verbose --json > "$dir/summary.json" 2> "$dir/err"
grep -o 'stage .*' "$dir/err" || true
cat "$dir/time"
python3 -m json.tool "$dir/summary.json" | grep -E '"(filesWritten|filesUnchanged|peopleRendered|peopleReused)"'
perf script -i "$dir/perf.data" -F tid,ip,sym 2>/dev/null | python3 Benchmarks/scripts/perf_split.py
perf report -i "$dir/perf.data" --no-children --sort symbol --stdio -g none 2>/dev/null | grep '%' | head -n 30 \
    | (swift demangle --simplified 2>/dev/null || cat) | cut -c1-160
