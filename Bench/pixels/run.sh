#!/usr/bin/env bash
# Pixel benchmark: kitty graphics (zlib+base64, local file) and sixel per frame, beside the
# half-block path, with Debian's libsixel as the sixel baseline.
#
#   Bench/pixels/run.sh [FRAME_DIR...]
#
# Builds phosphor-bench (release) and libsixel_bench (cc + pkg-config libsixel), writes the
# synthetic scrolling scene, encodes it (and any FRAME_DIR given: directories of
# frame-NNNN.xrgb files) at 1x and 3x, and prints one Markdown table on stdout: per row the
# median encode time per frame in CPU time and in wall time, and bytes per frame.
# Environment: SWIFT (default swift), SCRATCH (swift --scratch-path), PASSES (default 3).
set -euo pipefail
extra_dirs=()
for dir in "$@"; do extra_dirs+=("$(cd "$dir" && pwd)"); done
cd "$(dirname "$0")/../.."

SWIFT=${SWIFT:-swift}
PASSES=${PASSES:-3}
work=$(mktemp -d /tmp/phosphor-pixel-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

scratch_args=()
if [ -n "${SCRATCH:-}" ]; then scratch_args=(--scratch-path "$SCRATCH"); fi
"$SWIFT" build -c release --static-swift-stdlib "${scratch_args[@]}" --product phosphor-bench >&2
bench="$("$SWIFT" build -c release --static-swift-stdlib "${scratch_args[@]}" --show-bin-path)/phosphor-bench"

"$bench" make-scroll "$work/scroll" 60
dirs=(${extra_dirs[@]+"${extra_dirs[@]}"} "$work/scroll")

external=()
if pkg-config --exists libsixel; then
    # shellcheck disable=SC2046
    cc -O2 -Wall -o "$work/libsixel_bench" Bench/pixels/libsixel_bench.c $(pkg-config --cflags --libs libsixel)
    "$work/libsixel_bench" --passes "$PASSES" "${dirs[@]}" > "$work/libsixel.tsv"
    external=(--external "$work/libsixel.tsv")
else
    echo "(libsixel-dev is not installed: no libsixel rows.)"
    echo
fi
"$bench" pixels --passes "$PASSES" "${external[@]}" "${dirs[@]}"
