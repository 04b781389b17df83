#!/usr/bin/env bash
# What parts of a nightly cost at most: the same nightly replayed A B A B … (`ab-nightly.sh`) by one binary, as it is
# (A) and with some parts left out (B). The binary is this checkout built with Benchmarks/experiments/skip-parts.patch,
# whose knobs only measure and are never part of orgdir: ORGDIR_EXP_SKIP holds any of `snapshot` (the new snapshot's
# file is left empty), `state` (the caches saved after the publish are not), `sitewrite` (the site's files are opened,
# cut to length and counted, but their bytes not written), `search` (the search shards and records are neither made
# nor written: the spare's are kept as they are, and only the manifest is written).
# Each side's first two runs (the set-up builds) do everything; only the timed nightlies skip.
#   Benchmarks/ceiling.sh [SKIP=snapshot,state,sitewrite] [ROUNDS=10] [PEOPLE=100000]
# Applies the patch to the files it touches for the build and takes it off again: they must have no local changes,
# and the patch must still apply (when the code around a knob moves, the script stops at `git apply`; make the patch
# again from the same knobs, `git diff > Benchmarks/experiments/skip-parts.patch`).
set -euo pipefail
cd "$(dirname "$0")/.."
skip=${1:-snapshot,state,sitewrite} rounds=${2:-10} people=${3:-100000}
work=/dev/shm/orgdir-ceiling
rm -rf "$work" && mkdir -p "$work"
git apply Benchmarks/experiments/skip-parts.patch
trap 'git apply -R Benchmarks/experiments/skip-parts.patch' EXIT
swift build -c release --scratch-path .build-bench --product orgdir > "$work/build.log" 2>&1 \
  || { tail -20 "$work/build.log"; exit 1; }
cp .build-bench/release/orgdir "$work/orgdir"
git apply -R Benchmarks/experiments/skip-parts.patch
trap - EXIT
# .build-bench's orgdir is the patched one now: built again from the checkout as it is.
swift build -c release --scratch-path .build-bench --product orgdir > "$work/build.log" 2>&1 \
  || { tail -20 "$work/build.log"; exit 1; }
for side in A B; do
  value=""; [ "$side" = B ] && value=$skip
  cat > "$work/$side.sh" <<WRAPPER
#!/usr/bin/env bash
count=\$(cat "$work/$side.count" 2>/dev/null || echo 0); echo \$((count + 1)) > "$work/$side.count"
if [ "\$count" -ge 2 ]; then export ORGDIR_EXP_SKIP="$value"; fi
exec "$work/orgdir" "\$@"
WRAPPER
  chmod +x "$work/$side.sh"
done
Benchmarks/ab-nightly.sh "$work/A.sh" "$work/B.sh" "$rounds" "$people"
