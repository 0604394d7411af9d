#!/usr/bin/env bash
# Underruns per minute at 1x while the NES and Game Boy test cartridges really play through ALSA
# (`phosphor play` in tmux, a `file` PCM: the real library, no sound card), with A held by the
# hold-button key so the tone plays. Prints a Markdown table.
# usage: Bench/audio/cartridges.sh BIN [SECONDS=60]
set -euo pipefail
bin=$(realpath "$1")
seconds=${2:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'tmux -L phosphor-audio-bench kill-server 2>/dev/null || true; rm -rf "$work"' EXIT

echo "| cartridge | played (s) | sound reached ALSA (s) | underruns | underruns/min | process CPU (s) |"
echo "|---|--:|--:|--:|--:|--:|"
for rom in nes/phosphor-test.nes gb/phosphor-test.gbc; do
    home=$work/$(basename "$rom")
    raw=$work/$(basename "$rom").raw
    frames=$((seconds * 60))
    tmux -L phosphor-audio-bench -f /dev/null new-session -d -s bench -x 120 -y 40 \
        "PHOSPHOR_HOME=$home LANG=C.UTF-8 TERM=xterm-256color bash -c '\"$bin\" play --frames $frames --audio-device \"file:FILE=$raw,FORMAT=raw\" \"$root/Roms/$rom\"; times > \"$work/times\"'; sleep 600" </dev/null >/dev/null 2>&1
    for _ in $(seq 1 50); do
        tmux -L phosphor-audio-bench capture-pane -p -t bench 2>/dev/null | grep -q fps && break
        sleep 0.1
    done
    tmux -L phosphor-audio-bench send-keys -t bench h
    sleep 0.2
    tmux -L phosphor-audio-bench send-keys -t bench x
    for _ in $(seq 1 $((seconds * 20 + 600))); do
        [ -s "$work/times" ] && break
        sleep 0.1
    done
    tmux -L phosphor-audio-bench kill-server 2>/dev/null || true
    underruns=$(grep -c "audio: underrun" "$home/data/phosphor.log" || true)
    bytes=$(stat -c %s "$raw" 2>/dev/null || echo 0)
    cpu=$(awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); printf "%.2f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$work/times")
    awk -v rom="$rom" -v s="$seconds" -v b="$bytes" -v u="$underruns" -v c="$cpu" \
        'BEGIN { printf "| %s | %d | %.1f | %d | %.2f | %s |\n", rom, s, b / 192000, u, u / (s / 60), c }'
    rm -f "$work/times"
done
echo
echo "Underruns are counted from the log (one per dry spell that sound resumed after); the process CPU"
echo "covers emulation, rendering and the audio thread together."
