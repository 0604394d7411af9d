#!/usr/bin/env python3
"""Builds the 20 000-file library of `make bench`'s library section from the project's own
test cartridges (Roms/), each copy with bytes changed near its end so every file has its own
CRC-32: 19 000 loose files in 9 system folders (two thirds of them in subfolders) plus 50 zip
archives of 20 ROMs each. File names are No-Intro style ("Crystal Quest 0417 (Europe).gbc") so
searches and sorts see varied titles.

    generate.py OUT            writes OUT/<system folder>/... and OUT/Archives/*.zip
    generate.py OUT --touch N  rewrites N loose files with new bytes (a "100 changed" rescan)
    generate.py OUT --large N  writes OUT/Large NN.zip: N zips of one 4 MiB GBA ROM each, whose
                               bytes deflate about 2:1 (where inflating a whole entry costs most)
    generate.py OUT --large N --format 7z
                               the same ROMs as OUT/Large NN.7z, one each (LZMA2, 7z -mx=1)
    generate.py OUT --large N --format solid7z
                               the same ROMs in one solid OUT/Large Solid.7z (one LZMA2 block)
"""
import argparse
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

WORDS = ("Crystal Quest Legend Star Dragon Super Mega Turbo Ninja Space Castle Dungeon Racer Soccer "
         "Puzzle Tower Shadow Knight Robot Galaxy Island Pirate Jungle Thunder Magic Ghost Zone Fighter "
         "Hero Planet Blaster Kart Golf Tennis Wrestling Boxing Pinball Tetra Block Bubble Moon Sun "
         "Ocean Forest Metal Iron Gold Silver Ruby Sapphire Emerald Pokemon Pokémon Zelda Metroid "
         "Mario Kirby Wario Yoshi Donkey Kong Contra Castlevania Mystic Final Fantasy Chrono Secret").split()
REGIONS = ["USA", "Europe", "Japan", "World", "USA, Europe", "France", "Germany"]


def sega_rom():
    """A 4 KiB Genesis image: the "SEGA" signature at 0x100 is what the inspector looks for."""
    data = bytearray(4096)
    data[0x100:0x110] = b"SEGA MEGA DRIVE "
    title = b"PHOSPHOR BENCH".ljust(48, b" ")
    data[0x120:0x150] = title
    data[0x150:0x180] = title
    return bytes(data)


def sources():
    """(folder name, extension, bytes) for the 9 system folders."""
    def read(path):
        with open(os.path.join(ROOT, path), "rb") as f:
            return f.read()
    gbc = read("Roms/gb/phosphor-test.gbc")
    return [
        ("Nintendo - Nintendo Entertainment System", "nes", read("Roms/nes/phosphor-test.nes")),
        ("Nintendo - Super Nintendo Entertainment System", "sfc", read("Roms/snes/phosphor-test.sfc")),
        ("Nintendo - Game Boy", "gb", gbc),
        ("Nintendo - Game Boy Color", "gbc", gbc),
        ("Nintendo - Game Boy Advance", "gba", read("Roms/gba/phosphor-test.gba")),
        ("Nintendo - Nintendo DS", "nds", read("Roms/ds/phosphor-test.nds")),
        ("Sega - Mega Drive - Genesis", "md", sega_rom()),
        ("NEC - PC Engine - TurboGrafx 16", "pce", read("Roms/pce/phosphor-test.pce")),
        # A ninth folder: more NES games, as collections often split Famicom from NES.
        ("Nintendo - Family Computer", "nes", read("Roms/nes/phosphor-test.nes")),
    ]


def unique(data, serial):
    """The cartridge with its last 8 bytes replaced by a serial number: its own CRC-32."""
    return data[:-8] + struct.pack("<Q", serial)


def name(rng, serial, extension):
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
    return f"{words} {serial:05d} ({rng.choice(REGIONS)}).{extension}"


def loose_paths(out):
    found = []
    for folder, _, files in os.walk(out):
        if "Archives" in folder:
            continue
        found += [os.path.join(folder, f) for f in files]
    return sorted(found)


