#!/usr/bin/env python3
"""Where a build's memory goes over time: one `orgdir build` on a fresh sandbox tenant, with its resident set
(VmRSS) and peak (VmHWM) sampled from /proc every quarter second and printed whenever it moved by 20 MB, then the
build's stage log (`--verbose`) with the time each stage ended.

    python3 Benchmarks/scripts/memory_timeline.py .build-bench/release 300000

Outputs go to /dev/shm (tmpfs). Used to find the phases that set the peak (see Benchmarks/README.md).
"""
import os
import subprocess
import sys
import time
from pathlib import Path

from bench import SECRET, Sandbox, write_settings

FOLDER = Path("/dev/shm/orgdir-memory")


def status_mb(pid, field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field):
            return int(line.split()[1]) // 1024
    return 0


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: memory_timeline.py BIN_DIR PEOPLE")
    bin_dir, people = sys.argv[1], int(sys.argv[2])
    subprocess.run(["rm", "-rf", str(FOLDER)], check=True)
    FOLDER.mkdir(parents=True)
    sandbox = Sandbox(people, 1, "memory", executable=f"{bin_dir}/graph-sandbox", logs=FOLDER)
    try:
        settings = str(write_settings(FOLDER / "settings.plist", sandbox, FOLDER / "out", FOLDER / "state"))
        started = time.monotonic()
        errors = open(FOLDER / "orgdir.err", "w+")
        build = subprocess.Popen([f"{bin_dir}/orgdir", "build", "--config", settings, "--json", "--verbose"],
                                 stdout=subprocess.DEVNULL, stderr=errors,
                                 env={**os.environ, "ORGDIR_CLIENT_SECRET": SECRET})
        last, peak = 0, 0
        while build.poll() is None:
            try:
                rss, hwm = status_mb(build.pid, "VmRSS"), status_mb(build.pid, "VmHWM")
            except OSError:
                break
            if hwm == 0 and peak > 0:  # exited: a zombie's status no longer reports memory
                break
            peak = hwm
            if abs(rss - last) >= 20:
                print(f"{time.monotonic() - started:7.1f} s  rss {rss:5d} MB  peak {peak:5d} MB", flush=True)
                last = rss
            time.sleep(0.25)
        build.wait()
        print(f"exit {build.returncode} after {time.monotonic() - started:.1f} s; peak {peak} MB")
        errors.seek(0)
        for line in errors:
            if " stage " in line:  # "<ISO time> debug orgdir: [OrgDirectory] stage <name> took <ms>", in order
                print("  " + line.split(" ")[0][11:19] + " " + line.split(" stage ", 1)[1].rstrip())
        if build.returncode != 0:
            errors.seek(0)
            print("orgdir said:", errors.read()[-2000:])
    finally:
        sandbox.stop()
        subprocess.run(["rm", "-rf", str(FOLDER)])


if __name__ == "__main__":
    main()
