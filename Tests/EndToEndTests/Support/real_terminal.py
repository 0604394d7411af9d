#!/usr/bin/env python3
"""A game in a real terminal under Xvfb, screenshotted (RealTerminalTests).

    real_terminal.py --terminal kitty|xterm-vt340|mlterm|foot --binary PHOSPHOR --rom ROM --work DIR [--browser]
                     [--touch X,Y]

Starts Xvfb on a free display and the terminal on it running `phosphor play --no-audio ROM`
(PHOSPHOR_HOME in DIR), waits for the play screen's "pixels:" log line, takes a screenshot
(ImageMagick `import -window root`), quits the game with Ctrl-C (xdotool, to the focused
window) and screenshots again. The picture region (the placement's cells from the log, times
the cell size from the "graphics:" line, plus the terminal's border) is compared with the
core's own frame (`phosphor run --headless --screenshot`) resized to that region: the best
PSNR over nearest-neighbour and bilinear resizing (terminals scale either way). Prints
`psnr=<dB> left=<per cent of the region not background after quitting> mode=<pixels mode>`
and exits 0, or prints `skip: <why>` and exits 77 when a tool is missing.

With `--touch X,Y` (a DS cartridge) it also clicks the middle of frame pixel X,Y of the touch
screen, where the "touch screen:" log line says that screen is in terminal pixels, and adds
`clicked=<terminal pixel> touch=<the "touch: pointer" log line's pointer and pixel>` to the line.

foot is Wayland only: it runs in cage (a kiosk compositor) on wlroots' headless backend, as
`nobody` when we are root (cage refuses root), screenshots are grim's, and the game is quit
with SIGTERM (cage 0.1.4 has no virtual keyboard for wtype). There the output also has
`bottom=<per cent of the window's last cell row lit>`: the status bar must be on the window's
last row (the game uses the size foot gave it, also when foot resized just after starting it).

With `--browser` the library is opened instead (a window wide enough for its preview pane), every
system given the same box art (drawn here with ImageMagick); the preview's region (its
"preview pixels:" log line) is compared with that picture, and Ctrl-Q quits.
"""

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import time

from xvfb import need, start_xvfb, stop, wait_for




def raw_rgb(png, width=None, height=None, filter_name=None):
    arguments = ["convert", png]
    if width:
        arguments += ["-filter", filter_name, "-resize", f"{width}x{height}!"]
    arguments += ["-depth", "8", "rgb:-"]
    return subprocess.run(arguments, check=True, capture_output=True).stdout


