#!/usr/bin/env bash
# Audio benchmark (called by `make bench`): underruns per minute at 1x and audio-thread CPU time,
# through the real libasound with ALSA's file PCM. Prints Markdown on stdout.
# Usage: Bench/audio/run.sh [seconds per run, default 60]
set -euo pipefail
cd "$(dirname "$0")/../.."
SCRATCH=${AUDIO_BENCH_SCRATCH:-.build}
swift build -c release --scratch-path "$SCRATCH" --product AudioBench >&2
"$SCRATCH/release/AudioBench" "${1:-60}"
