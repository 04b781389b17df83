#!/usr/bin/env bash
# Side-by-side A/B of two orgdir binaries on the first nightly after a full build, the bench's `first` row: per round
# and side, A B A B …, a full build on an emptied output and state (untimed), 1% of the people changed (the bench's
# churn, a new seed each time) and the timed nightly, which has no spare site yet and whatever state that full build
# kept. Prints each run's wall, CPU and peak, then each side's medians and in how many rounds B was faster
# (`scripts/ab_summary.py`).
#
#   Benchmarks/ab-first-nightly.sh OLD_ORGDIR NEW_ORGDIR [ROUNDS=4] [PEOPLE=100000]
#   AB_SETTINGS_A='<key>publish</key><string>wholeSite</string>' Benchmarks/ab-first-nightly.sh NEW NEW
#     # one binary, two settings (AB_SETTINGS_A / AB_SETTINGS_B: plist entries added to that side's settings)
#
# Needs a release graph-sandbox in .build-bench/release.
set -euo pipefail
cd "$(dirname "$0")/.."
first=$1 second=$2 rounds=${3:-4}
export bin=.build-bench/release dir=/dev/shm/orgdir-ab-first-nightly users=${4:-100000}
rm -rf "$dir"; mkdir -p "$dir"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
export ORGDIR_CLIENT_SECRET=sandbox-secret
for side in A B; do
  extra_var=AB_SETTINGS_$side
  sed "s#</dict></plist>#${!extra_var:-}</dict></plist>#" "$dir/settings.plist" > "$dir/$side.plist"
done
seed=3000
for round in $(seq 1 "$rounds"); do
  for side in A B; do
    exe=$first; [ "$side" = B ] && exe=$second
    rm -rf "${dir:?}/Output" "$dir/State" "$dir"/.Output*
    "$exe" build --config "$dir/$side.plist" --quiet
    seed=$((seed + 1))
    change_people "$seed" > /dev/null
    /usr/bin/time -o "$dir/time" -f "round $round $side: %e s wall, %U s user, %S s sys, %M KB peak" \
      "$exe" build --config "$dir/$side.plist" --quiet
    tee -a "$dir/rounds" < "$dir/time"
  done
done
python3 Benchmarks/scripts/ab_summary.py < "$dir/rounds"
rm -rf "$dir"
