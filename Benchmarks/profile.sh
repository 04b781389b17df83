#!/usr/bin/env bash
# Where orgdir's instructions go: one `orgdir build` of a 2,000-person sandbox tenant under callgrind, which
# counts instructions (repeatable on these noisy shared machines, unlike wall time). Writes the raw profile
# and the top functions (inclusive and self) to Benchmarks/work/. Needs the release binaries that
# Benchmarks/run.sh builds (or set BENCH_SKIP_BUILD=0 to build them here).
#   PROFILE_USERS=2000  people in the tenant
#   PROFILE_TOOL=perf   sample with perf instead (also the fallback when valgrind fails), with a timeline of the parts
#   PROFILE_HZ=499      perf's sampling rate
#   PROFILE_DIR=…       where the site, the state and the reports go (default Benchmarks/work/profile; a folder
#                       in /dev/shm keeps file creation off the shared disk, as the bench does)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=${BENCH_SCRATCH:-$root/.build-bench}
work=${BENCH_WORK:-$root/Benchmarks/work}
users=${PROFILE_USERS:-2000}
Scripts/install-packages.sh valgrind
if [ "${BENCH_SKIP_BUILD:-1}" != 1 ]; then
    swift build -c release --scratch-path "$scratch" --product orgdir
    swift build -c release --scratch-path "$scratch" --product graph-sandbox
fi
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
dir=${PROFILE_DIR:-$work/profile}
rm -rf "$dir" && mkdir -p "$dir"

. Benchmarks/sandbox.sh

demangle() { swift demangle --simplified 2>/dev/null || cat; }
# Valgrind 3.19's DWARF reader gives up on the Swift binary's debug info ("request for range ... exceeds valid
# image size"); a copy without it still has every symbol, which is all callgrind needs for function names.
cp "$bin/orgdir" "$dir/orgdir" && strip --strip-debug "$dir/orgdir"
if [ "${PROFILE_TOOL:-callgrind}" = callgrind ] && ORGDIR_CLIENT_SECRET=sandbox-secret valgrind --tool=callgrind \
    --callgrind-out-file="$dir/callgrind.out" "$dir/orgdir" build --config "$dir/settings.plist" --quiet \
    2> "$dir/valgrind.err"; then
    callgrind_annotate --inclusive=yes "$dir/callgrind.out" 2>/dev/null | head -n 60 | demangle > "$dir/top-inclusive.txt"
    callgrind_annotate --inclusive=no "$dir/callgrind.out" 2>/dev/null | head -n 60 | demangle > "$dir/top-self.txt"
    echo "callgrind: $(grep -m1 'summary\|Collected' "$dir/valgrind.err" || true)" >&2
else
    # On these machines valgrind itself dies with SIGSEGV once the Swift concurrency pool starts threads (see
    # valgrind.err); perf's sampling profile (CPU samples, not instruction counts) is the fallback.
    [ "${PROFILE_TOOL:-callgrind}" = perf ] || echo "callgrind failed (see $dir/valgrind.err); sampling with perf instead" >&2
    rm -rf "$dir/Output" "$dir/State" "$dir"/.Output*
    ORGDIR_CLIENT_SECRET=sandbox-secret perf record -F "${PROFILE_HZ:-499}" -g -o "$dir/perf.data" \
        "$bin/orgdir" build --config "$dir/settings.plist" --quiet 2> "$dir/perf.err"
    perf report -i "$dir/perf.data" --children --sort symbol --stdio -g none 2>/dev/null | grep '%' | head -n 60 \
        | demangle > "$dir/top-inclusive.txt" || true  # head closing the pipe is not a failure
    perf report -i "$dir/perf.data" --no-children --sort symbol --stdio -g none 2>/dev/null | grep '%' \
        | head -n 60 | demangle > "$dir/top-self.txt" || true
    perf script -i "$dir/perf.data" -F time,tid,ip,sym 2>/dev/null | demangle > "$dir/script.txt"
    python3 Benchmarks/scripts/perf_timeline.py "$dir/script.txt" > "$dir/timeline.txt" || true
    echo "when each part ran:        $dir/timeline.txt" >&2
fi
echo "top functions (self):      $dir/top-self.txt" >&2
echo "top functions (inclusive): $dir/top-inclusive.txt" >&2
cat "$dir/top-self.txt"
