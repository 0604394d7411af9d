#!/usr/bin/env python3
"""What playing costs the whole machine in a real terminal: the program, the terminal and the X server.

    terminal_cpu.py --bin BIN [--gambaterm GAMBATERM] [--baseline OTHER_BIN] --rom ROM --core CORE
                    [--terminal xterm] [--frames 600] [--rounds 3] [--size 120x50]

compare.py counts only the program's CPU in a pseudo-terminal. A player's terminal parses and
draws every byte too, and asks its X server for each drawing; some sequences cost those two far
more than their bytes say (xterm waits for the X server after every DCH and ICH). This runs each
program for the same frames in a real terminal (one of TERMINALS, an 8-point Monospace font) on
an Xvfb of its own, the programs in turn, and prints per program the medians of: the program's
CPU (user+sys, from /usr/bin/time inside the terminal), the terminal's own (its total less the
program's), the X server's (its /proc stat across the run), the three together, and the
terminal's voluntary context switches (each a wait: for input, or for the X server). Each
terminal sets TERM, COLORTERM and its own version variable as it does for a player (xterm is
told TERM xterm-256color and COLORTERM truecolor, as a player's setup would); gambaterm draws in
24-bit colour where COLORTERM says truecolor, else in 256 colours. No keys are pressed: the
game-like cartridge scrolls by itself. Without Xvfb or the terminal it says so in one line and
measures nothing.
"""

import argparse
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# The real-terminal tests' Xvfb helpers: a free display, started once it listens, stopped.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "EndToEndTests", "Support"))
from xvfb import start_xvfb, stop  # noqa: E402


