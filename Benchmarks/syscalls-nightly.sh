#!/usr/bin/env bash
# Which system calls a later nightly makes, and on which files: a first build, an untimed nightly and 1% changed
# (`ready_second_nightly` in sandbox.sh), then the nightly under `strace -f` twice: once counting every call
# (`strace -c`), once recording the calls that name a file, summed by call and kind of file (person pages by
# extension, search files, the rest by name). Needs strace (apt-get install strace) and the bench's release binaries.
#   Benchmarks/syscalls-nightly.sh [ORGDIR=.build-bench/release/orgdir] [PEOPLE=100000]
# strace slows every call down: compare counts, not times.
set -euo pipefail
cd "$(dirname "$0")/.."
orgdir=${1:-.build-bench/release/orgdir}
export bin=.build-bench/release dir=/dev/shm/orgdir-syscalls users=${2:-100000}
rm -rf "$dir" && mkdir -p "$dir"
# shellcheck source=Benchmarks/sandbox.sh
source Benchmarks/sandbox.sh
trap 'kill "$sandbox" 2>/dev/null || true; rm -rf "$dir"' EXIT
export ORGDIR_CLIENT_SECRET=sandbox-secret
ready_second_nightly "$orgdir"
# Copied in one `cp -a`, so that the files the spare shares with the output stay shared in the copy.
mkdir "$dir/before"
cp -a "$dir/State" "$dir/Output" "$dir/.Output.spare" "$dir/before/"
strace -f -c -o "$dir/counts.txt" "$orgdir" build --config "$dir/settings.plist" --quiet
head -n 14 "$dir/counts.txt"
# The same nightly again, from the same output, spare and state.
rm -rf "$dir/State" "$dir/Output" "$dir/.Output.spare"
mv "$dir/before/State" "$dir/before/Output" "$dir/before/.Output.spare" "$dir/"
strace -f -e trace=openat,unlinkat,linkat,newfstatat,renameat2,mkdirat -o "$dir/files.txt" \
  "$orgdir" build --config "$dir/settings.plist" --quiet
python3 - "$dir/files.txt" <<'PY'
import collections, re, sys
counts = collections.Counter()
for line in open(sys.argv[1]):
    found = re.match(r"\d+\s+(\w+)\((.*)", line)
    if not found:
        continue
    call, arguments = found.groups()
    path = re.search(r'"([^"]*)"', arguments)
    name = path.group(1) if path else ""
    if "/" in name:
        kind = "a path from the root or the working folder"
    elif re.fullmatch(r"[0-9]+\.js", name):
        kind = "search file"
    elif name == "":
        kind = "an open descriptor (fstat)"
    else:
        kind = re.sub(r"^.*\.(html|md|vcf)$", r"*.\1", name)
    counts[(call, kind, " (failed)" if "= -1" in line else "")] += 1
print("calls that name a file, by call and kind (top 20):")
for (call, kind, failed), count in counts.most_common(20):
    print(f"{count:8d}  {call} {kind}{failed}")
PY
