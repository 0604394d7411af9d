#!/usr/bin/env python3
"""Writes scene.inc, the data of the game-like Game Boy Color bench cartridge (scene.s):
tiles, a 32x32 background map with its CGB attribute map, the two-row window (text), the
eight background and four object palettes, and the sprites' starting positions and speeds.

    python3 scene.py > scene.inc

Everything is drawn here in code (no image files) and is deterministic (a fixed seed), so the
cartridge and its frames never change unless this file does.
"""

import random

random.seed(1986)


def tile(rows):
    """8 strings of 8 digits 0-3 -> the 16 bytes of a 2bpp tile."""
    data = []
    for row in rows:
        low = high = 0
        for x, ch in enumerate(row):
            value = int(ch)
            low |= (value & 1) << (7 - x)
            high |= ((value >> 1) & 1) << (7 - x)
        data += [low, high]
    return data


def noise(weights):
    """A speckled tile: each pixel picks a colour by weight."""
    colours = [c for c, w in enumerate(weights) for _ in range(w)]
    return ["".join(str(random.choice(colours)) for _ in range(8)) for _ in range(8)]


TILES = []
NAMES = {}


def add(name, rows):
    NAMES[name] = len(TILES)
    TILES.append(tile(rows))


add("sky", ["00000000"] * 8)
add("cloud_l", ["00000000", "00000111", "00011111", "00111111", "01111112", "11111122", "12222222", "00000000"])
add("cloud_m", ["00111100", "11111111", "11111111", "11111111", "11111111", "11111112", "22222222", "00000000"])
add("cloud_r", ["00000000", "11100000", "11111000", "11111100", "11111110", "21111111", "22222221", "00000000"])
add("hill_up", ["00000001", "00000012", "00000122", "00001222", "00012232", "00122222", "01222322", "12232222"])
add("hill_down", ["10000000", "21000000", "22100000", "22210000", "23221000", "22222100", "22322210", "22222321"])
add("hill_fill", noise([0, 0, 6, 1]))
add("hill_top", ["00011000", "00122100", "01222210", "12223221", "22222222", "22322232", "22222222", "23222322"])
add("leaves", noise([0, 3, 4, 2]))
add("leaves_top", ["00011000", "00111100", "01121110", "11112111", "11211211", "12111121", "21121112", "11211211"])
add("trunk", ["00322300", "00323300", "00332300", "00322300", "00323300", "00332300", "00322300", "03322330"])
add("grass", ["10100101", "11101111", "11111111", "21121112", "22222222", "02020202", "00000000", "00000000"])
add("dirt", noise([6, 1, 1, 1]))
add("brick", ["11111110", "11111110", "11111110", "33333333", "11101111", "11101111", "11101111", "33333333"])
add("water", ["11000011", "22111122", "00222200", "00000000", "00110000", "01221100", "12002211", "00000022"])
add("flower", ["00000000", "00030000", "00323000", "00030000", "00010000", "00111000", "00010000", "00000000"])

