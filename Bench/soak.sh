#!/usr/bin/env bash
# `make soak`: every installed core runs unthrottled while its memory and open file
# descriptors are watched (Bench/headless/soak.py), to catch leaks that a short test misses.
#
#   Bench/soak.sh BIN [MINUTES]
#
# MINUTES (or the SOAK_MINUTES environment variable; default 30) is the TOTAL, split evenly
# across the installed cores: 30 minutes per core, as the issue puts it, would be three
# hours for six cores, so `SOAK_MINUTES=180 make soak` asks for that explicitly.
# Prints a Markdown table and writes it as the "## Soak" section at the end of
# BENCHMARKS.md (replacing the previous one; Bench/run.sh keeps it).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
    echo "usage: Bench/soak.sh BIN [MINUTES]" >&2
    exit 2
fi
BIN=$(realpath "$1")
if [ ! -x "$BIN" ]; then
    echo "Bench/soak.sh: $1: no such executable (run make build first)" >&2
    exit 2
fi
minutes=${2:-${SOAK_MINUTES:-30}}
BENCHMARKS=${BENCHMARKS:-BENCHMARKS.md}
work=$(mktemp -d /tmp/phosphor-soak.XXXXXX)
trap 'rm -rf "$work"' EXIT

started=$(date -u '+%Y-%m-%d %H:%M UTC')
load=$(cut -d' ' -f1-3 /proc/loadavg)
python3 Bench/headless/soak.py --bin "$BIN" --minutes "$minutes" >"$work/table.md"
{
    echo "## Soak"
    echo ""
    echo "Measured by \`Bench/soak.sh\` from $started, revision" \
        "\`$(git rev-parse --short HEAD 2>/dev/null || echo unknown)\`, $(nproc) CPUs," \
        "load average at start $load."
    if awk "BEGIN { exit !($minutes < 30) }"; then
        echo "**A short run ($minutes minutes in total)**, not the full 30-minute soak."
    fi
    echo ""
    cat "$work/table.md"
} >"$work/soak.md"
cat "$work/soak.md"

{
    if [ -f "$BENCHMARKS" ]; then
        # Everything before the old soak section, without trailing blank lines.
        sed '/^## Soak/,$d' "$BENCHMARKS" |
            awk '{ line[NR] = $0 } END { n = NR; while (n > 0 && line[n] == "") n--; for (i = 1; i <= n; i++) print line[i] }'
        echo ""
    fi
    cat "$work/soak.md"
} >"$work/BENCHMARKS.md"
cp "$work/BENCHMARKS.md" "$BENCHMARKS.tmp" && mv "$BENCHMARKS.tmp" "$BENCHMARKS"
echo "[soak] wrote $BENCHMARKS" >&2
