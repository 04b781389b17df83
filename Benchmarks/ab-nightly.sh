#!/usr/bin/env bash
# Side-by-side A/B of two orgdir binaries on the same nightly rebuild, repeated: each binary makes its own site
# (a first build, then the nightly before, which leaves the spare site a nightly updates), 1% of the people change
# once (the bench's churn), and every round restores each side's output, spare and state as they were and times
# that one nightly again, A B A B … So both sides replay exactly the same delta round, as many times as asked:
# a paired comparison, where the nightly rows of `compare-sites.sh` compare different nights.
#
#   Benchmarks/ab-nightly.sh OLD_ORGDIR NEW_ORGDIR [ROUNDS=4] [PEOPLE=100000]
#   AB_HISTORY_NIGHTS=40 Benchmarks/ab-nightly.sh OLD NEW 6    # the same night after 40 nights of history
#   AB_SETTINGS_A='<key>publish</key><string>wholeSite</string>' Benchmarks/ab-nightly.sh NEW NEW
#     # one binary, two settings (AB_SETTINGS_A / AB_SETTINGS_B: plist entries added to that side's settings)
#
# Each round prints the wall, CPU and peak, then the run's stages from its `--verbose` log; the end, each side's
# medians and in how many rounds B was faster (`scripts/ab_summary.py`).
# Needs a release graph-sandbox in .build-bench/release. Restoring is not timed (a copy on tmpfs).
set -euo pipefail
cd "$(dirname "$0")/.."
first=$1 second=$2 rounds=${3:-4}
export bin=.build-bench/release dir=/dev/shm/orgdir-ab-nightly users=${4:-100000}
rm -rf "$dir"; mkdir -p "$dir"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
export ORGDIR_CLIENT_SECRET=sandbox-secret
# Transparent huge pages faulted in so far (0 where the kernel does not count them).
huge_faults() { awk '/^thp_fault_alloc / {print $2; found = 1} END {if (!found) print 0}' /proc/vmstat; }
change() { change_people "$1" > /dev/null; }
for side in A B; do
  mkdir -p "$dir/$side"
  extra_var=AB_SETTINGS_$side
  sed "s#$dir/Output#$dir/$side/Output#; s#$dir/State#$dir/$side/State#; s#</dict></plist>#${!extra_var:-}</dict></plist>#" \
    "$dir/settings.plist" > "$dir/$side.plist"
done
"$first" build --config "$dir/A.plist" > /dev/null
"$second" build --config "$dir/B.plist" > /dev/null
# AB_HISTORY_NIGHTS untimed nightlies first (default 1), each after its own 1 % churn: the history a site that has run
# that many nights keeps, which every nightly reads and shows.
for night in $(seq 1 "${AB_HISTORY_NIGHTS:-1}"); do
  if [ "$night" = 1 ]; then change 1000; else change $((2000 + night)); fi
  "$first" build --config "$dir/A.plist" --quiet
  "$second" build --config "$dir/B.plist" --quiet
done
change 1001
for side in A B; do cp -a "$dir/$side" "$dir/$side.saved"; done
for round in $(seq 1 "$rounds"); do
  for side in A B; do
    exe=$first; [ "$side" = B ] && exe=$second
    rm -rf "${dir:?}/$side" && cp -a "$dir/$side.saved" "$dir/$side"
    hugeBefore=$(huge_faults)
    /usr/bin/time -o "$dir/time" -f "round $round $side: %e s wall, %U s user, %S s sys, %M KB peak, %R page faults" \
      "$exe" build --config "$dir/$side.plist" --verbose 2> "$dir/log"
    # Fresh 2 MiB pages the kernel cleared for the run (system-wide, so nothing else should run): memory the run
    # touched for the first time, which costs about a millisecond a page on these machines. The time line's "page
    # faults" are the run's own (the kernel's count for the process, `%R`): each fresh 2 MiB page is one of them,
    # beside the 4 KiB faults of the files it maps and of memory taken without large pages.
    echo "huge pages faulted in $(( $(huge_faults) - hugeBefore ))" >> "$dir/log"
    # The time line, then the run's stages (`--verbose` logs each as "stage NAME took N ms") and when the snapshot
    # was decoded and the delta round was in ("snapshot read at N ms", "delta round fetched at N ms").
    stages=$(sed -n -e 's/.*stage \(.*\) took \([0-9.]*\) ms.*/\1 \2 ms/p' \
      -e 's/.*\(snapshot read\|delta round fetched\) at \([0-9.]*\) ms.*/\1 at \2 ms/p' \
      -e 's/^\(huge pages faulted in [0-9]*\)$/\1/p' "$dir/log" | paste -sd ';' -)
    echo "$(cat "$dir/time"); $stages" | tee -a "$dir/rounds"
  done
done
# Each side's medians, and in how many rounds B was faster.
python3 Benchmarks/scripts/ab_summary.py < "$dir/rounds"
rm -rf "$dir"
