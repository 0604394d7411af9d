#!/usr/bin/env python3
"""Patch the checksum and its complement into a LoROM SNES image in place.

The checksum is the 16-bit sum of every byte of the image (its size is a
power of two), computed with complement 0xFFFF and checksum 0x0000 in place,
which the final pair contributes too (0xFF + 0xFF + 0 + 0 either way).
"""
import sys

path = sys.argv[1]
rom = bytearray(open(path, "rb").read())
header = 0x7FC0
if len(rom) & (len(rom) - 1):
    sys.exit(f"{path}: size {len(rom)} is not a power of two")
rom[header + 0x1C:header + 0x20] = b"\xff\xff\x00\x00"
checksum = sum(rom) & 0xFFFF
complement = checksum ^ 0xFFFF
rom[header + 0x1C:header + 0x1E] = complement.to_bytes(2, "little")
rom[header + 0x1E:header + 0x20] = checksum.to_bytes(2, "little")
open(path, "wb").write(rom)
print(f"{path}: checksum {checksum:04x} complement {complement:04x}")
