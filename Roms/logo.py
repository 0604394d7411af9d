"""The boot logo shared by the GBA and DS headers, read from logo.inc.

Both header tools import this module, so the 156 logo bytes live only in
logo.inc (which the GBA assembly also includes) and the CRC-16 that checks
them lives only here.
"""
import re
import sys

LOGO_CRC = 0xCF56


def crc16(data):
    """CRC-16 with polynomial 0xA001 (reflected) and initial value 0xFFFF."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def read_logo(path):
    """The logo bytes from the `.byte` lines of path; exits when they are wrong."""
    logo = bytes(int(value, 16) for line in open(path)
                 if line.strip().startswith(".byte")
                 for value in re.findall(r"0x([0-9A-Fa-f]{2})", line))
    if len(logo) != 156 or crc16(logo) != LOGO_CRC:
        sys.exit(f"{path}: not the 156-byte logo (CRC must be {LOGO_CRC:04X})")
    return logo
