#!/usr/bin/env bash
# `make bench` section: the library at 20 000 ROM files (Bench/library/generate.py), against
# the aims of issue 17. Prints a Markdown table on stdout; progress goes to stderr.
#
#   Bench/library/run.sh BIN [BASELINE_BIN]
#
# BASELINE_BIN (e.g. main's release build) is measured in the same run, on the same files,
# for the ratio column. Rows: first `add` (a fresh library), `add` again with nothing changed,
# `add` after 100 files changed, the browser's start (launch to the drawn list of 20 000, in
# tmux), and a search keystroke (in tmux: key sent to the filtered count drawn; and in process:
# the browser's own "search filtered" log line). Peak RSS from /usr/bin/time, or VmHWM for the
# browser. LIBRARY_DIR reuses a generated library instead of building one in a temporary folder;
# LARGE_DIR the same for the row of 20 zips of one 4 MiB ROM each, LARGE7Z_DIR for 20 7z archives
# of one such ROM each, SOLID7Z_DIR for one solid 7z of 21 of them.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=$(realpath "$1")
BASE=${2:+$(realpath "$2")}
work=$(mktemp -d /tmp/phosphor-library-bench.XXXXXX)
trap 'tmux -L phosphor-library-bench kill-server 2>/dev/null; rm -rf "$work"' EXIT
library=${LIBRARY_DIR:-$work/library}
if [ ! -d "$library" ]; then
    echo "[library] generating 20 000 files..." >&2
    python3 Bench/library/generate.py "$library" >&2 || exit 1
fi

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# 20 zips of one 4 MiB ROM each: where inflating whole entries cost most.
large=${LARGE_DIR:-$work/large}
if [ ! -d "$large" ]; then
    echo "[library] generating 20 large zips..." >&2
    python3 Bench/library/generate.py "$large" --large 20 >&2 || exit 1
fi
# The same as 7z: one ROM per archive, and 21 in one solid block (reaching an entry decodes
# every entry before it).
large7z=${LARGE7Z_DIR:-$work/large7z}
if [ ! -d "$large7z" ]; then
    echo "[library] generating 20 large 7z archives..." >&2
    python3 Bench/library/generate.py "$large7z" --large 20 --format 7z >&2 || exit 1
fi
solid7z=${SOLID7Z_DIR:-$work/solid7z}
if [ ! -d "$solid7z" ]; then
    echo "[library] generating a solid 7z of 21 large ROMs..." >&2
    python3 Bench/library/generate.py "$solid7z" --large 21 --format solid7z >&2 || exit 1
fi

# timed_add BIN HOME [FOLDER] → "seconds KB"
timed_add() {
    PHOSPHOR_HOME=$2 /usr/bin/time -o "$work/time.txt" -f '%e %M %U %S' "$1" add "${3:-$library}" >"$work/add.out" 2>&1
    # Wall seconds with the CPU seconds (user + system) in brackets: on a busy machine the
    # wall clock mostly measures the other work, the CPU time does not.
    tail -1 "$work/time.txt" | awk '{ printf "%s(%.2f) %s\n", $1, $3 + $4, $2 }'
}

