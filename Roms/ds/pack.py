#!/usr/bin/env python3
"""Wrap an ARM9 and an ARM7 binary into a DS cartridge image.

Usage: pack.py ARM9.bin ARM7.bin LOGO.inc OUT.nds

Layout: 0x200-byte header, ARM9 code at 0x200 (loaded and started at
0x02000000), ARM7 code at the next 0x200 boundary (0x02380000), no file
system. The header carries the logo (read from the .byte lines of LOGO.inc),
its CRC-16 (must be 0xCF56) and the header CRC-16 over bytes 0x000-0x15D.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from logo import crc16, read_logo  # noqa: E402

ARM9_ADDRESS = 0x02000000
ARM7_ADDRESS = 0x02380000


def align(value, boundary):
    return (value + boundary - 1) // boundary * boundary


arm9_path, arm7_path, logo_path, out_path = sys.argv[1:5]
arm9 = open(arm9_path, "rb").read()
arm7 = open(arm7_path, "rb").read()
arm9 += b"\0" * (align(len(arm9), 4) - len(arm9))
arm7 += b"\0" * (align(len(arm7), 4) - len(arm7))
logo = read_logo(logo_path)

arm9_offset = 0x200
arm7_offset = align(arm9_offset + len(arm9), 0x200)
total = arm7_offset + len(arm7)
header = bytearray(0x200)
header[0x000:0x00C] = b"PHOSPHORTEST"
header[0x00C:0x010] = b"PHOS"
header[0x010:0x012] = b"00"
header[0x014] = 0                    # capacity: 128 KiB << 0
struct.pack_into("<IIII", header, 0x020, arm9_offset, ARM9_ADDRESS, ARM9_ADDRESS, len(arm9))
struct.pack_into("<IIII", header, 0x030, arm7_offset, ARM7_ADDRESS, ARM7_ADDRESS, len(arm7))
struct.pack_into("<II", header, 0x060, 0x00586000, 0x001808F8)  # card bus timings (usual values)
struct.pack_into("<I", header, 0x080, total)                    # used ROM size
struct.pack_into("<I", header, 0x084, 0x200)                    # header size
header[0x0C0:0x15C] = logo
struct.pack_into("<H", header, 0x15C, crc16(logo))
struct.pack_into("<H", header, 0x15E, crc16(header[0x000:0x15E]))

image = bytearray(align(total, 0x200))
image[0:0x200] = header
image[arm9_offset:arm9_offset + len(arm9)] = arm9
image[arm7_offset:arm7_offset + len(arm7)] = arm7
open(out_path, "wb").write(image)
print(f"{out_path}: {len(image)} bytes, header CRC {crc16(header[0:0x15E]):04x}")
