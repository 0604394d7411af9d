#!/usr/bin/env python3
"""Half blocks in xterm with an Xft font under Xvfb: stray pixels in the picture (RealTerminalTests).

    xterm_outlines.py --binary PHOSPHOR --rom ROM --work DIR [--seconds 6] [--size 120x50]
                      [--multiplexer tmux|screen] [--picture COLUMNSxROWS+X+Y]

Starts Xvfb on a free display and `xterm -fa Monospace` (TERM=xterm, the font Debian users get
with -fa) running `phosphor play --no-audio ROM` (PHOSPHOR_HOME in DIR), inside tmux or GNU
screen with --multiplexer (started from that xterm, so they inherit its XTERM_VERSION). After
--seconds of play the game is stopped (SIGSTOP: what xterm shows then is what it was sent) and
the screen is taken (ImageMagick `import -window root`).

Every half-block cell holds two colours, its top and its bottom pixel; whatever xterm draws in
it (the glyph, its antialiased edges, the background around a glyph a pixel short of the cell)
is one of them or a blend of the two. A pixel of any other colour is stray: left from another
cell's colours. Each cell's two colours are read at the middle of its halves; a pixel farther
than a small tolerance from every blend of them counts. The picture is the screen's cells from
the "layout: screen 0 at cells" log line (or --picture, for a build that does not log it), the
cell size from the "graphics:" line.

Prints `origin=<x>,<y> strays=<pixels> cells=<cells with strays> of=<cells> colours=<distinct colours>` and
exits 0, or prints `skip: <why>` and exits 77 when a tool is missing. The screenshot stays in
DIR as playing.png, the picture with its stray pixels in red as strays.png.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import time

from xvfb import need, start_xvfb, stop, wait_for




def off_blend(pixel, top, bottom):
    """Squared distance from `pixel` to the nearest blend of `top` and `bottom` (RGB triples)."""
    direction = [b - a for a, b in zip(top, bottom)]
    length = sum(d * d for d in direction)
    t = 0.0
    if length:
        t = min(1.0, max(0.0, sum((p - a) * d for p, a, d in zip(pixel, top, direction)) / length))
    return sum((p - (a + t * d)) ** 2 for p, a, d in zip(pixel, top, direction))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--rom", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--size", default="120x50")
    parser.add_argument("--multiplexer", choices=["tmux", "screen"])
    parser.add_argument("--picture")
    args = parser.parse_args()
    for tool in ["Xvfb", "xterm", "import", "convert", "xdotool", "xwininfo"] + ([args.multiplexer] if args.multiplexer else []):
        need(tool)
    if subprocess.run(["fc-match", "Monospace"], capture_output=True).returncode != 0:
        print("skip: fontconfig has no Monospace font")
        sys.exit(77)

    work = args.work
    home = os.path.join(work, "home")
    os.makedirs(home, exist_ok=True)
    log = os.path.join(home, "data", "phosphor.log")
    pid_file = os.path.join(work, "phosphor.pid")

    xvfb, display = start_xvfb("1600x1200")
    terminal = None
    socket = os.path.join(work, "mux.sock")
    try:
        env = dict(os.environ, DISPLAY=display, PHOSPHOR_HOME=home, LANG="C.UTF-8")
        for name in ["TMUX", "STY", "COLORTERM", "XTERM_VERSION", "TERM_PROGRAM"]:
            env.pop(name, None)
        play = os.path.join(work, "play.sh")
        with open(play, "w") as file:
            file.write(f"#!/bin/sh\necho $$ > '{pid_file}'\nexec '{args.binary}' play --no-audio '{args.rom}'\n")
        os.chmod(play, 0o755)
        inner = [play]
        if args.multiplexer == "tmux":
            config = os.path.join(work, "tmux.conf")
            with open(config, "w") as file:
                file.write("set -g status off\nset -g default-terminal tmux-256color\n")
            inner = ["tmux", "-S", socket, "-f", config, "new-session", play]
        elif args.multiplexer == "screen":
            config = os.path.join(work, "screenrc")
            with open(config, "w") as file:
                file.write("hardstatus ignore\nterm screen-256color\nstartup_message off\n")
            inner = ["screen", "-c", config, "-S", f"phosphor-outlines-{os.getpid()}", play]
        columns, rows = args.size.split("x")
        # -b 0: no internal border, so cell (0, 0) starts at the window's corner.
        command = ["xterm", "-fa", "Monospace", "-tn", "xterm", "-b", "0", "-geometry", f"{columns}x{rows}+0+0", "-e"] + inner
        terminal = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def layout():
            if not os.path.exists(log):
                return None
            text = open(log, encoding="utf-8", errors="replace").read()
            placed = re.findall(r"layout: screen 0 at cells (\d+)x(\d+)\+(\d+)\+(\d+)", text)
            if args.picture:
                placed = [re.fullmatch(r"(\d+)x(\d+)\+(\d+)\+(\d+)", args.picture).groups()]
            cell = re.findall(r"graphics: .*cell (\d+)x(\d+) px", text)
            return (placed[-1], cell[-1]) if placed and cell else None

        (cell_columns, cell_rows, x, y), (cell_width, cell_height) = wait_for(layout, 30, "the layout: log line")
        time.sleep(args.seconds)
        pid = int(open(pid_file).read().strip())
        os.kill(pid, signal.SIGSTOP)
        time.sleep(1.5)  # xterm draws what it was sent
        cell_columns, cell_rows, x, y = int(cell_columns), int(cell_rows), int(x), int(y)
        cell_width, cell_height = int(cell_width), int(cell_height)
        shot = os.path.join(work, "playing.png")
        subprocess.run(["import", "-window", "root", shot], check=True, env=env)
        wid = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(terminal.pid)],
                             capture_output=True, text=True, env=env).stdout.split()
        info = subprocess.run(["xwininfo", "-id", wid[0]], capture_output=True, text=True, env=env, check=True).stdout
        # xwininfo's corner is the outside of the window's X border; the cells start inside it.
        border = int(re.search(r"Border width:\s+(\d+)", info).group(1))
        origin_x = int(re.search(r"Absolute upper-left X:\s+(-?\d+)", info).group(1)) + border
        origin_y = int(re.search(r"Absolute upper-left Y:\s+(-?\d+)", info).group(1)) + border
        os.kill(pid, signal.SIGCONT)
        os.kill(pid, signal.SIGTERM)

        left = origin_x + x * cell_width
        top = origin_y + y * cell_height
        width, height = cell_columns * cell_width, cell_rows * cell_height
        pixels = subprocess.run(["convert", shot + f"[{width}x{height}+{left}+{top}]", "-depth", "8", "rgb:-"],
                                check=True, capture_output=True).stdout

        def pixel(px, py):
            index = (py * width + px) * 3
            return tuple(pixels[index:index + 3])

        mask = bytearray(pixels)  # the picture with its stray pixels in pure red, for a look
        strays = 0
        stray_cells = 0
        colours = set()
        tolerance = 24 * 24
        for row in range(cell_rows):
            for column in range(cell_columns):
                x0, y0 = column * cell_width, row * cell_height
                upper = pixel(x0 + cell_width // 2 - 1, y0 + cell_height // 4)
                lower = pixel(x0 + cell_width // 2 - 1, y0 + 3 * cell_height // 4)
                colours.update([upper, lower])
                found = 0
                for py in range(y0, y0 + cell_height):
                    for px in range(x0, x0 + cell_width):
                        if off_blend(pixel(px, py), upper, lower) > tolerance:
                            found += 1
                            mask[(py * width + px) * 3:(py * width + px) * 3 + 3] = b"\xff\x00\x00"
                strays += found
                stray_cells += 1 if found else 0
        subprocess.run(["convert", "-size", f"{width}x{height}", "-depth", "8", "rgb:-", os.path.join(work, "strays.png")],
                       input=bytes(mask), check=True)
        print(f"origin={origin_x},{origin_y} strays={strays} cells={stray_cells} of={cell_columns * cell_rows} colours={len(colours)}")
    finally:
        stop(terminal)
        if args.multiplexer == "tmux":
            subprocess.run(["tmux", "-S", socket, "kill-server"], capture_output=True)
        elif args.multiplexer == "screen":
            subprocess.run(["screen", "-S", f"phosphor-outlines-{os.getpid()}", "-X", "quit"], capture_output=True)
        stop(xvfb)


if __name__ == "__main__":
    main()
