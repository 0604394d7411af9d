#!/usr/bin/env bash
# `make bench`: Phosphor's speed, bytes and memory against baselines measured in the same run.
#
#   Bench/run.sh BIN        (BIN = .build/release/phosphor; `make bench` builds it first)
#
# Prints Markdown on stdout and rewrites BENCHMARKS.md with it (keeping its "## Soak"
# section, which Bench/soak.sh writes). Sections:
#   1. headless speed of `BIN run --headless` against Bench/barecore.c, per test cartridge,
#      with a frame-hash check (Bench/headless/compare.py)
#   2. render: Phosphor's Render module against libchafa (Bench/render/run.sh) on the
#      synthetic scenes and on recorded frames of the test cartridges
#   3. audio: underruns per minute and audio-thread CPU (Bench/audio/run.sh)
#   4. peer: `BIN play` against gambaterm (PyPI) in a pseudo-terminal (Bench/peer/compare.py),
#      on the test cartridge and on the game-like one (Bench/gbc-scene) at two sizes
#  4b. a slow link: key-to-screen latency and frames/s at 100 KB/s, 250 KB/s, 1 MB/s with a
#      40 ms round trip, back-pressure on and off (Bench/peer/slow_link.py)
#  4c. bytes per frame of each encoder step (phosphor-bench encoder-steps)
#  4d. real terminals: the program's, the terminal's and the X server's CPU in xterm and, where
#      installed, xfce4-terminal (VTE), Konsole, Alacritty, st and urxvt on Xvfb
#      (Bench/peer/terminal_cpu.py)
#   5. memory: peak RSS of the headless runs of section 1
#   6. pixels: kitty graphics and sixel encoding per frame beside half blocks, against libsixel
#      (Bench/pixels/run.sh, on the frames recorded for sections 2 and 4c)
#   7. library: 20 000 generated ROM files: scans, browser start, search keystroke
#      (Bench/library/run.sh; LIBRARY_BASELINE=BIN measures another build beside it)
#   8. OpenGL: the GL test core (Tests/Fixtures/glcore) headless with and without read-back,
#      and the read-back cost per frame at 320x240 and 640x480 (Bench/gl/run.sh)
#   9. rewind and run-ahead: bytes per stored frame (LZ4 against Zstandard), core-thread CPU
#      per frame, seconds in 64 MB, run-ahead CPU per shown frame (Bench/rewind/run.sh)
# A section that cannot run prints why and the others go on; the exit status is non-zero
# if any section failed.
#
# Environment: BENCH_SECONDS (length of one headless run, default 1.5), BENCH_RUNS (best of,
# default 5), AUDIO_SECONDS (per audio run, default 20), PEER_FRAMES (default 600),
# GAMBATERM_VENV (default /tmp/phosphor-bench-gambaterm), RENDER_BENCH and AUDIO_BENCH
# (the scripts of sections 2 and 3), REWIND_FRAMES (frames per rewind measurement, default
# 600), BENCHMARKS (output file, default BENCHMARKS.md).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if [ $# -lt 1 ]; then
    echo "usage: Bench/run.sh BIN" >&2
    exit 2
fi
BIN=$(realpath "$1")
if [ ! -x "$BIN" ]; then
    echo "Bench/run.sh: $1: no such executable (run make build first)" >&2
    exit 2
fi
BENCH_SECONDS=${BENCH_SECONDS:-1.5}
BENCH_RUNS=${BENCH_RUNS:-5}
AUDIO_SECONDS=${AUDIO_SECONDS:-20}
PEER_FRAMES=${PEER_FRAMES:-600}
GAMBATERM_VENV=${GAMBATERM_VENV:-/tmp/phosphor-bench-gambaterm}
RENDER_BENCH=${RENDER_BENCH:-Bench/render/run.sh}
AUDIO_BENCH=${AUDIO_BENCH:-Bench/audio/run.sh}
BENCHMARKS=${BENCHMARKS:-BENCHMARKS.md}

