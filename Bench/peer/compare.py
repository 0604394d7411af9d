#!/usr/bin/env python3
"""Phosphor against gambaterm: the same Game Boy cartridge, terminal size, frames and keys.

    compare.py --bin BIN --gambaterm GAMBATERM [--barecore BARECORE] [--frames 600] [--rounds 3]
               [--cols 170] [--rows 80] [--keys Bench/peer/keys.txt] [--rom Roms/gb/phosphor-test.gbc]

Both programs run at 1x with audio off in a pseudo-terminal (Bench/peer/pty_run.py) of the
same size with TERM=xterm-256color and COLORTERM=truecolor, and stop by themselves after
the same number of frames (`phosphor play --frames N --no-audio`, `gambaterm --break-after
N --disable-audio --color-mode 4`). The key script reaches gambaterm as its --input-file
(it reads keys only through the kitty keyboard protocol or X11, and the harness answers no
terminal queries) and reaches Phosphor as key bytes typed into its terminal.

Each program also runs for 1 frame: "per frame" = (N-frame run − 1-frame run) ÷ (N − 1),
which leaves out start-up (gambaterm waits about 10 s for answers to its terminal queries).
With --barecore, the same core runs alone at the same frame rate (`barecore --pace`, same
buttons, nothing drawn): the CPU any frontend must spend on this core, so what is left of
Phosphor's figure is Phosphor's own. Then `barecore --pace --replay` runs the core again and
writes, after each frame, the next piece of what Phosphor wrote in its last run (cut after each
cursor-position request, whose answer it waits for): the CPU of the core plus the terminal I/O
of Phosphor's bytes with no picture computed, so what Phosphor spends above that row is its
picture and its threads. Prints a Markdown table; a program that cannot run gets a "not
available" row with its first line of output.
"""

import argparse
import json

from screen_colours import png_colours, screen_colours
import os
import shutil
import subprocess
import sys
import tempfile

GB_FPS = 59.7275
KEY_BYTES = {"a": "x", "b": "z", "start": "\\r", "select": "\\x7f",
             "up": "\\x1b[A", "down": "\\x1b[B", "right": "\\x1b[C", "left": "\\x1b[D"}
GAMBATERM_ORDER = ["up", "down", "left", "right", "start", "select", "b", "a"]


