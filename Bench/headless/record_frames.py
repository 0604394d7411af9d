#!/usr/bin/env python3
"""Record frames of the test cartridges for the render benchmark.

    record_frames.py --barecore BARECORE OUT_DIR [--count 24] [--step 8] [--only nes,gb,ds]
                     [--extra LABEL,CORE,ROM] [--no-buttons]

For each cartridge, a button script presses a different button every STEP frames (none,
a, b, select, start, up, down, left, right, l, r, then around again), so consecutive
recorded frames differ the way a game's do: a few boxes or the whole backdrop change.
Frame i is the picture after 4 + i*STEP retro_run calls, taken with `barecore --ppm`
(one run per frame: barecore writes only its final frame) and stored as
OUT_DIR/<label>/frame-NNNN.xrgb: width and height as UInt32 little-endian, then
XRGB8888 pixels (0x00RRGGBB little-endian), the format of Sources/phosphor-bench's
RawFrameFile. Prints the directories made, one per line. --extra adds a cartridge (e.g. the
game-like Bench/gbc-scene one); --no-buttons presses nothing (with --step 1: consecutive frames
of the game playing by itself, for `phosphor-bench encoder-steps`).
"""

import argparse
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import BARE_VARIABLES, CARTRIDGES  # noqa: E402

BUTTONS = ["-", "a", "b", "select", "start", "up", "down", "left", "right", "l", "r"]


def read_ppm(path):
    """Returns (width, height, rgb bytes) of a binary P6 picture with maxval 255."""
    with open(path, "rb") as picture:
        data = picture.read()
    fields, position = [], 0
    while len(fields) < 4:
        while data[position:position + 1].isspace():
            position += 1
        if data[position:position + 1] == b"#":
            position = data.index(b"\n", position) + 1
            continue
        end = position
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[position:end])
        position = end
    position += 1  # the single whitespace byte after maxval
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not a P6 picture with maxval 255")
    width, height = int(fields[1]), int(fields[2])
    pixels = data[position:position + width * height * 3]
    if len(pixels) != width * height * 3:
        raise ValueError(f"{path}: {len(pixels)} pixel bytes, want {width * height * 3}")
    return width, height, pixels


def write_xrgb(path, width, height, rgb):
    out = bytearray(struct.pack("<II", width, height))
    xrgb = bytearray(width * height * 4)
    xrgb[0::4] = rgb[2::3]  # blue
    xrgb[1::4] = rgb[1::3]  # green
    xrgb[2::4] = rgb[0::3]  # red
    out += xrgb
    with open(path + ".tmp", "wb") as file:
        file.write(out)
    os.replace(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--barecore", required=True)
    parser.add_argument("--cores", default="/usr/lib/x86_64-linux-gnu/libretro")
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--step", type=int, default=8)
    parser.add_argument("--only", default="nes,gb,ds")
    parser.add_argument("--extra", action="append", default=[], help="LABEL,CORE,ROM: one more cartridge")
    parser.add_argument("--no-buttons", action="store_true")
    parser.add_argument("out")
    options = parser.parse_args()
    wanted = set(filter(None, options.only.split(",")))

    with tempfile.TemporaryDirectory(prefix="phosphor-frames.") as scratch:
        script = os.path.join(scratch, "buttons.txt")
        last = 4 + options.count * options.step
        with open(script, "w") as file:
            for index, frame in enumerate(range(0, last, options.step)):
                file.write(f"{frame} {'-' if options.no_buttons else BUTTONS[index % len(BUTTONS)]}\n")
        extra = [tuple(entry.split(",", 2)) for entry in options.extra]
        for label, core_name, rom in list(CARTRIDGES) + extra:
            core = os.path.join(options.cores, core_name)
            if label not in wanted or not os.path.exists(core):
                continue
            directory = os.path.join(options.out, label)
            os.makedirs(directory, exist_ok=True)
            variables = []
            for assignment in BARE_VARIABLES.get(core_name, []):
                variables += ["--var", assignment]
            picture = os.path.join(scratch, "frame.ppm")
            for index in range(options.count):
                frames = 4 + index * options.step
                subprocess.run([options.barecore, "--ppm", picture] + variables + [core, rom, str(frames), script],
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                width, height, rgb = read_ppm(picture)
                write_xrgb(os.path.join(directory, f"frame-{index:04d}.xrgb"), width, height, rgb)
            print(directory)


if __name__ == "__main__":
    main()
