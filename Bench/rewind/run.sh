#!/usr/bin/env bash
# Rewind and run-ahead benchmark (called by `make bench`): bytes per stored frame, core-thread
# CPU per frame with and without rewind (LZ4 against Zstandard), seconds in 64 MB, and run-ahead's
# CPU per shown frame, for every test cartridge in its Debian core. Prints Markdown on stdout;
# build output goes to stderr.
# Usage: Bench/rewind/run.sh [frames per measurement]   (default 600)
# A first argument that is not a number (e.g. the phosphor binary's path) is ignored.
set -euo pipefail
cd "$(dirname "$0")/../.."
frames=600
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then frames=$1; fi
scratch=${REWIND_BENCH_SCRATCH:-.build}
swift build -c release --scratch-path "$scratch" --product RewindBench >&2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# The cores print to stdout themselves: that goes to stderr, the tables come from the file.
"$scratch/release/RewindBench" "$frames" "$out" >&2
cat "$out"