# browser BIN HOME LABEL → "start_ms rss_kb key_tmux_ms key_inprocess_ms"
browser() {
    local bin=$1 home=$2 socket=phosphor-library-bench
    tmux -L $socket kill-server 2>/dev/null
    local started; started=$(now_ms)
    tmux -L $socket new-session -d -x 160 -y 48 "env PHOSPHOR_HOME=$home TERM=xterm-256color $bin"
    local start_ms="" screen=""
    for _ in $(seq 1 1000); do
        screen=$(tmux -L $socket capture-pane -p 2>/dev/null)
        if grep -Eq " of [0-9]{5}( |$)" <<<"$screen"; then start_ms=$(( $(now_ms) - started )); break; fi
        sleep 0.005
    done
    local pid; pid=$(tmux -L $socket display -p '#{pane_pid}')
    sleep 1.5   # the start-up rescan (nothing changed) and the search index
    # One key: "m" (most titles have an m). Then "ar": "mar".
    local key_ms="" sent
    sent=$(now_ms)
    tmux -L $socket send-keys -l m
    for _ in $(seq 1 2000); do
        screen=$(tmux -L $socket capture-pane -p)
        # The header's "N of M" with N < M: the list is filtered and drawn.
        if grep -q "Search: m" <<<"$screen" && grep -oE "[0-9]+ of [0-9]+" <<<"$screen" | awk '$1 != $3 {found=1} END {exit !found}'; then
            key_ms=$(( $(now_ms) - sent )); break
        fi
        sleep 0.002
    done
    tmux -L $socket send-keys -l a; sleep 0.3
    tmux -L $socket send-keys -l r; sleep 0.3
    local rss; rss=$(awk '/VmHWM/ {print $2}' /proc/$pid/status 2>/dev/null)
    tmux -L $socket send-keys C-q; sleep 0.5
    tmux -L $socket kill-server 2>/dev/null
    local inproc
    inproc=$(grep -o 'search filtered [0-9]* games to [0-9]* in [0-9.]* ms' "$home/data/phosphor.log" 2>/dev/null \
        | awk '{print $(NF-1)}' | sort -n | tail -1)
    echo "${start_ms:-?} ${rss:-?} ${key_ms:-?} ${inproc:-?}"
}

measure() {   # BIN NAME → sets results in r_<name>_*
    local bin=$1 name=$2 home=$work/home-$2
    rm -rf "$home"
    echo "[library] $name: first add..." >&2
    read -r first first_rss <<<"$(timed_add "$bin" "$home")"
    printf -v "games_${name}" '%s' "$(sqlite3 "$home/data/library.sqlite" 'select count(*) from game' 2>/dev/null || echo '?')"
    printf -v "summary_${name}" '%s' "$(head -2 "$work/add.out" | tr '\n' ' ')"
    echo "[library] $name: unchanged rescan..." >&2
    read -r again again_rss <<<"$(timed_add "$bin" "$home")"
    python3 Bench/library/generate.py "$library" --touch 100 >/dev/null
    echo "[library] $name: rescan with 100 changed..." >&2
    read -r changed changed_rss <<<"$(timed_add "$bin" "$home")"
    echo "[library] $name: browser..." >&2
    read -r start start_rss key inproc <<<"$(browser "$bin" "$home")"
    echo "[library] $name: large zips..." >&2
    rm -rf "$work/large-home-$name"
    read -r largeadd largeadd_rss <<<"$(timed_add "$bin" "$work/large-home-$name" "$large")"
    echo "[library] $name: large 7z..." >&2
    rm -rf "$work/large7z-home-$name" "$work/solid7z-home-$name"
    read -r large7z large7z_rss <<<"$(timed_add "$bin" "$work/large7z-home-$name" "$large7z")"
    read -r solid solid_rss <<<"$(timed_add "$bin" "$work/solid7z-home-$name" "$solid7z")"
    printf -v "r_${name}" '%s' "$first $first_rss $again $again_rss $changed $changed_rss $start $start_rss $key $inproc $largeadd $largeadd_rss $large7z $large7z_rss $solid $solid_rss"
}

