#!/usr/bin/env python3
"""Distinct colours: on a terminal screen replayed from a program's output, and in a PNG frame.

    screen_colours.py --screen OUTPUT --cols C --rows R      colours the last screen shows
    screen_colours.py --png FRAME.png                          colours in the frame

A small terminal model, enough for frame writers: cursor moves (CUP, CUF, CR, LF, BS), SGR
colours (24-bit, 256, 16, defaults, reset), palette entries redefined by `OSC 4 ; n ; rgb:…`
(a cell drawn with entry n shows the colour n had then: Phosphor never redefines an entry a
cell shows), REP, erase in display/line; other sequences (modes, queries, other OSC/DCS
strings) are skipped. A cell shows its background, and its foreground unless
it is a space; `▀`/`▄` show both, `█` only the foreground. Used by compare.py.
"""

import argparse
import struct
import sys
import zlib

ESC = 0x1B


def replay(data, cols, rows):
    """Returns the screens: each grid (rows x cols of (character, foreground, background)) as
    it was before a clear, and the final one. Programs clear the screen on their way out."""
    screens = []
    blank = (" ", None, None)
    grid = [[blank] * cols for _ in range(rows)]
    row = column = 0
    fg = bg = None
    last = None
    palette = {}
    text = data.decode("utf-8", errors="replace")
    i, n = 0, len(text)

    def put(ch):
        nonlocal row, column, last
        if column >= cols:
            column = 0
            row = min(rows - 1, row + 1)
        grid[row][column] = (ch, fg, bg)
        last = ch
        column += 1

    while i < n:
        ch = text[i]
        if ch == "\x1b":
            if i + 1 < n and text[i + 1] == "[":
                j = i + 2
                while j < n and not ("@" <= text[j] <= "~"):
                    j += 1
                if j >= n:
                    break
                params, final = text[i + 2:j], text[j]
                i = j + 1
                private = params[:1] in ("?", ">", "<", "=")
                numbers = [int(p) if p.isdigit() else None for p in params.split(";")] if not private else []
                first = numbers[0] if numbers and numbers[0] is not None else None
                if private:
                    continue
                if final in "Hf":
                    r = (numbers[0] if numbers and numbers[0] else 1)
                    c = (numbers[1] if len(numbers) > 1 and numbers[1] else 1)
                    row, column = max(0, min(rows - 1, r - 1)), max(0, min(cols - 1, c - 1))
                elif final == "C":
                    column = min(cols - 1, column + (first or 1))
                elif final == "b" and last is not None:
                    for _ in range(first or 1):
                        put(last)
                elif final == "J" and (first or 0) == 2:
                    screens.append(grid)
                    grid = [[(" ", None, bg)] * cols for _ in range(rows)]
                elif final == "m":
                    values = [v if v is not None else 0 for v in numbers] or [0]
                    k = 0
                    while k < len(values):
                        v = values[k]
                        if v == 0:
                            fg = bg = None
                        elif v in (38, 48) and k + 1 < len(values):
                            if values[k + 1] == 2 and k + 4 < len(values):
                                colour = ("rgb", values[k + 2], values[k + 3], values[k + 4])
                                k += 4
                            elif values[k + 1] == 5 and k + 2 < len(values):
                                index = values[k + 2]
                                colour = ("rgb",) + palette[index] if index in palette else ("index", index)
                                k += 2
                            else:
                                colour = None
                            if v == 38:
                                fg = colour
                            else:
                                bg = colour
                        elif 30 <= v <= 37 or 90 <= v <= 97:
                            fg = ("index", v - 30 if v < 90 else v - 82)
                        elif 40 <= v <= 47 or 100 <= v <= 107:
                            bg = ("index", v - 40 if v < 100 else v - 92)
                        elif v == 39:
                            fg = None
                        elif v == 49:
                            bg = None
                        k += 1
                continue
            if i + 1 < n and text[i + 1] in "]P_^":
                # OSC / DCS / APC / PM: up to BEL or ST.
                j = i + 2
                while j < n and text[j] != "\x07" and not (text[j] == "\x1b" and j + 1 < n and text[j + 1] == "\\"):
                    j += 1
                parts = text[i + 2:j].split(";")
                if text[i + 1] == "]" and len(parts) == 3 and parts[0] == "4" and parts[1].isdigit() and parts[2].startswith("rgb:"):
                    try:
                        channels = [int(c, 16) >> (4 * len(c) - 8) for c in parts[2][4:].split("/")]
                        if len(channels) == 3:
                            palette[int(parts[1])] = tuple(channels)
                    except ValueError:
                        pass
                i = j + (1 if j < n and text[j] == "\x07" else 2)
                continue
            i += 2
            continue
        i += 1
        if ch == "\r":
            column = 0
        elif ch == "\n":
            row = min(rows - 1, row + 1)
        elif ch == "\b":
            column = max(0, column - 1)
        elif ch >= " ":
            put(ch)
    return screens + [grid]


def cube(index):
    levels = [0, 95, 135, 175, 215, 255]
    if 16 <= index < 232:
        n = index - 16
        return (levels[n // 36], levels[(n // 6) % 6], levels[n % 6])
    if index >= 232:
        level = 8 + 10 * (index - 232)
        return (level, level, level)
    return ("ansi", index)


def resolve(colour):
    if colour is None:
        return "default"
    if colour[0] == "rgb":
        return tuple(colour[1:])
    return cube(colour[1])


def grid_colours(grid):
    colours = set()
    for line in grid:
        for ch, fg, bg in line:
            if ch == "█":
                colours.add(resolve(fg))
            elif ch == " ":
                colours.add(resolve(bg))
            else:
                colours.add(resolve(fg))
                colours.add(resolve(bg))
    colours.discard("default")
    return len(colours)


def screen_colours(data, cols, rows):
    """Colours of the last screen that showed anything."""
    counts = [grid_colours(grid) for grid in replay(data, cols, rows)]
    shown = [count for count in counts if count > 0]
    return shown[-1] if shown else 0


def png_colours(path):
    """Distinct colours of an 8-bit RGB or RGBA, non-interlaced PNG."""
    with open(path, "rb") as file:
        data = file.read()
    position, idat = 8, b""
    width = height = colour_type = 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour_type not in (2, 6):
                sys.exit(f"screen_colours.py: {path}: only 8-bit RGB/RGBA PNGs")
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    raw = zlib.decompress(idat)
    channels = 3 if colour_type == 2 else 4
    stride = width * channels
    previous = bytearray(stride)
    colours = set()
    offset = 0
    for _ in range(height):
        kind = raw[offset]
        line = bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[x] = (line[x] + predictor) & 0xFF
        for x in range(0, stride, channels):
            colours.add(bytes(line[x:x + 3]))
        previous = line
    return len(colours)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screen")
    parser.add_argument("--cols", type=int, default=170)
    parser.add_argument("--rows", type=int, default=80)
    parser.add_argument("--png")
    options = parser.parse_args()
    if options.screen:
        with open(options.screen, "rb") as file:
            print(screen_colours(file.read(), options.cols, options.rows))
    if options.png:
        print(png_colours(options.png))


if __name__ == "__main__":
    main()
