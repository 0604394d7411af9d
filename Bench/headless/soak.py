#!/usr/bin/env python3
"""Soak: run every installed core unthrottled for a while and watch memory and file descriptors.

    soak.py --bin BIN --minutes TOTAL [--interval SECONDS] [--cores DIR] [--only nes,gb,...]

TOTAL minutes are split evenly across the test cartridges whose core is installed. Each
runs as `BIN run --headless --frames <huge> --core CORE ROM` (a fresh PHOSPHOR_HOME, so
nothing a user has is touched) while VmRSS (/proc/PID/status) and the number of open
file descriptors (/proc/PID/fd) are sampled every --interval seconds; then it gets
SIGTERM. Samples from the first 10 % of the time are warm-up and left out of the
least-squares slope of RSS over time (KiB per minute): a leak of one frame buffer per
frame shows as megabytes per minute, a steady process as about zero.

Prints a Markdown table on stdout; progress on stderr.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import CARTRIDGES  # noqa: E402

HUGE = 10 ** 12


def sample(pid):
    """(VmRSS KiB, open fd count), or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        return rss, len(os.listdir(f"/proc/{pid}/fd"))
    except (OSError, StopIteration):
        return None


def slope_per_minute(points):
    """Least-squares slope of (seconds, KiB) points, in KiB per minute."""
    if len(points) < 2:
        return float("nan")
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_v = sum(v for _, v in points) / n
    variance = sum((t - mean_t) ** 2 for t, _ in points)
    if variance == 0:
        return float("nan")
    return sum((t - mean_t) * (v - mean_v) for t, v in points) / variance * 60


def soak(options, label, core, rom, seconds):
    home = tempfile.mkdtemp(prefix="phosphor-soak-home.")
    environment = dict(os.environ, PHOSPHOR_HOME=home)
    command = [options.binary, "run", "--headless", "--frames", str(HUGE), "--core", core, rom]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
    started = time.monotonic()
    samples = []
    try:
        while time.monotonic() - started < seconds:
            if process.poll() is not None:
                break
            value = sample(process.pid)
            if value:
                samples.append((time.monotonic() - started, *value))
            time.sleep(options.interval)
        alive = process.poll() is None
        cpu = None
        if alive:
            with open(f"/proc/{process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
                cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        status = "ran to the end" if alive else f"stopped early, exit {process.returncode}"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        shutil.rmtree(home, ignore_errors=True)
    warm_samples = [entry for entry in samples if entry[0] >= seconds * 0.1]
    warm = [(t, rss) for t, rss, _ in warm_samples]
    return {
        "label": label, "core": os.path.basename(core).replace("_libretro.so", ""),
        "minutes": (samples[-1][0] if samples else 0) / 60, "samples": len(samples),
        "start_rss": warm[0][1] if warm else None, "end_rss": warm[-1][1] if warm else None,
        "peak_rss": max((rss for _, rss, _ in samples), default=None),
        "slope": slope_per_minute(warm),
        "fd_start": warm_samples[0][2] if warm_samples else None,
        "fd_end": warm_samples[-1][2] if warm_samples else None,
        "cpu": cpu, "status": status,
    }


def mib(kib):
    return "–" if kib is None else f"{kib / 1024:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", dest="binary", required=True)
    parser.add_argument("--minutes", type=float, default=30.0, help="total, split across the cores")
    parser.add_argument("--interval", type=float, default=0.0, help="seconds between samples (default: about 60 per core)")
    parser.add_argument("--cores", default="/usr/lib/x86_64-linux-gnu/libretro")
    parser.add_argument("--only", default="")
    options = parser.parse_args()
    wanted = set(filter(None, options.only.split(",")))
    runs = [(label, os.path.join(options.cores, name), rom) for label, name, rom in CARTRIDGES
            if (not wanted or label in wanted) and os.path.exists(os.path.join(options.cores, name))]
    if not runs:
        sys.exit("soak.py: no installed core for any test cartridge")
    seconds = options.minutes * 60 / len(runs)
    if options.interval <= 0:
        options.interval = min(5.0, max(0.5, seconds / 60))

    rows = []
    for label, core, rom in runs:
        print(f"  soak {label}: {seconds / 60:.2f} min, a sample every {options.interval:.1f} s", file=sys.stderr)
        rows.append(soak(options, label, core, rom, seconds))

    print(f"{options.minutes:g} minutes in total, {seconds / 60:.2f} min per core, unthrottled "
          f"(`phosphor run --headless`), RSS and open fds sampled every {options.interval:.1f} s; "
          f"start/end RSS, fds and the slope leave out the first 10 % (warm-up).\n")
    print("| Cartridge | Core | minutes | samples | CPU s | start RSS (MiB) | end RSS (MiB) | peak RSS (MiB) | "
          "RSS slope (KiB/min) | fds start → end | result |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    for r in rows:
        cpu = "–" if r["cpu"] is None else f"{r['cpu']:.0f}"
        print(f"| {r['label']} | {r['core']} | {r['minutes']:.2f} | {r['samples']} | {cpu} | {mib(r['start_rss'])} | "
              f"{mib(r['end_rss'])} | {mib(r['peak_rss'])} | {r['slope']:+.1f} | {r['fd_start']} → {r['fd_end']} | "
              f"{r['status']} |")


if __name__ == "__main__":
    main()