measure "$BIN" new
echo "[library] raw: $r_new" >&2
read -r n1 n1m n2 n2m n3 n3m n4 n4m n5 n6 n7 n7m n8 n8m n9 n9m <<<"$r_new"
if [ -n "$BASE" ]; then
    measure "$BASE" base
    echo "[library] raw baseline: $r_base" >&2
    read -r b1 b1m b2 b2m b3 b3m b4 b4m b5 b6 b7 b7m b8 b8m b9 b9m <<<"$r_base"
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a+0 > 0 && b+0 > 0) printf "%.1f×", b / a; else printf "–" }'; }
mb() { awk -v k="$1" 'BEGIN { if (k+0 > 0) printf "%.0f MB", k / 1024; else printf "?" }'; }
echo "## 7. Library at 20 000 files (issue 17)"
echo
echo "Bench/library/generate.py: 19 000 loose ROMs in 9 system folders (two thirds in subfolders) and"
echo "50 zips of 20, built from the test cartridges with their last bytes changed (each has its own"
echo "CRC-32). Times are wall clock; for \`add\`, CPU seconds (user + system) in brackets. After the first add Phosphor's library holds $games_new games"
echo "(it said: $summary_new)."
if [ -n "$BASE" ]; then echo "The baseline's holds $games_base (it said: $summary_base)."; fi
echo
if [ -n "$BASE" ]; then
    echo "| | Phosphor | peak RSS | baseline ($(basename "$BASE")) | peak RSS | speed-up | aim |"
    echo "|---|--:|--:|--:|--:|--:|--:|"
    echo "| first \`phosphor add\` | $n1 s | $(mb "$n1m") | $b1 s | $(mb "$b1m") | $(ratio "$n1" "$b1") | ≤ 5 s |"
    echo "| \`add\` again, nothing changed | $n2 s | $(mb "$n2m") | $b2 s | $(mb "$b2m") | $(ratio "$n2" "$b2") | ≤ 0.5 s |"
    echo "| \`add\` again, 100 files changed | $n3 s | $(mb "$n3m") | $b3 s | $(mb "$b3m") | $(ratio "$n3" "$b3") | |"
    echo "| browser start to the drawn list (tmux) | $n4 ms | $(mb "$n4m") | $b4 ms | $(mb "$b4m") | $(ratio "$n4" "$b4") | ≤ 300 ms |"
    echo "| keystroke to the filtered list drawn (tmux) | $n5 ms | | $b5 ms | | $(ratio "$n5" "$b5") | ≤ 16 ms |"
    echo "| keystroke: filtering in process (slowest of m, ma, mar) | $n6 ms | | – | | | ≤ 16 ms |"
    echo "| first \`add\` of 20 zips of one 4 MiB ROM | $n7 s | $(mb "$n7m") | $b7 s | $(mb "$b7m") | $(ratio "$n7" "$b7") | |"
    echo "| first \`add\` of 20 7z of one 4 MiB ROM | $n8 s | $(mb "$n8m") | $b8 s | $(mb "$b8m") | $(ratio "$n8" "$b8") | |"
    echo "| first \`add\` of a solid 7z of 21 × 4 MiB | $n9 s | $(mb "$n9m") | $b9 s | $(mb "$b9m") | $(ratio "$n9" "$b9") | |"
else
    echo "| | Phosphor | peak RSS | aim |"
    echo "|---|--:|--:|--:|"
    echo "| first \`phosphor add\` | $n1 s | $(mb "$n1m") | ≤ 5 s |"
    echo "| \`add\` again, nothing changed | $n2 s | $(mb "$n2m") | ≤ 0.5 s |"
    echo "| \`add\` again, 100 files changed | $n3 s | $(mb "$n3m") | |"
    echo "| browser start to the drawn list (tmux) | $n4 ms | $(mb "$n4m") | ≤ 300 ms |"
    echo "| keystroke to the filtered list drawn (tmux) | $n5 ms | | ≤ 16 ms |"
    echo "| keystroke: filtering in process (slowest of m, ma, mar) | $n6 ms | | ≤ 16 ms |"
    echo "| first \`add\` of 20 zips of one 4 MiB ROM | $n7 s | $(mb "$n7m") | |"
    echo "| first \`add\` of 20 7z of one 4 MiB ROM | $n8 s | $(mb "$n8m") | |"
    echo "| first \`add\` of a solid 7z of 21 × 4 MiB | $n9 s | $(mb "$n9m") | |"
fi
echo
echo "The tmux times include tmux's own redraw and this script's polling (every 2–5 ms). The last three rows:"
echo "\`generate.py --large 20\`, each zip one Game Boy Advance ROM of 4 MiB that deflates about 2:1;"
echo "the 7z rows the same ROMs (\`--format 7z\`, \`--format solid7z\`: LZMA2, \`7z -mx=1\`)."
