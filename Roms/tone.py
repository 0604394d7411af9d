#!/usr/bin/env python3
"""Measure the tone in a raw S16LE stereo file (barecore --audio-raw).

Usage: tone.py FILE [SAMPLE_RATE] [SKIP_SECONDS]
Prints "rms=R freq=F": the RMS level of the left channel and its fundamental
frequency from the mean time between rising crossings of the signal's mean
(exact enough for the square waves the test cartridges play). freq=0 when silent.
"""
import struct
import sys

path = sys.argv[1]
rate = float(sys.argv[2]) if len(sys.argv) > 2 else 48000.0
skip = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5
data = open(path, "rb").read()
count = len(data) // 4
left = [struct.unpack_from("<h", data, 4 * i)[0] for i in range(count)]
left = left[int(skip * rate):]
if not left:
    sys.exit(f"{path}: no audio after {skip} s")
mean = sum(left) / len(left)
rms = (sum((x - mean) ** 2 for x in left) / len(left)) ** 0.5
crossings = []
for i in range(1, len(left)):
    a, b = left[i - 1] - mean, left[i] - mean
    if a < 0 <= b:
        crossings.append(i - 1 + (-a) / (b - a))
freq = 0.0
if rms > 50 and len(crossings) > 2:
    freq = (len(crossings) - 1) / (crossings[-1] - crossings[0]) * rate
print(f"rms={rms:.0f} freq={freq:.2f}")
