#!/usr/bin/env bash
# Start-up of two orgdir binaries side by side: `orgdir --version` (parse the command line, print, exit: loading and
# relocating the binary's libraries is most of it), run ROUNDS times each, A B A B …, with each side's median and
# fastest wall time in milliseconds.
#
#   Benchmarks/startup.sh OLD_ORGDIR NEW_ORGDIR [ROUNDS=20]
set -euo pipefail
python3 - "$1" "$2" "${3:-20}" <<'PY'
import statistics, subprocess, sys, time
first, second, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
times = {first: [], second: []}
for _ in range(rounds):
    for exe in (first, second):
        start = time.perf_counter()
        subprocess.run([exe, "--version"], stdout=subprocess.DEVNULL, check=True)
        times[exe].append((time.perf_counter() - start) * 1000)
for side, exe in (("A", first), ("B", second)):
    print(f"{side}: median {statistics.median(times[exe]):.1f} ms, fastest {min(times[exe]):.1f} ms "
          f"({rounds} runs of {exe} --version)")
PY
