#!/usr/bin/env python3
"""Headless speed and peak memory of Phosphor against the bare core (Bench/barecore.c).

    compare.py --bin BIN --barecore BARECORE [--seconds 1.5] [--runs 3] [--cores DIR]
               [--only nes,gb,...]

For every test cartridge in Roms/ and the Debian core that runs it:

1. calibrate: one short barecore run gives a rough frames-per-second, from which the
   frame count N is chosen so that one run takes about --seconds;
2. --runs rounds, each running barecore and `BIN run --headless` alternately, with N
   frames and with 1 frame (the 1-frame runs measure start-up: process, dlopen, load);
3. speed = (N - 1) / (best wall time at N - best wall time at 1), the same formula for
   both programs, so Phosphor's own start-up does not count against its emulation loop;
   each program's self-reported fps (last output line) is printed too;
4. both programs hash the final frame with the same 64-bit FNV-1a: the hashes must agree;
5. peak RSS (ru_maxrss from wait4, what `/usr/bin/time -f %M` prints) of the N-frame runs.

Every Phosphor run gets a fresh PHOSPHOR_HOME (so a battery save from one run never
changes the next run's picture), and is pointed at the same core file with --core.
Prints two Markdown tables on stdout: speed, then memory. Progress goes to stderr.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# (label, core file name, cartridge): the cores of Roms/README.md.
CARTRIDGES = [
    ("nes", "nestopia_libretro.so", "Roms/nes/phosphor-test.nes"),
    ("gb", "gambatte_libretro.so", "Roms/gb/phosphor-test.gbc"),
    ("snes", "bsnes_mercury_performance_libretro.so", "Roms/snes/phosphor-test.sfc"),
    ("gba", "mgba_libretro.so", "Roms/gba/phosphor-test.gba"),
    ("pce", "mednafen_pce_fast_libretro.so", "Roms/pce/phosphor-test.pce"),
    ("ds", "desmume_libretro.so", "Roms/ds/phosphor-test.nds"),
]

# barecore answers every core option it is not told about with "false", which is not the
# default for these: Phosphor uses each core's declared default, so barecore is told the
# same values (else nestopia and pce_fast draw a different frame size and palette).
BARE_VARIABLES = {
    "nestopia_libretro.so": ["nestopia_overscan_v=enabled", "nestopia_overscan_h=disabled",
                             "nestopia_palette=cxa2025as"],
    "mednafen_pce_fast_libretro.so": ["pce_initial_scanline=3", "pce_last_scanline=241"],
}

SUMMARY = re.compile(r"frames=(\d+) fps=([0-9.]+).*hash=([0-9a-f]{16})")


class Measurement:
    def __init__(self, wall, fps, hash_, max_rss_kib, cpu):
        self.wall, self.fps, self.hash, self.max_rss_kib, self.cpu = wall, fps, hash_, max_rss_kib, cpu


def measure(command, environment=None):
    """Runs one command to the end; returns its wall time, self-reported fps, frame hash, peak RSS."""
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    output = process.stdout.read().decode(errors="replace")
    errors = process.stderr.read().decode(errors="replace")
    process.stdout.close()
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    matches = SUMMARY.findall(output)
    if process.returncode != 0 or not matches:
        last = (errors.strip().splitlines() or output.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"{os.path.basename(command[0])} exited {process.returncode}: {last}")
    _, fps, hash_ = matches[-1]
    return Measurement(wall, float(fps), hash_, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)


def phosphor_command(binary, core, rom, frames):
    return [binary, "run", "--headless", "--frames", str(frames), "--core", core, rom]


def run_phosphor(binary, core, rom, frames):
    home = tempfile.mkdtemp(prefix="phosphor-bench-home.")
    try:
        environment = dict(os.environ, PHOSPHOR_HOME=home)
        return measure(phosphor_command(binary, core, rom, frames), environment)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def bare_command(barecore, core, rom, frames):
    options = []
    for assignment in BARE_VARIABLES.get(os.path.basename(core), []):
        options += ["--var", assignment]
    return [barecore] + options + [core, rom, str(frames)]


def run_bare(barecore, core, rom, frames):
    return measure(bare_command(barecore, core, rom, frames))


def compare(options, label, core, rom):
    """Returns a dict of results for one cartridge, or raises RuntimeError with the reason."""
    calibration = run_bare(options.barecore, core, rom, 60)
    frames = max(60, int(round(calibration.fps * options.seconds / 10.0)) * 10)
    print(f"  {label}: {frames} frames ({calibration.fps:.0f} fps in calibration)", file=sys.stderr)
    results = {"bare": [], "phosphor": [], "bare1": [], "phosphor1": [], "only": [], "only1": []}
    for _ in range(options.runs):
        results["bare"].append(run_bare(options.barecore, core, rom, frames))
        results["phosphor"].append(run_phosphor(options.binary, core, rom, frames))
        if options.core_only:
            results["only"].append(run_bare(options.core_only, core, rom, frames))
        results["bare1"].append(run_bare(options.barecore, core, rom, 1))
        results["phosphor1"].append(run_phosphor(options.binary, core, rom, 1))
        if options.core_only:
            results["only1"].append(run_bare(options.core_only, core, rom, 1))
    best = {name: min(runs, key=lambda m: m.wall) for name, runs in results.items() if runs}

    def speed(long, short):
        loop = best[long].wall - best[short].wall
        return (frames - 1) / loop if loop > 0 else float("nan")

    def cpu_speed(long, short):
        """Frames per CPU second (all threads, user+sys): less disturbed by other work on the machine."""
        loop = min(m.cpu for m in results[long]) - min(m.cpu for m in results[short])
        return (frames - 1) / loop if loop > 0 else float("nan")

    bare_hashes = {m.hash for m in results["bare"] + results["only"]}
    phosphor_hashes = {m.hash for m in results["phosphor"]}
    hashes = bare_hashes | phosphor_hashes
    return {
        "label": label, "core": os.path.basename(core).replace("_libretro.so", ""), "frames": frames,
        "bare_fps": speed("bare", "bare1"), "phosphor_fps": speed("phosphor", "phosphor1"),
        "only_fps": speed("only", "only1") if options.core_only else None,
        "bare_cpu_fps": cpu_speed("bare", "bare1"), "phosphor_cpu_fps": cpu_speed("phosphor", "phosphor1"),
        "only_cpu_fps": cpu_speed("only", "only1") if options.core_only else None,
        "bare_start": best["bare1"].wall, "phosphor_start": best["phosphor1"].wall,
        "same_hash": len(hashes) == 1,
        "hash": sorted(hashes)[0] if len(hashes) == 1
        else "bare " + "/".join(sorted(bare_hashes)) + ", Phosphor " + "/".join(sorted(phosphor_hashes)),
        "bare_rss": max(m.max_rss_kib for m in results["bare"]),
        "phosphor_rss": max(m.max_rss_kib for m in results["phosphor"]),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", dest="binary", required=True)
    parser.add_argument("--barecore", required=True)
    parser.add_argument("--core-only", help="barecore built from make_core_only.py (adds a lower-bound column)")
    parser.add_argument("--seconds", type=float, default=1.5, help="wanted length of one timed run")
    parser.add_argument("--runs", type=int, default=5, help="best of this many runs")
    parser.add_argument("--cores", default="/usr/lib/x86_64-linux-gnu/libretro")
    parser.add_argument("--only", default="", help="comma-separated labels (nes,gb,snes,gba,pce,ds)")
    parser.add_argument("--memory-out", help="write the memory table to this file instead of stdout")
    options = parser.parse_args()
    wanted = set(filter(None, options.only.split(",")))

    rows, problems = [], []
    for label, core_name, rom in CARTRIDGES:
        if wanted and label not in wanted:
            continue
        core = os.path.join(options.cores, core_name)
        if not os.path.exists(core):
            problems.append(f"{label}: {core} is not installed, skipped")
            continue
        try:
            rows.append(compare(options, label, core, rom))
        except RuntimeError as error:
            problems.append(f"{label}: {error}")
            print(f"  {label}: {error}", file=sys.stderr)

    print("| Cartridge | Core | Frames | bare fps | core-only fps | Phosphor fps | **Phosphor/bare** | Phosphor/core-only | "
          "by CPU time: Phosphor/bare | by CPU time: Phosphor/core-only | start-up bare / Phosphor (ms) | same hash |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|:-:|")
    for r in rows:
        ratio = r["phosphor_fps"] / r["bare_fps"]
        cpu_ratio = r["phosphor_cpu_fps"] / r["bare_cpu_fps"]
        only = f"{r['only_fps']:.0f}" if r["only_fps"] else "–"
        only_ratio = f"{r['phosphor_fps'] / r['only_fps']:.3f}" if r["only_fps"] else "–"
        only_cpu_ratio = f"{r['phosphor_cpu_fps'] / r['only_cpu_fps']:.3f}" if r["only_cpu_fps"] else "–"
        print(f"| {r['label']} | {r['core']} | {r['frames']} | {r['bare_fps']:.0f} | {only} | {r['phosphor_fps']:.0f} | "
              f"**{ratio:.3f}** | {only_ratio} | {cpu_ratio:.3f} | {only_cpu_ratio} | "
              f"{r['bare_start'] * 1000:.0f} / {r['phosphor_start'] * 1000:.0f} | "
              f"{'✓' if r['same_hash'] else '✗'} `{r['hash']}` |")
    print()
    print(f"fps = (frames − 1) ÷ (best wall time of the N-frame run − best wall time of a 1-frame run), "
          f"best of {options.runs}, runs alternating. "
          f"By CPU time: the same ratio from user+system CPU seconds of all threads instead of wall time "
          f"(less disturbed by other work on the machine; Phosphor's core thread and main thread both count). "
          f"bare = `Bench/barecore.c`, which converts every frame to XRGB8888 as it arrives; "
          f"core-only = the same program with that conversion skipped for all but the last frame "
          f"(`Bench/headless/make_core_only.py`), i.e. the core's own work and nothing else. "
          f"Aim: Phosphor/bare ≥ 0.95.")
    for problem in problems:
        print(f"\n- not measured: {problem}")

    memory = open(options.memory_out, "w") if options.memory_out else sys.stdout
    print("| Cartridge | Core | Frames | bare (MiB) | Phosphor (MiB) | Phosphor − bare (MiB) |", file=memory)
    print("|---|---|--:|--:|--:|--:|", file=memory)
    for r in rows:
        print(f"| {r['label']} | {r['core']} | {r['frames']} | {r['bare_rss'] / 1024:.1f} | "
              f"{r['phosphor_rss'] / 1024:.1f} | {(r['phosphor_rss'] - r['bare_rss']) / 1024:+.1f} |", file=memory)
    print("\nPeak resident set size (`ru_maxrss` from wait4, the number `/usr/bin/time -f %M` prints), "
          "largest of the N-frame runs.", file=memory)
    if memory is not sys.stdout:
        memory.close()


if __name__ == "__main__":
    main()
