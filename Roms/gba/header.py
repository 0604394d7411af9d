#!/usr/bin/env python3
"""Patch the GBA header complement (0xBD) in place and check the logo.

complement = -(sum of bytes 0xA0..0xBC) - 0x19, modulo 256.
"""
import sys

LOGO_CRC = 0xCF56


def crc16(data):
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


path = sys.argv[1]
rom = bytearray(open(path, "rb").read())
if crc16(rom[0x04:0xA0]) != LOGO_CRC:
    sys.exit(f"{path}: logo bytes at 0x04 are wrong")
rom[0xBD] = (-(sum(rom[0xA0:0xBD]) + 0x19)) & 0xFF
open(path, "wb").write(rom)
print(f"{path}: complement {rom[0xBD]:02x}")
