#!/usr/bin/env python3
"""Patch the GBA header complement (0xBD) in place and check the logo.

Usage: header.py ROM.gba LOGO.inc
complement = -(sum of bytes 0xA0..0xBC) - 0x19, modulo 256.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from logo import read_logo  # noqa: E402

path, logo_path = sys.argv[1:3]
rom = bytearray(open(path, "rb").read())
if rom[0x04:0xA0] != read_logo(logo_path):
    sys.exit(f"{path}: logo bytes at 0x04 differ from {logo_path}")
rom[0xBD] = (-(sum(rom[0xA0:0xBD]) + 0x19)) & 0xFF
open(path, "wb").write(rom)
print(f"{path}: complement {rom[0xBD]:02x}")