FONT = {
    " ": ["000", "000", "000", "000", "000"],
    "0": ["111", "101", "101", "101", "111"], "1": ["010", "110", "010", "010", "111"],
    "2": ["111", "001", "111", "100", "111"], "3": ["111", "001", "011", "001", "111"],
    "4": ["101", "101", "111", "001", "001"], "5": ["111", "100", "111", "001", "111"],
    "6": ["111", "100", "111", "101", "111"], "7": ["111", "001", "010", "010", "010"],
    "8": ["111", "101", "111", "101", "111"], "9": ["111", "101", "111", "001", "111"],
    "S": ["111", "100", "111", "001", "111"], "C": ["111", "100", "100", "100", "111"],
    "O": ["111", "101", "101", "101", "111"], "R": ["110", "101", "110", "101", "101"],
    "E": ["111", "100", "110", "100", "111"], "L": ["100", "100", "100", "100", "111"],
    "V": ["101", "101", "101", "101", "010"], "H": ["101", "101", "111", "101", "101"],
    "I": ["111", "010", "010", "010", "111"], "P": ["111", "101", "111", "100", "100"],
    "Q": ["111", "101", "101", "111", "011"], "U": ["101", "101", "101", "101", "111"],
    "T": ["111", "010", "010", "010", "010"], "M": ["101", "111", "111", "101", "101"],
    "X": ["101", "101", "010", "101", "101"], ":": ["000", "010", "000", "010", "000"],
}
FIRST_GLYPH = len(TILES)
GLYPHS = list(FONT)
for ch in GLYPHS:
    rows = ["00000000"]
    for line in FONT[ch]:
        # 3 columns doubled to 6, with a drop shadow in colour 3.
        wide = "".join(c * 2 for c in line)
        rows.append("0" + wide.replace("1", "1") + "0")
    rows += ["00000000", "00000000"]
    shadowed = []
    for y, row in enumerate(rows):
        out = list(row)
        if y > 0:
            above = rows[y - 1]
            for x in range(1, 8):
                if out[x] == "0" and above[x - 1] == "1":
                    out[x] = "3"
        shadowed.append("".join(out))
    TILES.append(tile(shadowed))

FIRST_SPRITE = len(TILES)
SPRITES = [
    ["00111100", "01222210", "12122121", "12222221", "12311321", "12233221", "01222210", "00100100"],  # critter
    ["00111100", "01122110", "11211211", "11211211", "11211211", "11211211", "01122110", "00111100"],  # coin
    ["00010000", "00121000", "11222110", "12232221", "01222210", "01211210", "12100121", "11000011"],  # star
    ["00033000", "00322300", "03211230", "32111123", "32111123", "03211230", "00322300", "00033000"],  # gem
]
for rows in SPRITES:
    TILES.append(tile(rows))


def rgb(r, g, b):
    return r | (g << 5) | (b << 10)


SKY = rgb(12, 20, 31)
BG_PALETTES = [
    [SKY, rgb(31, 31, 31), rgb(22, 24, 28), rgb(6, 8, 14)],          # 0 sky and clouds
    [SKY, rgb(10, 22, 10), rgb(6, 16, 8), rgb(3, 9, 4)],              # 1 hills
    [SKY, rgb(8, 26, 8), rgb(4, 18, 6), rgb(10, 6, 2)],               # 2 trees
    [rgb(20, 12, 6), rgb(26, 18, 8), rgb(14, 8, 4), rgb(6, 4, 2)],    # 3 dirt
    [rgb(20, 12, 6), rgb(14, 28, 6), rgb(8, 20, 4), rgb(4, 10, 2)],   # 4 grass
    [rgb(24, 10, 6), rgb(30, 16, 10), rgb(14, 5, 3), rgb(8, 3, 2)],   # 5 bricks
    [rgb(6, 12, 26), rgb(12, 20, 30), rgb(20, 26, 31), rgb(3, 6, 16)],  # 6 water
    [rgb(2, 2, 6), rgb(31, 31, 31), rgb(31, 28, 8), rgb(12, 4, 20)],  # 7 text
]
OBJ_PALETTES = [
    [0, rgb(31, 24, 0), rgb(24, 12, 0), rgb(8, 4, 0)],
    [0, rgb(31, 10, 14), rgb(20, 4, 8), rgb(6, 0, 2)],
    [0, rgb(20, 31, 20), rgb(8, 20, 8), rgb(2, 6, 2)],
    [0, rgb(28, 28, 31), rgb(16, 16, 24), rgb(4, 4, 10)],
    [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0],
]

# ---- background map (32x32) ----
MAP = [[NAMES["sky"]] * 32 for _ in range(32)]
ATTR = [[0] * 32 for _ in range(32)]


def put(x, y, name, palette):
    MAP[y % 32][x % 32] = NAMES[name]
    ATTR[y % 32][x % 32] = palette


for cloud_x, cloud_y, width in [(2, 1, 3), (11, 3, 4), (20, 0, 2), (26, 4, 3), (7, 6, 2)]:
    put(cloud_x, cloud_y, "cloud_l", 0)
    for i in range(width):
        put(cloud_x + 1 + i, cloud_y, "cloud_m", 0)
    put(cloud_x + 1 + width, cloud_y, "cloud_r", 0)
