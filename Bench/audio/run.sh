#!/usr/bin/env bash
# Audio benchmark (called by `make bench`): underruns per minute at 1x and audio-thread CPU time,
# through the real libasound with ALSA's file PCM (no sound card needed), plus the resampler's
# throughput per libsamplerate converter. Prints Markdown on stdout; build output goes to stderr.
# Usage: Bench/audio/run.sh [seconds per run]   (or AUDIO_BENCH_SECONDS; default 60)
# A first argument that is not a number (e.g. the phosphor binary's path) is ignored.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${AUDIO_BENCH_SECONDS:-60}
if [[ "${1:-}" =~ ^[0-9]+([.][0-9]+)?$ ]]; then seconds=$1; fi
scratch=${AUDIO_BENCH_SCRATCH:-.build}
swift build -c release --scratch-path "$scratch" --product AudioBench >&2
"$scratch/release/AudioBench" "$seconds"