work=$(mktemp -d /tmp/phosphor-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
report=$work/report.md
failed=0

# Prints to stdout and to the report.
say() { printf '%s\n' "$@" | tee -a "$report"; }
# Runs one section's command; its stdout goes to the report, its stderr to a log whose
# last lines are shown if it fails.
section_run() {
    local name=$1; shift
    local log=$work/$name.log
    echo "[bench] $name..." >&2
    local started=$SECONDS
    if "$@" 2>"$log" | tee -a "$report"; then
        echo "[bench] $name done in $((SECONDS - started)) s" >&2
    else
        failed=1
        say "" "**$name failed** (last lines of its log):" "" '```'
        tail -n 8 "$log" | tee -a "$report"
        say '```'
    fi
}

cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
load=$(cut -d' ' -f1-3 /proc/loadavg)
revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
say "# Benchmarks" ""
say "Measured by \`make bench\` (\`Bench/run.sh\`) on $(date -u '+%Y-%m-%d %H:%M UTC'), revision \`$revision\`." \
    "Machine: $(nproc) CPUs, $cpu_model; load average at start $load (other work on the machine" \
    "slows both sides of each comparison, which alternate runs for that reason)." ""

# ---- 1 and 5: headless speed and memory against barecore ---------------------------
barecore=$work/barecore
say "## 1. Headless speed: \`phosphor run --headless\` against the bare core" ""
if cc -O2 -o "$barecore" Bench/barecore.c -ldl 2>"$work/barecore.log"; then
    core_only_args=()
    if python3 Bench/headless/make_core_only.py Bench/barecore.c "$work/core_only.c" 2>"$work/core_only.log" &&
        cc -O2 -o "$work/core_only" "$work/core_only.c" -ldl 2>>"$work/core_only.log"; then
        core_only_args=(--core-only "$work/core_only")
    else
        say "(No core-only column: $(head -n 1 "$work/core_only.log").)" ""
    fi
    section_run headless python3 Bench/headless/compare.py --bin "$BIN" --barecore "$barecore" \
        "${core_only_args[@]}" --seconds "$BENCH_SECONDS" --runs "$BENCH_RUNS" --memory-out "$work/memory.md"
else
    failed=1
    say "Not measured: Bench/barecore.c does not build: $(head -n 1 "$work/barecore.log")"
fi
say ""

# ---- 2: render against chafa -------------------------------------------------------
say "## 2. Render: Phosphor's renderer against libchafa" ""
if [ -x "$RENDER_BENCH" ]; then
    frame_dirs=()
    if [ -x "$barecore" ] && python3 Bench/headless/record_frames.py --barecore "$barecore" "$work/frames" \
        >"$work/frames.list" 2>"$work/frames.log"; then
        mapfile -t frame_dirs <"$work/frames.list"
        say "Recorded frames: 24 frames each of the NES, Game Boy and DS test cartridges, a different" \
            "button every 8 frames (\`Bench/headless/record_frames.py\`), besides the synthetic scenes." ""
    else
        say "(Recording cartridge frames failed: $(tail -n 1 "$work/frames.log" 2>/dev/null); synthetic scenes only.)" ""
    fi
    if [ "$RENDER_BENCH" != Bench/render/run.sh ]; then say "(Script: \`$RENDER_BENCH\`.)" ""; fi
    section_run render "$RENDER_BENCH" "${frame_dirs[@]}"
else
    say "Not available: $RENDER_BENCH is not in this checkout."
fi
say ""

# ---- 3: audio ----------------------------------------------------------------------
say "## 3. Audio: underruns and audio-thread CPU" ""
if [ -x "$AUDIO_BENCH" ]; then
    if [ "$AUDIO_BENCH" != Bench/audio/run.sh ]; then say "(Script: \`$AUDIO_BENCH\`.)" ""; fi
    section_run audio "$AUDIO_BENCH" "$AUDIO_SECONDS"
else
    say "Not available: $AUDIO_BENCH is not in this checkout."
fi
say "" "### The test cartridges playing through ALSA (\`Bench/audio/cartridges.sh\`, ${CARTRIDGE_AUDIO_SECONDS:-60} s each)" ""
section_run audio-cartridges Bench/audio/cartridges.sh "$BIN" "${CARTRIDGE_AUDIO_SECONDS:-60}"
say ""

# ---- 4: peer run against gambaterm ------------------------------------------------
say "## 4. Peer: \`phosphor play\` against gambaterm in a pseudo-terminal" ""
gambaterm=$GAMBATERM_VENV/bin/gambaterm
gambaterm_note=""
if [ ! -x "$gambaterm" ]; then
    echo "[bench] installing gambaterm (PyPI) into $GAMBATERM_VENV..." >&2
    if ! { python3 -m venv "$GAMBATERM_VENV" && "$GAMBATERM_VENV/bin/pip" install -q gambaterm; } \
        >"$work/pip.log" 2>&1; then
        gambaterm_note="pip install gambaterm failed: $(tail -n 1 "$work/pip.log")"
    fi
fi
peer_args=(--bin "$BIN" --frames "$PEER_FRAMES")
if [ -x "$barecore" ]; then peer_args+=(--barecore "$barecore"); fi
if [ -x "$gambaterm" ]; then
    version=$("$GAMBATERM_VENV/bin/pip" show gambaterm 2>/dev/null | sed -n 's/^Version: //p')
    say "gambaterm ${version:-?} (PyPI, in a venv at \`$GAMBATERM_VENV\`)." ""
    peer_args+=(--gambaterm "$gambaterm")
else
    peer_args+=(--gambaterm-note "${gambaterm_note:-not installed}")
fi
say "### The test cartridge (large flat areas)" ""
section_run peer python3 Bench/peer/compare.py "${peer_args[@]}"
say ""
# A game's frames: the scrolling, tiled, sprite-filled bench cartridge (Bench/gbc-scene), at
# 170x80 (where the legend does not fit beside a 1:1 picture) and at 120x50 (downscaled).
for size in 170x80 120x50; do
    say "### The game-like cartridge (\`Bench/gbc-scene/phosphor-scene.gbc\`), ${size}" ""
    section_run "peer-scene-$size" python3 Bench/peer/compare.py "${peer_args[@]}" \
        --rom Bench/gbc-scene/phosphor-scene.gbc --cols "${size%x*}" --rows "${size#*x}"
    say ""
done

# ---- 4b: a slow link ------------------------------------------------------------------
say "## 4b. A slow link: key-to-screen latency and frames shown per second" ""
say "\`phosphor play\` of the game-like cartridge in a 170×80 pseudo-terminal whose reader takes" \
    "the output at a fixed rate, with a 40 ms round trip (\`Bench/peer/slow_link.py\`): A is" \
    "pressed every 2 s and turns the sky red; latency is from the press to the first red on the" \
    "screen (median of the presses; lost: the red never arrived in the run). Back-pressure off" \
    "is \`--no-link-pacing\` (every frame written, as before). Only the local pty buffers here;" \
    "over SSH the unpaced backlog grows by sshd's and TCP's buffers too." ""
say "| link | back-pressure | key-to-screen median ms (all presses) | frames shown/s | lost presses |"
say "|---|---|--:|--:|--:|"
for rate in 100000 250000 1000000; do
    for pacing in on off; do
        flag=()
        [ "$pacing" = off ] && flag=(--no-pacing)
        if python3 Bench/peer/slow_link.py --bin "$BIN" --rom Bench/gbc-scene/phosphor-scene.gbc \
            --core /usr/lib/x86_64-linux-gnu/libretro/gambatte_libretro.so --rate "$rate" "${flag[@]}" \
            >"$work/slow.json" 2>"$work/slow.log"; then
            say "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(f"| {int(r[\"rate\"])//1000} KB/s | {sys.argv[2]} | {r[\"median_ms\"]} ({\", \".join(str(v) for v in r[\"latencies_ms\"])}) | {r[\"frames_per_second\"]} | {r[\"lost_presses\"]} |")' "$work/slow.json" "$pacing")"
        else
            say "| $((rate / 1000)) KB/s | $pacing | failed: $(tail -n 1 "$work/slow.log") | | |"
            failed=1
        fi
    done
done
say ""

# ---- 4d: a real terminal: the program, xterm and the X server together ----------------------
say "## 4d. Real terminals: what the terminal and its X server pay too" ""
say "The same cartridge in real terminals on Xvfb (\`Bench/peer/terminal_cpu.py\`): the CPU of the" \
    "program, of the terminal and of the X server, since a player's machine pays all three. The" \
    "terminal's waits are its voluntary context switches: for input, or for the X server (xterm" \
    "waits after each DCH and ICH). xterm always; the others where installed" \
    "(\`apt-get install xfce4-terminal konsole alacritty stterm rxvt-unicode\`)." ""
for terminal in xterm xfce4-terminal konsole alacritty st urxvt; do
    for size in 120x50 170x80; do
        peer_terminal=(--bin "$BIN" --rom Bench/gbc-scene/phosphor-scene.gbc --terminal "$terminal" \
            --core /usr/lib/x86_64-linux-gnu/libretro/gambatte_libretro.so --size "$size" --rounds 3)
        if [ -x "$gambaterm" ]; then peer_terminal+=(--gambaterm "$gambaterm"); fi
        section_run "$terminal-$size" python3 Bench/peer/terminal_cpu.py "${peer_terminal[@]}"
        say ""
    done
done

# ---- 4c: each encoder step on consecutive frames of the game-like cartridge ---------------
say "### Each encoder step, on 60 consecutive frames of the game-like cartridge" ""
if [ -x "$barecore" ] && python3 Bench/headless/record_frames.py --barecore "$barecore" --only scene --step 1 --count 60 \
        --no-buttons --extra scene,gambatte_libretro.so,Bench/gbc-scene/phosphor-scene.gbc "$work/scene-frames" \
        >/dev/null 2>"$work/scene-frames.log" &&
    swift build -c release --static-swift-stdlib --product phosphor-bench >&2; then
    scene_bench="$(swift build -c release --static-swift-stdlib --show-bin-path)/phosphor-bench"
    section_run encoder-steps "$scene_bench" encoder-steps "$work/scene-frames/scene"
    # The same frames through the encoder set up as in play: back to back, then with a frame's
    # sleep before each as the play screen's thread has (its `drawing=` figure is the paced one).
    say "" "### The renderer as in play on the same frames: back to back, and paced at 1x" ""
    section_run render-like-play "$scene_bench" render --like-play --passes 5 --sizes 120x50,160x72 "$work/scene-frames/scene"
    say ""
    section_run render-like-play-paced "$scene_bench" render --like-play --paced --passes 3 --sizes 120x50,160x72 "$work/scene-frames/scene"
else
    say "Not measured (barecore or phosphor-bench did not build)."
fi
say ""

# ---- 5: memory ---------------------------------------------------------------------
say "## 5. Memory: peak RSS of the headless runs" ""
if [ -s "$work/memory.md" ]; then
    say "$(cat "$work/memory.md")"
else
    say "Not measured (section 1 did not run)."
fi

# ---- 6: pixels (kitty graphics, sixel) -------------------------------------------
say "" "## 6. Pixels: kitty graphics and sixel per frame, beside half blocks and libsixel" ""
say "Encode time per frame from the core's XRGB8888 frame to the bytes written (kitty local: including" \
    "writing the /dev/shm file), as medians over every frame of every pass, in the encoding thread's" \
    "CPU time (what the encoder costs, even on a loaded machine) and in wall time; bytes per frame" \
    "(kitty: changed frames only, as the play screen sends them; kitty scales in the terminal, so its" \
    "cost does not depend on the scale). Aims: under 2 ms a frame for every encoder and size, local" \
    "kitty at most 1 ms, remote kitty at most 20 KB per changed NES frame." ""
pixel_dirs=(${frame_dirs[@]+"${frame_dirs[@]}"})
# The game-like cartridge's 60 consecutive frames (recorded for 4c): a scrolling, tiled scene.
if [ -d "$work/scene-frames/scene" ]; then pixel_dirs+=("$work/scene-frames/scene"); fi
section_run pixels Bench/pixels/run.sh ${pixel_dirs[@]+"${pixel_dirs[@]}"}
# ---- 7: the library at 20 000 files ------------------------------------------------
# LIBRARY_BASELINE: another phosphor binary (e.g. main's release build) measured in the same run.
say ""
section_run library Bench/library/run.sh "$BIN" ${LIBRARY_BASELINE:-}
# ---- 8: OpenGL read-back -----------------------------------------------------------
say "" "## 8. OpenGL: hardware-rendered frames read back (\`Bench/gl/run.sh\`)" ""
say "The GL test core (OpenGL 3.3 core, two rectangles of two triangles over a clear colour) run" \
    "through CoreHost as fast as it goes, on this machine's EGL (Mesa's llvmpipe when there is no GPU)." \
    "Read-back per frame is the core thread's time in it: starting the PBO read of frame N, mapping" \
    "frame N-1 and copying it into the mailbox (on llvmpipe this includes finishing the frame's" \
    "rasterisation, which the read waits for). Aim: under 1 ms at 640x480." ""
section_run opengl Bench/gl/run.sh "${GL_BENCH_FRAMES:-600}" "${GL_BENCH_RUNS:-3}"
# ---- 9: rewind and run-ahead ------------------------------------------------------
say "" "## 9. Rewind and run-ahead on the test cartridges (\`Bench/rewind/run.sh\`)" ""
section_run rewind Bench/rewind/run.sh "${REWIND_FRAMES:-600}"
say ""

# ---- BENCHMARKS.md: this run, plus the soak section of the last soak ----------------
{
    cat "$report"
    if [ -f "$BENCHMARKS" ] && grep -q '^## Soak' "$BENCHMARKS"; then
        echo ""
        sed -n '/^## Soak/,$p' "$BENCHMARKS"
    fi
} >"$work/BENCHMARKS.md"
cp "$work/BENCHMARKS.md" "$BENCHMARKS.tmp" && mv "$BENCHMARKS.tmp" "$BENCHMARKS"
echo "[bench] wrote $BENCHMARKS" >&2
exit $failed