def click_touch_screen(target, log, terminal, border, env):
    """Clicks frame pixel `target` ("X,Y") of the touch screen; returns " clicked=… touch=…"."""
    frame_x, frame_y = (int(value) for value in target.split(","))

    def area():
        found = re.findall(r"touch screen: terminal pixels \((-?\d+),(-?\d+) (\d+)x(\d+)\) showing (\d+)x(\d+)",
                           open(log, encoding="utf-8", errors="replace").read())
        return found[-1] if found else None

    left, top, width, height, picture_width, picture_height = (int(v) for v in wait_for(area, 30, "the touch screen: log line"))
    # The middle of the frame pixel's span of terminal pixels.
    x = left + (2 * frame_x + 1) * width // (2 * picture_width)
    y = top + (2 * frame_y + 1) * height // (2 * picture_height)
    wid = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(terminal.pid)],
                         capture_output=True, text=True, env=env).stdout.split()
    subprocess.run(["xdotool", "mousemove", "--window", wid[0], str(x + border), str(y + border),
                    "click", "1"], env=env, check=True)

    def touch():
        found = re.findall(r"touch: pointer (-?\d+),(-?\d+) from pixel (\d+),(\d+)",
                           open(log, encoding="utf-8", errors="replace").read())
        return found[-1] if found else None

    pointer_x, pointer_y, pixel_x, pixel_y = wait_for(touch, 20, "the touch: log line")
    return f" clicked={x},{y} touch={pointer_x},{pointer_y},{pixel_x},{pixel_y}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--terminal", required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--rom", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--browser", action="store_true")
    parser.add_argument("--touch")
    args = parser.parse_args()
    foot = args.terminal == "foot"
    for tool in ["convert"] + (["foot", "cage", "Xwayland", "grim"] if foot else ["Xvfb", "import", "xdotool"]):
        need(tool)
    if not foot:
        need({"kitty": "kitty", "mlterm": "mlterm"}.get(args.terminal, "xterm"))

    work = args.work
    home = os.path.join(work, "home")
    os.makedirs(home, exist_ok=True)
    log = os.path.join(home, "data", "phosphor.log")
    exit_file = os.path.join(work, "exit-status")

    reference = os.path.join(work, "reference.png")
    if args.browser:
        subprocess.run(["convert", "-size", "64x48", "xc:navy", "-fill", "yellow", "-draw", "rectangle 8,8 30,40",
                        "-fill", "red", "-draw", "circle 48,24 56,24", "PNG24:" + reference], check=True)
        for playlist in ["Nintendo - Nintendo Entertainment System", "Nintendo - Super Nintendo Entertainment System",
                         "Nintendo - Game Boy Color", "Nintendo - Game Boy Advance", "Nintendo - Nintendo DS",
                         "NEC - PC Engine - TurboGrafx 16"]:
            folder = os.path.join(home, "data", "thumbnails", playlist, "Named_Boxarts")
            os.makedirs(folder, exist_ok=True)
            shutil.copy(reference, os.path.join(folder, "phosphor-test.png"))
    else:
        subprocess.run([args.binary, "run", "--headless", "--frames", "120", "--screenshot", reference, args.rom],
                       check=True, capture_output=True, env=dict(os.environ, PHOSPHOR_HOME=os.path.join(work, "headless")))

    xvfb, display = (None, None) if foot else start_xvfb("1024x768")
    terminal = None
    try:
        if foot:
            env = dict(os.environ, PHOSPHOR_HOME=home, LANG="C.UTF-8", HOME=work, XDG_RUNTIME_DIR=os.path.join(work, "runtime"),
                       WLR_BACKENDS="headless", WLR_RENDERER="pixman", WLR_LIBINPUT_NO_DEVICES="1")
            os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
        else:
            env = dict(os.environ, DISPLAY=display, PHOSPHOR_HOME=home, LIBGL_ALWAYS_SOFTWARE="1", LANG="C.UTF-8")
        env.pop("TMUX", None)
        env.pop("STY", None)
        script = os.path.join(work, "play.sh")
        pid_file = os.path.join(work, "phosphor.pid")
        size_file = os.path.join(work, "tty-size")
        with open(script, "w") as file:
            # The window stays open after the game, so the second screenshot sees what quitting left.
            run = f"'{args.binary}'" if args.browser else f"'{args.binary}' play --no-audio '{args.rom}'"
            # foot starts its child at 80x24 and resizes the window a moment later. A sixel drawn
            # while it resizes on a loaded machine was seen moved up by its reflow (PSNR 14 in
            # about 1 of 3 runs under load; a known foot start-up race, in the closing note), so
            # the game starts once the size has moved off 80x24 (at most 5 s). The app's own
            # handling of a resize during its start-up wait has an in-process test
            # (TerminalQuirksInProcessTests.testAResizeDuringTheStartUpWaitIsFollowed).
            settle = "for i in $(seq 50); do [ \"$(stty size)\" != '24 80' ] && break; sleep 0.1; done\n" if foot else ""
            file.write(f"#!/bin/sh\n{settle}sh -c 'echo $$ > \"$1\"; shift; exec \"$@\"' - '{pid_file}' {run}\n"
                       f"echo $? > '{exit_file}'\nstty size > '{size_file}'\nsleep 60\n")
        os.chmod(script, 0o755)
        # cage will not run as root: then the terminal, the game and its files are nobody's.
        as_user = []
        if foot and os.geteuid() == 0:
            as_user = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
            for folder, _, names in os.walk(work):
                for name in [folder] + [os.path.join(folder, name) for name in names]:
                    os.chown(name, 65534, 65534)

        def screenshot(path):
            if foot:
                sockets = [name for name in os.listdir(env["XDG_RUNTIME_DIR"]) if name.startswith("wayland-") and not name.endswith(".lock")]
                subprocess.run(as_user + ["grim", path], check=True, env=dict(env, WAYLAND_DISPLAY=sockets[0]), cwd=work)
            else:
                subprocess.run(["import", "-window", "root", path], check=True, env=env)

        if foot:
            command = as_user + ["cage", "--", "foot", script]
            border = 2  # foot's default padding
        elif args.terminal == "kitty":
            command = ["kitty", "--config", "NONE", "-o", "font_size=11", script]
            if args.browser or args.touch:
                command[3:3] = ["-o", "initial_window_width=1000", "-o", "initial_window_height=700", "-o", "remember_window_size=no"]
            border = 0
        elif args.terminal == "mlterm":
            # Sixel out of the box; no scroll bar, so the text area starts at the window's corner. Its
            # cells are 9x22 px: 110x33 of them fit the 1024x768 screen with the preview pane.
            command = ["mlterm", "--sb=false", "-geometry", "110x33+0+0" if args.browser else "100x32+0+0", "-e", script]
            border = 0
        else:
            command = ["xterm", "-ti", "vt340", "-xrm", "XTerm*numColorRegisters: 256",
                       "-geometry", "120x40+0+0" if args.browser else "100x32+0+0",
                       "-e", script]
            border = 2  # xterm's internal border
        terminal = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)

        def placement():
            if not os.path.exists(log):
                return None
            text = open(log, encoding="utf-8", errors="replace").read()
            pattern = r"preview pixels: (.*) at cells (\d+)x(\d+)\+(\d+)\+(\d+)" if args.browser \
                else r"pixels: (.*) screen 0 at cells (\d+)x(\d+)\+(\d+)\+(\d+)"
            placed = re.findall(pattern, text)
            cell = re.findall(r"graphics: .*cell (\d+)x(\d+) px", text)
            return (placed[-1], cell[-1]) if placed and cell else None

        (mode, columns, rows, x, y), (cell_width, cell_height) = wait_for(placement, 30, "the pixels: log line")
        time.sleep(2)  # a few frames, and the terminal's repaint
        touched = click_touch_screen(args.touch, log, terminal, border, env) if args.touch else ""
        # The placement as it is now, once it has stayed the same for 1.5 s: a terminal that
        # resized the window just after starting the game (foot does; later on a loaded machine)
        # has the picture laid out again, and drawn a moment later, since the first "pixels:" line.
        settled = placement()
        for _ in range(8):
            time.sleep(1.5)
            now = placement()
            if now == settled:
                break
            settled = now
        (mode, columns, rows, x, y), (cell_width, cell_height) = settled
        columns, rows, x, y = int(columns), int(rows), int(x), int(y)
        cell_width, cell_height = int(cell_width), int(cell_height)
        shot = os.path.join(work, "playing.png")
        screenshot(shot)

        left = border + x * cell_width
        top = border + y * cell_height
        region = (left, top, columns * cell_width, rows * cell_height)
        if mode.startswith("sixel"):
            # Sixel draws the picture at its own size from the corner of its cells.
            size = re.findall(r"as (\d+)x(\d+) px", open(log).read())[-1]
            region = (left, top, int(size[0]), int(size[1]))

        def crop(png, dx=0, dy=0):
            return raw_rgb(png + f"[{region[2]}x{region[3]}+{region[0] + dx}+{region[1] + dy}]")

        # The window's own X border is not in the log: the best of a few pixels' offset.
        best = 0.0
        expected = {name: raw_rgb(reference, region[2], region[3], name) for name in ["Point", "Triangle"]}
        for dx in range(0, 4):
            for dy in range(0, 4):
                seen = crop(shot, dx, dy)
                for reference_pixels in expected.values():
                    error = sum((a - b) ** 2 for a, b in zip(seen, reference_pixels)) / max(len(reference_pixels), 1)
                    best = max(best, 99.0 if error == 0 else 10 * math.log10(255 * 255 / error))

        if foot:
            os.kill(int(open(pid_file).read()), 15)  # the game we started, by its id
        else:
            wid = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(terminal.pid)],
                                 capture_output=True, text=True, env=env).stdout.split()
            if wid:
                subprocess.run(["xdotool", "windowfocus", "--sync", wid[0]], env=env, capture_output=True)
            key = "q" if args.browser else "c"
            subprocess.run(["xdotool", "keydown", "ctrl", "keydown", key, "keyup", key, "keyup", "ctrl"], env=env, check=True)
        wait_for(lambda: os.path.exists(exit_file), 15, "the game to quit")
        time.sleep(1)
        after = os.path.join(work, "after.png")
        screenshot(after)
        pixels = crop(after)
        triples = [pixels[i:i + 3] for i in range(0, len(pixels), 3)]
        background = max(set(triples[::97]), key=triples[::97].count)
        lit = sum(1 for triple in triples if triple != background)
        bottom = ""
        if foot:
            # The window's last cell row while playing: the status bar, if the game has the window's size.
            rows, columns = (int(value) for value in open(size_file).read().split())
            row = raw_rgb(shot + f"[{columns * cell_width}x{cell_height}+{border}+{border + (rows - 1) * cell_height}]")
            cells = [row[i:i + 3] for i in range(0, len(row), 3)]
            window_background = raw_rgb(shot + "[1x1+0+0]")  # foot's padding, in its background colour
            bottom = f" bottom={100.0 * sum(1 for cell in cells if cell != window_background) / max(len(cells), 1):.1f}"
        print(f"psnr={best:.2f} left={100.0 * lit / max(len(triples), 1):.3f}{touched}{bottom} mode={mode}")
    finally:
        stop(terminal)
        stop(xvfb)


if __name__ == "__main__":
    main()