# Hills: a height per column, rows 6-10.
heights = [2, 3, 4, 4, 3, 2, 1, 1, 2, 3, 4, 3, 2, 2, 3, 4, 4, 4, 3, 2, 1, 2, 3, 3, 2, 1, 1, 2, 3, 4, 3, 2]
for x in range(32):
    top = 11 - heights[x]
    left, right = heights[x - 1], heights[(x + 1) % 32]
    name = "hill_top" if left <= heights[x] >= right else ("hill_up" if right > heights[x] else "hill_down")
    put(x, top, name, 1)
    for y in range(top + 1, 11):
        put(x, y, "hill_fill", 1)
# Trees in front of the hills.
for x in [1, 6, 13, 17, 24, 29]:
    put(x, 8, "leaves_top", 2)
    put(x + 1, 8, "leaves_top", 2)
    put(x, 9, "leaves", 2)
    put(x + 1, 9, "leaves", 2)
    put(x, 10, "trunk", 2)
    put(x + 1, 10, "trunk", 2)
for x in range(32):
    put(x, 11, "grass", 4)
    put(x, 12, "brick" if (x // 4) % 2 else "dirt", 5 if (x // 4) % 2 else 3)
    put(x, 13, "dirt", 3)
    put(x, 14, "water", 6)
    put(x, 15, "water", 6)
    for y in range(16, 32):
        put(x, y, "dirt", 3)
for x in [3, 9, 15, 22, 27]:
    put(x, 10, "flower", 4)

# ---- window: two text rows ----
def text_row(text):
    cells = [FIRST_GLYPH + GLYPHS.index(ch) for ch in text.ljust(32)[:32]]
    return cells


WINDOW = text_row("SCORE 000000  LV 1") + text_row("PHOSPHOR QUEST  X03")
WINDOW_ATTR = [7] * 64
SCORE_COLUMN = 6  # first digit of the score in row 0

# ---- sprites: y, x, dy, dx, tile, attributes (palette) ----
SPRITE_STATE = []
for i in range(10):
    SPRITE_STATE.append([
        random.randint(24, 110), random.randint(16, 150),
        random.choice([1, 2, 255, 254]), random.choice([1, 2, 3, 255, 254, 253]),
        FIRST_SPRITE + i % len(SPRITES), i % 4,
    ])


def db(label, values):
    print(f"{label}:")
    for start in range(0, len(values), 16):
        print("        .db " + ", ".join(f"0x{v & 0xFF:02X}" for v in values[start:start + 16]))


def dw_bytes(words):
    out = []
    for w in words:
        out += [w & 0xFF, w >> 8]
    return out


print("; Generated by scene.py: do not edit.")
print(f"FIRST_DIGIT = {FIRST_GLYPH + GLYPHS.index('0')}")
print(f"SCORE_COLUMN = {SCORE_COLUMN}")
print(f"SPRITE_COUNT = {len(SPRITE_STATE)}")
print(f"SKY_LOW = 0x{SKY & 0xFF:02X}")
print(f"SKY_HIGH = 0x{SKY >> 8:02X}")
MARK = rgb(31, 0, 0)
print(f"MARK_LOW = 0x{MARK & 0xFF:02X}")
print(f"MARK_HIGH = 0x{MARK >> 8:02X}")
db("tiles", [b for t in TILES for b in t])
print("tiles_end:")
db("bg_map", [v for row in MAP for v in row])
db("bg_attributes", [v for row in ATTR for v in row])
db("window_map", WINDOW)
db("window_attributes", WINDOW_ATTR)
db("bg_palettes", dw_bytes([c for p in BG_PALETTES for c in p]))
db("obj_palettes", dw_bytes([c for p in OBJ_PALETTES for c in p]))
db("sprite_start", [v for s in SPRITE_STATE for v in s])
print("sprite_start_end:")
