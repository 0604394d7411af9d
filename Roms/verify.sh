#!/bin/bash
# Run every test cartridge in its Debian libretro core with Bench/barecore and
# check what Roms/README.md promises: a frame hash of its own for every button,
# a tone of the documented frequency while A is held, silence otherwise, and
# (Game Boy Color) a boot counter that survives in battery RAM.
# Exit status 1 with a line naming the cartridge when a check fails.
set -euo pipefail
cd "$(dirname "$0")"
CORES=${LIBRETRO_DIRECTORY:-/usr/lib/x86_64-linux-gnu/libretro}
BUILD=build/verify
FRAMES=120
mkdir -p "$BUILD"
cc -O2 -Wall -o "$BUILD/barecore" ../Bench/barecore.c -ldl
failed=0

fail() { echo "FAIL $*"; failed=1; }

# cartridge core buttons expected_hz
check() {
    local rom=$1 core=$2 buttons=$3 expected=$4
    local name; name=$(basename "$(dirname "$rom")")
    local rate hashes=()
    rate=$("$BUILD/barecore" "$CORES/$core" "$rom" 1 2>/dev/null | sed -n 's/.*sample_rate=\([0-9.]*\).*/\1/p')
    for button in - $buttons; do
        echo "0 $button" > "$BUILD/input"
        local line
        line=$("$BUILD/barecore" --audio-raw "$BUILD/$name-$button.raw" "$CORES/$core" "$rom" $FRAMES "$BUILD/input" 2>/dev/null | tail -1)
        printf '%-5s %-7s %s\n' "$name" "$button" "$line"
        hashes+=("$(sed 's/.*hash=\([0-9a-f]*\).*/\1/' <<<"$line")")
    done
    local unique; unique=$(printf '%s\n' "${hashes[@]}" | sort -u | wc -l)
    [ "$unique" = "${#hashes[@]}" ] || fail "$name: only $unique different frames for ${#hashes[@]} button states"
    local silent tone
    silent=$(python3 tone.py "$BUILD/$name--.raw" "$rate")
    tone=$(python3 tone.py "$BUILD/$name-a.raw" "$rate")
    echo "$name  no input: $silent   A held: $tone (expected $expected Hz, sample rate $rate)"
    [ "$silent" = "rms=0 freq=0.00" ] || fail "$name: sound without A"
    if [ "$expected" = 0 ]; then
        [ "$tone" = "rms=0 freq=0.00" ] || fail "$name: this cartridge has no tone, but A made sound"
    else
        python3 -c "import sys; f=float('$tone'.split('freq=')[1]); sys.exit(abs(f-$expected)/$expected > 0.005)" \
            || fail "$name: tone is not $expected Hz (within 0.5%)"
    fi
}

# Game Boy Color battery RAM: three power-ons count 1, 2, 3; garbage RAM counts as fresh.
sram_check() {
    local sram="$BUILD/gb.srm" core="$CORES/gambatte_libretro.so" rom=gb/phosphor-test.gbc
    rm -f "$sram"
    local boot hashes=()
    for boot in 1 2 3; do
        local line
        line=$("$BUILD/barecore" --sram "$sram" "$core" "$rom" 30 2>/dev/null | tail -1)
        local counter; counter=$(python3 -c "import sys; d=open('$sram','rb').read(); print(d[4] | d[5] << 8 if d[:4] == b'PHOS' else -1)")
        echo "gb    boot $boot: counter=$counter $line"
        [ "$counter" = "$boot" ] || fail "gb: battery counter is $counter after boot $boot"
        hashes+=("$(sed 's/.*hash=\([0-9a-f]*\).*/\1/' <<<"$line")")
    done
    [ "$(printf '%s\n' "${hashes[@]}" | sort -u | wc -l)" = 3 ] || fail "gb: the counter on screen did not change"
    head -c 8192 /dev/urandom > "$sram"
    "$BUILD/barecore" --sram "$sram" "$core" "$rom" 30 > /dev/null 2>&1
    python3 -c "import sys; d=open('$sram','rb').read(); sys.exit(not (d[:4] == b'PHOS' and d[4] == 1 and d[5] == 0))" \
        || fail "gb: random battery RAM did not restart the counter at 1"
}

check nes/phosphor-test.nes nestopia_libretro.so "a b select start up down left right" 440.40
check gb/phosphor-test.gbc gambatte_libretro.so "a b select start up down left right" 439.84
check snes/phosphor-test.sfc bsnes_mercury_performance_libretro.so "a b select start up down left right x y l r" 440.50
check gba/phosphor-test.gba mgba_libretro.so "a b select start up down left right l r" 439.84
check pce/phosphor-test.pce mednafen_pce_fast_libretro.so "a b select start up down left right" 440.40
check ds/phosphor-test.nds desmume_libretro.so "a b select start up down left right l r" 440.05
sram_check

# The same GBC cartridge on a DMG (gambatte's hardware option): grey picture, same tone.
echo "0 a" > "$BUILD/input"
line=$("$BUILD/barecore" --var gambatte_gb_hwmode=GB --audio-raw "$BUILD/dmg-a.raw" \
    "$CORES/gambatte_libretro.so" gb/phosphor-test.gbc $FRAMES "$BUILD/input" 2>/dev/null | tail -1)
echo "gb    dmg a   $line $(python3 tone.py "$BUILD/dmg-a.raw" 32768)"
[ "$(python3 tone.py "$BUILD/dmg-a.raw" 32768)" = "rms=2863 freq=439.84" ] || fail "gb: no 439.84 Hz tone in DMG mode"

[ $failed = 0 ] && echo "all cartridges verified"
exit $failed
