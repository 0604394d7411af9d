#!/usr/bin/env bash
# Render benchmark: Phosphor's Render module against libchafa on the same frames.
#
#   Bench/render/run.sh [FRAME_DIR...]
#
# Builds phosphor-bench (release) and chafa_bench (cc + pkg-config chafa), writes the synthetic
# scrolling and static scenes to a temporary directory, renders them (and any FRAME_DIR given:
# directories of frame-NNNN.xrgb files) at 128x60 and 256x120 cells with both, and prints one
# Markdown table on stdout. Environment: SWIFT (default swift), SCRATCH (swift --scratch-path),
# SIZES (default 128x60,256x120), PASSES (Phosphor, default 5), CHAFA_PASSES (default 1).
set -euo pipefail
extra_dirs=()
for dir in "$@"; do extra_dirs+=("$(cd "$dir" && pwd)"); done
cd "$(dirname "$0")/../.."

SWIFT=${SWIFT:-swift}
SIZES=${SIZES:-128x60,256x120}
PASSES=${PASSES:-5}
CHAFA_PASSES=${CHAFA_PASSES:-1}
work=$(mktemp -d /tmp/phosphor-render-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

scratch_args=()
if [ -n "${SCRATCH:-}" ]; then scratch_args=(--scratch-path "$SCRATCH"); fi
"$SWIFT" build -c release --static-swift-stdlib "${scratch_args[@]}" --product phosphor-bench >&2
bin_dir=$("$SWIFT" build -c release --static-swift-stdlib "${scratch_args[@]}" --show-bin-path)
bench="$bin_dir/phosphor-bench"

if ! pkg-config --exists chafa; then
    echo "run.sh: pkg-config cannot find chafa (install libchafa-dev and libglib2.0-dev)" >&2
    exit 1
fi
# shellcheck disable=SC2046
cc -O2 -Wall -o "$work/chafa_bench" Bench/render/chafa_bench.c $(pkg-config --cflags --libs chafa)

"$bench" make-scroll "$work/scroll"
"$bench" make-static "$work/static"
dirs=("$work/scroll" "$work/static" ${extra_dirs[@]+"${extra_dirs[@]}"})

"$work/chafa_bench" --passes "$CHAFA_PASSES" --sizes "$SIZES" "${dirs[@]}" > "$work/chafa.tsv"
"$bench" render --passes "$PASSES" --sizes "$SIZES" --chafa "$work/chafa.tsv" "${dirs[@]}"
