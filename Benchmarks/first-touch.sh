#!/usr/bin/env bash
# What touching fresh memory costs here (Benchmarks/touch/touch.c): SIZE MiB touched page by page, ROUNDS times, on
# 4 KiB pages and on transparent huge pages. On these virtual machines the first touch of memory the machine had
# not handed out recently costs several times a touch of memory just freed, and a build pays it for every page it
# allocates and every page of every file it writes (see Benchmarks/README.md, "what memory costs here").
#   Benchmarks/first-touch.sh [SIZE_MIB=1000] [ROUNDS=3]
set -euo pipefail
cd "$(dirname "$0")"
size=${1:-1000} rounds=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/touch" touch/touch.c
"$work/touch" "$size" small "$rounds"
"$work/touch" "$size" huge "$rounds"