def generate(out):
    rng = random.Random(17)
    systems = sources()
    serial = 0
    loose_per_system = 19000 // len(systems)
    extra = 19000 - loose_per_system * len(systems)
    for index, (folder, extension, data) in enumerate(systems):
        count = loose_per_system + (1 if index < extra else 0)
        for number in range(count):
            serial += 1
            # Two thirds in subfolders: a letter folder, half of those one level deeper.
            if number % 3 == 0:
                sub = folder
            elif number % 3 == 1:
                sub = os.path.join(folder, "ABCDEFGH"[number % 8])
            else:
                sub = os.path.join(folder, "ABCDEFGH"[number % 8], f"Disc {number % 5}")
            path = os.path.join(out, sub)
            os.makedirs(path, exist_ok=True)
            with open(os.path.join(path, name(rng, serial, extension)), "wb") as f:
                f.write(unique(data, serial))
    archives = os.path.join(out, "Archives")
    os.makedirs(archives, exist_ok=True)
    for number in range(50):
        with zipfile.ZipFile(os.path.join(archives, f"Collection {number:02d}.zip"), "w",
                             zipfile.ZIP_DEFLATED) as archive:
            for _ in range(20):
                serial += 1
                _, extension, data = systems[serial % len(systems)]
                archive.writestr(name(rng, serial, extension), unique(data, serial))
    print(f"{serial} ROM files in {out}")


def touch(out, count):
    """Rewrites `count` loose files, spread over the library, with new serials (new CRCs)."""
    paths = loose_paths(out)
    step = max(1, len(paths) // count)
    for offset, path in enumerate(paths[::step][:count]):
        with open(path, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(unique(data, 900000 + offset))
    print(f"changed {min(count, len(paths))} files")


def large_roms(count):
    """`count` 4 MiB Game Boy Advance ROMs as (name, bytes): the test cartridge's header, then
    bytes drawn from 16 values (about 4 bits each, so deflate halves them and inflating is real work)."""
    with open(os.path.join(ROOT, "Roms/gba/phosphor-test.gba"), "rb") as f:
        header = f.read()[:0x200]
    rng = random.Random(4)
    alphabet = bytes(range(0x40, 0x50)) * 16
    table = bytes.maketrans(bytes(range(256)), alphabet)
    for number in range(count):
        body = rng.randbytes((4 << 20) - len(header)).translate(table)
        yield f"Large Game {number:02d} (World).gba", unique(header + body, 500000 + number)


def large(out, count, format):
    """The large ROMs as zips of one each, 7z archives of one each, or one solid 7z. 7z at -mx=1:
    decoding LZMA costs about the same at every level, compressing at the default would take minutes."""
    os.makedirs(out, exist_ok=True)
    staging = tempfile.mkdtemp(prefix="phosphor-large-")
    try:
        for number, (name, data) in enumerate(large_roms(count)):
            if format == "zip":
                with zipfile.ZipFile(os.path.join(out, f"Large {number:02d}.zip"), "w", zipfile.ZIP_DEFLATED) as archive:
                    archive.writestr(name, data)
                continue
            with open(os.path.join(staging, name), "wb") as f:
                f.write(data)
            if format == "7z":
                seven_zip(os.path.join(out, f"Large {number:02d}.7z"), [name], staging)
                os.remove(os.path.join(staging, name))
        if format == "solid7z":
            seven_zip(os.path.join(out, "Large Solid.7z"), sorted(os.listdir(staging)), staging)
    finally:
        shutil.rmtree(staging)
    print(f"{count} ROMs of 4 MiB as {format} in {out}")


def seven_zip(archive, names, folder):
    subprocess.run(["7z", "a", "-bd", "-y", "-mx=1", "-m0=lzma2", "-ms=on", os.path.abspath(archive)] + names,
                   cwd=folder, check=True, stdout=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--touch", type=int)
    parser.add_argument("--large", type=int)
    parser.add_argument("--format", choices=["zip", "7z", "solid7z"], default="zip")
    args = parser.parse_args()
    if args.large:
        large(args.out, args.large, args.format)
    elif args.touch:
        touch(args.out, args.touch)
    else:
        generate(args.out)


if __name__ == "__main__":
    sys.exit(main())