def read_keys(path):
    """[(first, last, button)] from the key script; a bad line is a one-line error."""
    holds = []
    with open(path, encoding="utf-8") as script:
        for number, line in enumerate(script, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = line.split()
            if len(fields) != 3 or fields[2] not in KEY_BYTES or not (fields[0].isdigit() and fields[1].isdigit()):
                sys.exit(f"compare.py: {path}:{number}: want 'FIRST_FRAME LAST_FRAME BUTTON'")
            holds.append((int(fields[0]), int(fields[1]), fields[2]))
    return holds


def write_gambaterm_input(holds, frames, path):
    with open(path, "w") as file:
        for frame in range(frames + 1):
            held = {button for first, last, button in holds if first <= frame <= last}
            file.write("|" + "".join("X" if name in held else "." for name in GAMBATERM_ORDER) + "|\n")


def write_pty_keys(holds, frames, lead, path):
    with open(path, "w") as file:
        for first, last, button in holds:
            for frame in range(first, min(last, frames) + 1, 2):
                file.write(f"{lead + frame / GB_FPS:.3f} {KEY_BYTES[button]}\n")


def pty_run(harness, command, cols, rows, keys, timeout, save, environment, answer_palette):
    # Cursor-position requests are answered as any terminal does (Phosphor's link pacer sends
    # one after each frame; gambaterm asks too), and palette queries as xterm does unless
    # --no-palette-answers (Phosphor then keeps to plain 24-bit colour); other queries go unanswered.
    arguments = [sys.executable, harness, "--cols", str(cols), "--rows", str(rows),
                 "--timeout", str(timeout), "--save", save, "--answer-cpr"] + (["--answer-palette"] if answer_palette else [])
    if keys:
        arguments += ["--keys", keys]
    for name, value in environment.items():
        arguments += ["--env", f"{name}={value}"]
    output = subprocess.run(arguments + ["--"] + command, check=True, capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def first_line(path):
    with open(path, "rb") as file:
        text = file.read(4000).decode(errors="replace")
    printable = "".join(c for c in text if c.isprintable() or c == "\n")
    lines = [line.strip() for line in printable.splitlines() if line.strip()]
    return lines[0][:120] if lines else "no output"


def write_barecore_input(holds, frames, path):
    """barecore's input file: from each listed frame on, exactly these buttons are held."""
    with open(path, "w") as file:
        for frame in range(frames + 1):
            held = sorted({button for first, last, button in holds if first <= frame <= last})
            file.write(f"{frame} {'+'.join(held) or '-'}\n")


def thread_cpu(home):
    """Phosphor's own account of its threads' CPU, from the `cpu:` line it logs on exit."""
    for folder, _, files in os.walk(home):
        if "phosphor.log" in files:
            with open(os.path.join(folder, "phosphor.log"), encoding="utf-8", errors="replace") as log:
                for line in log:
                    if " cpu: " in line:
                        fields = dict(field.split("=", 1) for field in line.split(" cpu: ", 1)[1].split())
                        return {name: float(value) for name, value in fields.items()}
    return None


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--bin", dest="binary", required=True)
    parser.add_argument("--gambaterm", help="the gambaterm executable (row skipped without it)")
    parser.add_argument("--gambaterm-note", default="", help="why gambaterm is missing")
    parser.add_argument("--barecore", help="Bench/barecore.c built: adds the core alone, paced at 1x")
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=3, help="runs of each program, alternating")
    parser.add_argument("--cols", type=int, default=170)
    parser.add_argument("--rows", type=int, default=80)
    parser.add_argument("--keys", default=os.path.join(here, "keys.txt"))
    parser.add_argument("--rom", default="Roms/gb/phosphor-test.gbc")
    parser.add_argument("--core", default="/usr/lib/x86_64-linux-gnu/libretro/gambatte_libretro.so")
    parser.add_argument("--no-palette-answers", dest="answer_palette", action="store_false",
                        help="leave palette queries unanswered (a terminal whose palette cannot be redefined)")
    options = parser.parse_args()
    harness = os.path.join(here, "pty_run.py")
    holds = read_keys(options.keys)
    frames = options.frames
    terminal = {"TERM": "xterm-256color", "COLORTERM": "truecolor"}
    timeout = frames / GB_FPS * 2 + 30

    scratch = tempfile.mkdtemp(prefix="phosphor-peer.")
    try:
        input_file = os.path.join(scratch, "gambaterm-input.txt")
        write_gambaterm_input(holds, frames, input_file)
        barecore_input = os.path.join(scratch, "barecore-input.txt")
        write_barecore_input(holds, frames, barecore_input)
        key_file = os.path.join(scratch, "keys.txt")
        write_pty_keys(holds, frames, 0.3, key_file)
        rom = os.path.abspath(options.rom)

        def gambaterm(count):
            save_directory = tempfile.mkdtemp(dir=scratch)
            return [options.gambaterm, "--disable-audio", "--color-mode", "4", "--break-after", str(count),
                    "--input-file", input_file, "--skip-inputs", "0", "--save-directory", save_directory, rom]

        def phosphor(count):
            return [options.binary, "play", "--frames", str(count), "--no-audio", "--core", options.core, rom]

        def barecore(count):
            return [options.barecore, "--pace", options.core, rom, str(count), barecore_input]

        core_alone = "core alone, paced at 1x"
        programs = [("Phosphor", phosphor, True), ("gambaterm", gambaterm, False)]
        if options.barecore:
            programs.append((core_alone, barecore, False))
        rows = {}
        if not options.gambaterm:
            rows["gambaterm"] = f"not available ({options.gambaterm_note or 'not installed'})"
        # Rounds alternate the programs (the order turns each round), so other work on the
        # machine falls on all of them alike; the table shows the median of the rounds.
        for round_index in range(options.rounds):
            order = programs[round_index % len(programs):] + programs[:round_index % len(programs)]
            for name, command, typed_keys in order:
                if isinstance(rows.get(name), str):
                    continue
                pair = []
                for count in (frames, 1):
                    home = tempfile.mkdtemp(dir=scratch)
                    save = os.path.join(scratch, f"{name}-{count}.out")
                    print(f"  round {round_index + 1}: {name}: {count} frame(s)", file=sys.stderr)
                    result = pty_run(harness, command(count), options.cols, options.rows,
                                     key_file if typed_keys and count > 1 else None, timeout, save,
                                     dict(terminal, PHOSPHOR_HOME=home), options.answer_palette)
                    if name == "Phosphor":
                        result["threads"] = thread_cpu(home)
                    if result["exit"] != 0 or result["killed"]:
                        why = "killed after the timeout" if result["killed"] else f"exit {result['exit']}"
                        rows[name] = f"not available ({why}: {first_line(save)})"
                        break
                    pair.append(result)
                else:
                    rows.setdefault(name, []).append(pair)

        # The core plus Phosphor's own bytes replayed: the terminal I/O floor of those bytes.
        replayed = "core + Phosphor's bytes replayed"
        if options.barecore and isinstance(rows.get("Phosphor"), list):
            programs.append((replayed, None, False))
            for round_index in range(options.rounds):
                pair = []
                for count in (frames, 1):
                    recording = os.path.join(scratch, f"Phosphor-{count}.out")
                    command = [options.barecore, "--pace", "--replay", recording, options.core, rom, str(count), barecore_input]
                    print(f"  round {round_index + 1}: {replayed}: {count} frame(s)", file=sys.stderr)
                    result = pty_run(harness, command, options.cols, options.rows, None, timeout,
                                     os.path.join(scratch, f"replay-{count}.out"), terminal, False)
                    if result["exit"] != 0 or result["killed"]:
                        rows[replayed] = f"not available (exit {result['exit']}: {first_line(os.path.join(scratch, f'replay-{count}.out'))})"
                        break
                    pair.append(result)
                else:
                    rows.setdefault(replayed, []).append(pair)
                if isinstance(rows.get(replayed), str):
                    break

        # Distinct colours: in the core's last frame (a headless run of the same length, no keys:
        # the script holds nothing at the end) and on each program's last screen.
        colour_counts = {}
        shot = os.path.join(scratch, "last-frame.png")
        headless = subprocess.run([options.binary, "run", "--headless", "--frames", str(frames), "--core", options.core,
                                   "--screenshot", shot, rom], capture_output=True, text=True,
                                  env=dict(os.environ, PHOSPHOR_HOME=tempfile.mkdtemp(dir=scratch)))
        if headless.returncode == 0 and os.path.exists(shot):
            colour_counts["frame"] = png_colours(shot)
        for name, _, _ in programs[:2]:
            saved = os.path.join(scratch, f"{name}-{frames}.out")
            if isinstance(rows.get(name), list) and os.path.exists(saved):
                with open(saved, "rb") as file:
                    colour_counts[name] = screen_colours(file.read(), options.cols, options.rows)

        print(f"Same cartridge (`{options.rom}`), {options.cols}×{options.rows} pseudo-terminal, "
              f"{frames} frames at 1x, audio off, 24-bit colour, key script `Bench/peer/keys.txt`; "
              f"median of {options.rounds} alternating rounds (CPU range in brackets).\n")
        print("| Program | bytes to the terminal | CPU s (user+sys) | wall s | bytes/frame | CPU ms/frame | peak RSS (MiB) |")
        print("|---|--:|--:|--:|--:|--:|--:|")
        summary = {}
        for name, _, _ in programs:
            value = rows.get(name, "not available (no run)")
            if isinstance(value, str):
                print(f"| {name} | {value} | | | | | |")
                continue
            cpu = [long["cpu"] for long, _ in value]
            summary[name] = {
                "bytes": median([long["bytes"] for long, _ in value]),
                "cpu": median(cpu),
                "wall": median([long["wall"] for long, _ in value]),
                "bytes_per_frame": median([(long["bytes"] - short["bytes"]) / (frames - 1) for long, short in value]),
                "cpu_per_frame": median([(long["cpu"] - short["cpu"]) / (frames - 1) * 1000 for long, short in value]),
                "rss": max(long["max_rss_kib"] for long, _ in value) / 1024,
            }
            row = summary[name]
            print(f"| {name} | {row['bytes']:.0f} | {row['cpu']:.2f} ({min(cpu):.2f}–{max(cpu):.2f}) | {row['wall']:.1f} | "
                  f"{row['bytes_per_frame']:.0f} | {row['cpu_per_frame']:.3f} | {row['rss']:.1f} |")
        if "Phosphor" in summary and "gambaterm" in summary:
            ours, theirs = summary["Phosphor"], summary["gambaterm"]
            print(f"\nPhosphor/gambaterm: bytes {ours['bytes'] / theirs['bytes']:.2f} "
                  f"(per frame {ours['bytes_per_frame'] / theirs['bytes_per_frame']:.2f}), CPU {ours['cpu'] / theirs['cpu']:.2f} "
                  f"(per frame {ours['cpu_per_frame'] / theirs['cpu_per_frame']:.2f}). Aim: bytes ≤ 0.8, CPU ≤ 0.5.")
            # Each round runs the two back to back, so a machine that is slower for a while (other
            # guests on the host: the same run's CPU varies by ±10% here) slows both: the ratio
            # within each round moves less than either program's own figure.
            ratios = sorted(long["cpu"] / their_long["cpu"]
                            for (long, _), (their_long, _) in zip(rows["Phosphor"], rows["gambaterm"]))
            print(f"CPU ratio within each round: median {median(ratios):.2f} "
                  f"({', '.join(f'{ratio:.2f}' for ratio in ratios)}).")
            if core_alone in summary:
                floor = summary[core_alone]
                print(f"\nThe core alone (Bench/barecore.c `--pace`: the same core, ROM and buttons at the same "
                      f"frame rate, no terminal) uses {floor['cpu']:.2f} s, {floor['cpu'] / theirs['cpu']:.2f} of "
                      f"gambaterm's CPU. Phosphor's own share: {ours['cpu'] - floor['cpu']:.2f} s "
                      f"({ours['cpu_per_frame'] - floor['cpu_per_frame']:.3f} ms per frame).")
            if replayed in summary:
                floor = summary[replayed]
                alone = summary.get(core_alone)
                print(f"\nThe core with Phosphor's bytes replayed (nothing computed but the core; the same bytes, "
                      f"pieces and cursor reports) uses {floor['cpu']:.2f} s"
                      + (f", {floor['cpu'] / alone['cpu']:.2f}× the core alone" if alone else "")
                      + f". Phosphor's picture and threads above that: {ours['cpu'] - floor['cpu']:.2f} s "
                      f"({ours['cpu_per_frame'] - floor['cpu_per_frame']:.3f} ms per frame).")
        phosphor_runs = rows.get("Phosphor")
        if isinstance(phosphor_runs, list) and all(long.get("threads") and short.get("threads") for long, short in phosphor_runs):
            def per_frame(key):
                return median([(long["threads"][key] - short["threads"][key]) / (frames - 1) * 1000 for long, short in phosphor_runs])
            drawn = median([long["threads"]["drawn"] for long, _ in phosphor_runs])
            waits = [long["threads"]["frame-wait-ms"] for long, _ in phosphor_runs if "frame-wait-ms" in long["threads"]]
            print(f"\nPhosphor's threads (its own log, median): core thread {per_frame('core-thread'):.3f} ms/frame "
                  f"(emulation, frame copies, pacing), UI thread {per_frame('ui-thread'):.3f} ms/frame (input, "
                  f"picture, terminal), of which drawing {per_frame('drawing'):.3f}; {drawn:.0f} of {frames} frames "
                  f"differed from the one before and were drawn"
                  + (f", each taken {median(waits):.2f} ms after the core made it." if waits else "."))
        if colour_counts:
            shown = ", ".join(f"{name} {count}" for name, count in colour_counts.items() if name != "frame")
            print(f"\nDistinct colours: {colour_counts.get('frame', '?')} in the core's frame {frames}; "
                  f"on the last screen (picture, legend and status bar): {shown}.")
        print("\nbytes/frame and CPU ms/frame leave out start-up: (N-frame run − 1-frame run) ÷ (N − 1).")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