def process_cpu(pid):
    """User+sys seconds of a live process, from /proc."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# How each terminal is started at a size with a shell command, the name of its program (and of
# its process, for its waits) and what it is told beyond what it sets itself.
TERMINALS = {
    "xterm": (lambda columns, rows, script: ["xterm", "-tn", "xterm-256color", "-geometry", f"{columns}x{rows}",
                                             "-fa", "Monospace", "-fs", "8", "-e", "sh", "-c", script],
              "xterm", {"COLORTERM": "truecolor"}),
    # VTE, as in GNOME Terminal; --disable-server keeps it in the foreground, a process of its own.
    "xfce4-terminal": (lambda columns, rows, script: ["xfce4-terminal", "--disable-server", "--geometry",
                                                      f"{columns}x{rows}", "--font", "Monospace 8",
                                                      "-x", "sh", "-c", script],
                       "xfce4-terminal", {}),
    "konsole": (lambda columns, rows, script: ["konsole", "--nofork", "-p", f"TerminalColumns={columns}",
                                               "-p", f"TerminalRows={rows}", "-p", "Font=Monospace,8",
                                               "-e", "sh", "-c", script],
                "konsole", {}),
    # OpenGL, through Mesa's software rasteriser on Xvfb: its drawing is in its own process.
    "alacritty": (lambda columns, rows, script: ["alacritty", "-o", f"window.dimensions.columns={columns}",
                                                 "-o", f"window.dimensions.lines={rows}", "-o", "font.size=8",
                                                 "-e", "sh", "-c", script],
                  "alacritty", {}),
    "st": (lambda columns, rows, script: ["st", "-g", f"{columns}x{rows}", "-f", "Monospace:size=8",
                                          "-e", "sh", "-c", script],
           "st", {}),
    "urxvt": (lambda columns, rows, script: ["urxvt", "-geometry", f"{columns}x{rows}",
                                             "-fn", "xft:Monospace:size=8", "-e", "sh", "-c", script],
              "urxvt", {}),
}


def terminal_waits(process_name):
    """Voluntary context switches of every running process of that name, by pid."""
    waits = {}
    for status in glob.glob("/proc/[0-9]*/status"):
        try:
            text = open(status).read()
        except OSError:
            continue
        if re.search(rf"^Name:\s+{re.escape(process_name)}$", text, re.M):
            waits[status] = int(re.search(r"^voluntary_ctxt_switches:\s+(\d+)", text, re.M).group(1))
    return waits


def run_once(terminal, command, size, display, xvfb_pid, screenshot=None):
    """One run in a fresh terminal: (program s, terminal s, X server s, the terminal's waits).
    With `screenshot`, a PNG of the screen 6 s in (it costs the X server: look, do not count)."""
    work = tempfile.mkdtemp(prefix="terminal-cpu.")
    inner, outer = os.path.join(work, "inner"), os.path.join(work, "outer")
    # Only standard error is redirected: the program draws on the terminal.
    script = f"/usr/bin/time -f '%U %S' -o {inner} {command} 2>{work}/stderr"
    arguments, process_name, told = TERMINALS[terminal]
    environment = {name: value for name, value in os.environ.items()
                   if name not in ("COLORTERM", "XTERM_VERSION", "VTE_VERSION", "KONSOLE_VERSION", "TMUX", "STY")}
    environment.update(told, DISPLAY=display, PHOSPHOR_HOME=work, HOME=work)
    columns, rows = size.split("x")
    server_before = process_cpu(xvfb_pid)
    window = subprocess.Popen(["/usr/bin/time", "-f", "%U %S", "-o", outer] + arguments(columns, rows, script),
                              env=environment, stderr=subprocess.DEVNULL)
    waits = {}
    started = time.time()
    while window.poll() is None:
        waits.update(terminal_waits(process_name))
        if screenshot and time.time() - started > 6:
            subprocess.run(["import", "-display", display, "-window", "root", screenshot], check=False)
            screenshot = None
        time.sleep(0.2)
    server = process_cpu(xvfb_pid) - server_before
    try:
        program = sum(map(float, open(inner).read().split()[-2:]))
        together = sum(map(float, open(outer).read().split()[-2:]))
    except (OSError, ValueError):
        sys.stderr.write(open(f"{work}/stderr").read()[-500:] if os.path.exists(f"{work}/stderr") else "")
        raise SystemExit(f"terminal_cpu.py: no timing from {terminal} running: {command}")
    shutil.rmtree(work, ignore_errors=True)
    return program, together - program, server, max(waits.values(), default=0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--baseline", help="another Phosphor binary, measured beside --bin")
    parser.add_argument("--gambaterm")
    parser.add_argument("--rom", required=True)
    parser.add_argument("--core", required=True)
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--size", default="120x50")
    parser.add_argument("--terminal", default="xterm", choices=sorted(TERMINALS))
    parser.add_argument("--screenshots", help="a folder: one PNG of each program in the first round (not for timing)")
    options = parser.parse_args()
    terminal = options.terminal
    for tool in ("Xvfb", TERMINALS[terminal][1]):
        if shutil.which(tool) is None:
            print(f"Not measured: {tool} is not installed.")
            return

    frames = options.frames
    programs = [("Phosphor", f"{options.bin} play --frames {frames} --no-audio --core {options.core} {options.rom}")]
    if options.baseline:
        programs.append(("Phosphor (baseline)",
                         f"{options.baseline} play --frames {frames} --no-audio --core {options.core} {options.rom}"))
    scratch = tempfile.mkdtemp(prefix="terminal-cpu-keys.")
    if options.gambaterm:
        # No keys: gambaterm reads them from this file (or the kitty protocol, which most terminals lack).
        keys = os.path.join(scratch, "gambaterm-input.txt")
        with open(keys, "w") as file:
            file.write("|........|\n" * (frames + 1))
        programs.append(("gambaterm", f"{options.gambaterm} --disable-audio "
                                      f"--color-mode $([ \"$COLORTERM\" = truecolor ] && echo 4 || echo 3) --break-after {frames} "
                                      f"--input-file {keys} --skip-inputs 0 --save-directory {scratch} {options.rom}"))

    xvfb, display = start_xvfb("1600x1200")
    results = {name: [] for name, _ in programs}
    try:
        for round_number in range(options.rounds):
            order = programs if round_number % 2 == 0 else programs[::-1]
            for name, command in order:
                screenshot = None
                if options.screenshots and round_number == 0:
                    os.makedirs(options.screenshots, exist_ok=True)
                    screenshot = os.path.join(options.screenshots, f"{terminal}-{options.size}-{name.split()[0]}.png")
                results[name].append(run_once(terminal, command, options.size, display, xvfb.pid, screenshot))
                print(f"  round {round_number + 1}: {name}: program {results[name][-1][0]:.2f} s, "
                      f"{terminal} {results[name][-1][1]:.2f} s, X server {results[name][-1][2]:.2f} s", file=sys.stderr)
    finally:
        stop(xvfb)
        shutil.rmtree(scratch, ignore_errors=True)

    print(f"{options.size} {terminal} (Monospace 8) on Xvfb, {frames} frames at 1x, no keys, "
          f"median of {options.rounds} alternating rounds.")
    print("")
    print(f"| program | program CPU s | {terminal} CPU s | X server CPU s | together s | {terminal}'s waits |")
    print("|---|--:|--:|--:|--:|--:|")
    for name, runs in results.items():
        median = lambda index: statistics.median(run[index] for run in runs)
        together = statistics.median(run[0] + run[1] + run[2] for run in runs)
        print(f"| {name} | {median(0):.2f} | {median(1):.2f} | {median(2):.2f} | {together:.2f} | {int(median(3))} |")


if __name__ == "__main__":
    main()
