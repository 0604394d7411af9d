#!/usr/bin/env bash
# OpenGL benchmark (called by `make bench`, section 6): the GL test core headless with and without
# read-back, and the read-back cost per frame at 320x240 and 640x480 (Bench/gl/main.swift).
# Prints Markdown on stdout; build output goes to stderr.
# Usage: Bench/gl/run.sh [frames per run] [runs]   (defaults 600 and 3)
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch=${GL_BENCH_SCRATCH:-.build}
work=$(mktemp -d /tmp/phosphor-glbench.XXXXXX)
trap 'rm -rf "$work"' EXIT
cc -O2 -shared -fPIC -o "$work/glcore.so" Tests/Fixtures/glcore/glcore.c >&2
swift build -c release --scratch-path "$scratch" --product GLBench >&2
"$scratch/release/GLBench" "$work/glcore.so" "${1:-600}" "${2:-3}" 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
