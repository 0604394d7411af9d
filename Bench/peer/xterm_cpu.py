#!/usr/bin/env python3
"""What playing costs the whole machine in a real xterm: the program, xterm and the X server.

    xterm_cpu.py --bin BIN [--gambaterm GAMBATERM] [--baseline OTHER_BIN] --rom ROM --core CORE
                 [--frames 600] [--rounds 3] [--size 120x50]

compare.py counts only the program's CPU in a pseudo-terminal. A player's terminal parses and
draws every byte too, and xterm asks its X server for each drawing; some sequences cost those
two far more than their bytes say (xterm waits for the X server after every DCH and ICH). This
runs each program for the same frames in an xterm (`-fa Monospace -fs 8`, TERM xterm-256color,
COLORTERM truecolor) on an Xvfb of its own, the programs in turn, and prints per program the
medians of: the program's CPU (user+sys, from /usr/bin/time inside the xterm), xterm's own
(xterm's total less the program's), the X server's (its /proc stat across the run), the three
together, and xterm's voluntary context switches (each a wait: for input, or for the X server).
No keys are pressed: the game-like cartridge scrolls by itself. Without Xvfb or xterm it says
so in one line and measures nothing.
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


def xterm_waits():
    """Voluntary context switches of every running xterm, by pid."""
    waits = {}
    for status in glob.glob("/proc/[0-9]*/status"):
        try:
            text = open(status).read()
        except OSError:
            continue
        if re.search(r"^Name:\s+xterm$", text, re.M):
            waits[status] = int(re.search(r"^voluntary_ctxt_switches:\s+(\d+)", text, re.M).group(1))
    return waits


def run_once(command, size, display, xvfb_pid):
    """One run in a fresh xterm: (program s, xterm s, X server s, xterm's waits)."""
    work = tempfile.mkdtemp(prefix="xterm-cpu.")
    inner, outer = os.path.join(work, "inner"), os.path.join(work, "outer")
    # Only standard error is redirected: the program draws on the xterm.
    script = f"/usr/bin/time -f '%U %S' -o {inner} {command} 2>{work}/stderr"
    environment = dict(os.environ, DISPLAY=display, COLORTERM="truecolor", PHOSPHOR_HOME=work)
    columns, rows = size.split("x")
    server_before = process_cpu(xvfb_pid)
    xterm = subprocess.Popen(["/usr/bin/time", "-f", "%U %S", "-o", outer, "xterm", "-tn", "xterm-256color",
                              "-geometry", f"{columns}x{rows}", "-fa", "Monospace", "-fs", "8",
                              "-e", "sh", "-c", script], env=environment)
    waits = {}
    while xterm.poll() is None:
        waits.update(xterm_waits())
        time.sleep(0.2)
    server = process_cpu(xvfb_pid) - server_before
    try:
        program = sum(map(float, open(inner).read().split()[-2:]))
        together = sum(map(float, open(outer).read().split()[-2:]))
    except (OSError, ValueError):
        sys.stderr.write(open(f"{work}/stderr").read()[-500:] if os.path.exists(f"{work}/stderr") else "")
        raise SystemExit(f"xterm_cpu.py: no timing from: {command}")
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
    options = parser.parse_args()
    for tool in ("Xvfb", "xterm"):
        if shutil.which(tool) is None:
            print(f"Not measured: {tool} is not installed.")
            return

    frames = options.frames
    programs = [("Phosphor", f"{options.bin} play --frames {frames} --no-audio --core {options.core} {options.rom}")]
    if options.baseline:
        programs.append(("Phosphor (baseline)",
                         f"{options.baseline} play --frames {frames} --no-audio --core {options.core} {options.rom}"))
    scratch = tempfile.mkdtemp(prefix="xterm-cpu-keys.")
    if options.gambaterm:
        # No keys: gambaterm reads them from this file (or the kitty protocol, which xterm lacks).
        keys = os.path.join(scratch, "gambaterm-input.txt")
        with open(keys, "w") as file:
            file.write("|........|\n" * (frames + 1))
        programs.append(("gambaterm", f"{options.gambaterm} --disable-audio --color-mode 4 --break-after {frames} "
                                      f"--input-file {keys} --skip-inputs 0 --save-directory {scratch} {options.rom}"))

    xvfb, display = start_xvfb("1600x1200")
    results = {name: [] for name, _ in programs}
    try:
        for round_number in range(options.rounds):
            order = programs if round_number % 2 == 0 else programs[::-1]
            for name, command in order:
                results[name].append(run_once(command, options.size, display, xvfb.pid))
                print(f"  round {round_number + 1}: {name}: program {results[name][-1][0]:.2f} s, "
                      f"xterm {results[name][-1][1]:.2f} s, X server {results[name][-1][2]:.2f} s", file=sys.stderr)
    finally:
        stop(xvfb)
        shutil.rmtree(scratch, ignore_errors=True)

    print(f"{options.size} xterm (`-fa Monospace -fs 8`) on Xvfb, {frames} frames at 1x, no keys, "
          f"median of {options.rounds} alternating rounds.")
    print("")
    print("| program | program CPU s | xterm CPU s | X server CPU s | together s | xterm's waits |")
    print("|---|--:|--:|--:|--:|--:|")
    for name, runs in results.items():
        median = lambda index: statistics.median(run[index] for run in runs)
        together = statistics.median(run[0] + run[1] + run[2] for run in runs)
        print(f"| {name} | {median(0):.2f} | {median(1):.2f} | {median(2):.2f} | {together:.2f} | {int(median(3))} |")


if __name__ == "__main__":
    main()
