#!/usr/bin/env python3
"""Run one command in a pseudo-terminal of a fixed size and measure what it costs.

    pty_run.py [--cols 160] [--rows 50] [--keys SCRIPT] [--timeout SECONDS] [--answer-cpr]
               [--answer-palette] [--save FILE] [--env NAME=VALUE]... -- COMMAND [ARG...]

The command gets a fresh pseudo-terminal as its controlling terminal (stdin, stdout and
stderr), with the window size set by TIOCSWINSZ before it starts. A reader thread drains
the terminal and counts every byte the program writes. Nothing is answered, so a program
that queries the terminal (DA1, kitty keyboard) sees silence and has to fall back to its own
timeout; except that with --answer-cpr a cursor-position request (`CSI 6 n`) gets the reply
every terminal gives (`CSI rows;1 R`), as Phosphor's link pacer and gambaterm expect, and with
--answer-palette a palette query (`OSC 4 ; n ; ? ST`) gets entry n's colour, xterm's default or
as an `OSC 4 ; n ; rgb:…` redefined it, as xterm 379, kitty 0.26.5 and mlterm 3.9.0 answer
(Phosphor then sends colours as redefined entries).

SCRIPT is a text file of key events, one per line: `SECONDS BYTES`, where SECONDS is the
time after start at which BYTES are written to the terminal (as if typed) and BYTES uses
Python escapes (`\\r`, `\\x1b[C`). Blank lines and lines starting with '#' are ignored.

If the program is still running after --timeout seconds it gets SIGTERM, then SIGKILL a
second later; `killed` in the result says so.

Prints one JSON object on stdout: bytes written by the program, wall seconds, user and
system CPU seconds of the program and every descendant it waited for (from wait4), peak
RSS in KiB, the exit status, and whether it was killed.
"""

import argparse
import codecs
import fcntl
import json
import os
import signal
import struct
import sys
import termios
import threading
import time


def xterm_colour(index):
    levels = [0, 95, 135, 175, 215, 255]
    if index < 16:
        return [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
                (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
                (255, 0, 255), (0, 255, 255), (255, 255, 255)][index]
    if index < 232:
        n = index - 16
        return (levels[n // 36], levels[(n // 6) % 6], levels[n % 6])
    level = 8 + 10 * (index - 232)
    return (level, level, level)


def answer_palette_queries(data, master, defined):
    """Answers every complete `ESC ] 4 ; n ; ? ST` in data with entry n's colour: as `defined`
    (entry: (r, g, b)) holds it, which every complete `ESC ] 4 ; n ; rgb:… ST` in data updates,
    or else xterm's default. Returns what may start a sequence still to come (one split across
    two reads)."""
    start = 0
    while True:
        found = data.find(b"\x1b]4;", start)
        if found < 0:
            return data[-5:]
        end = data.find(b"\x1b\\", found)
        if end < 0:
            return data[found:found + 64]
        body = data[found + 4:end].split(b";")
        if len(body) == 2 and body[0].isdigit() and body[1].startswith(b"rgb:"):
            try:
                # Each component keeps its high byte, as xterm keeps 8 bits of `rgb:1212/5656/9a9a`.
                defined[int(body[0])] = tuple(int(part[:2].ljust(2, b"0"), 16) for part in body[1][4:].split(b"/"))
            except ValueError:
                pass
        if len(body) == 2 and body[1] == b"?" and body[0].isdigit() and int(body[0]) < 256:
            red, green, blue = defined.get(int(body[0])) or xterm_colour(int(body[0]))
            reply = f"\x1b]4;{int(body[0])};rgb:{red:02x}{red:02x}/{green:02x}{green:02x}/{blue:02x}{blue:02x}\x1b\\"
            try:
                os.write(master, reply.encode())
            except OSError:
                return b""
        start = end + 2


def parse_key_script(path):
    """Returns [(seconds, bytes)] sorted by time; a malformed line is a one-line error."""
    events = []
    with open(path, encoding="utf-8") as script:
        for number, line in enumerate(script, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split(None, 1)
            try:
                seconds = float(parts[0])
                data = codecs.decode(parts[1], "unicode_escape").encode("latin-1")
            except (ValueError, IndexError, UnicodeError) as error:
                sys.exit(f"pty_run.py: {path}:{number}: want 'SECONDS BYTES' ({error})")
            events.append((seconds, data))
    return sorted(events, key=lambda event: event[0])


def main():
    parser = argparse.ArgumentParser(description="run a command in a pty and count its output")
    parser.add_argument("--cols", type=int, default=160)
    parser.add_argument("--rows", type=int, default=50)
    parser.add_argument("--keys", help="key script: lines 'SECONDS BYTES'")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--save", help="also write everything the program printed to this file")
    parser.add_argument("--answer-cpr", action="store_true", help="answer CSI 6 n as a terminal does")
    parser.add_argument("--answer-palette", action="store_true", help="answer OSC 4 ; n ; ? with xterm's default colours")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the program")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not command:
        parser.error("no command given (put it after --)")
    events = parse_key_script(options.keys) if options.keys else []

    environment = dict(os.environ)
    for assignment in options.env:
        name, separator, value = assignment.partition("=")
        if not separator:
            parser.error(f"--env wants NAME=VALUE, got '{assignment}'")
        environment[name] = value
    environment["LINES"] = str(options.rows)
    environment["COLUMNS"] = str(options.cols)

    master, slave = os.openpty()
    os.set_inheritable(slave, True)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", options.rows, options.cols, 0, 0))

    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(master)
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for target in (0, 1, 2):
                os.dup2(slave, target)
            if slave > 2:
                os.close(slave)
            os.execvpe(command[0], command, environment)
        except OSError as error:
            os.write(2, f"pty_run.py: cannot run {command[0]}: {error}\n".encode())
        os._exit(127)
    os.close(slave)

    counted = {"bytes": 0}
    saved = open(options.save, "wb") if options.save else None

    palette_buffer = {"pending": b"", "defined": {}}

    def drain():
        tail = b""   # the last 3 bytes read: a request split across two reads is still answered
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every holder of the slave side has closed it
                return
            if not chunk:
                return
            counted["bytes"] += len(chunk)
            if options.answer_cpr:
                # A request wholly inside the previous read cannot start in its last 3 bytes, so
                # none is answered twice.
                joined = tail + chunk
                tail = joined[-3:]
                for _ in range(joined.count(b"\x1b[6n")):
                    try:
                        os.write(master, f"\x1b[{options.rows};1R".encode())
                    except OSError:
                        return
            if options.answer_palette:
                palette_buffer["pending"] = answer_palette_queries(palette_buffer["pending"] + chunk, master,
                                                                   palette_buffer["defined"])
            if saved:
                saved.write(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()

    finished = threading.Event()
    result = {}

    def reap():
        _, status, usage = os.wait4(pid, 0)
        result["status"] = status
        result["usage"] = usage
        result["wall"] = time.monotonic() - started
        finished.set()

    threading.Thread(target=reap, daemon=True).start()

    for seconds, data in events:
        if finished.wait(max(0.0, started + seconds - time.monotonic())):
            break
        try:
            os.write(master, data)
        except OSError:
            break

    killed = False
    if not finished.wait(max(0.0, started + options.timeout - time.monotonic())):
        killed = True
        os.kill(pid, signal.SIGTERM)
        if not finished.wait(1.0):
            os.kill(pid, signal.SIGKILL)
            finished.wait()
    reader.join(timeout=2.0)
    os.close(master)
    if saved:
        saved.close()

    status = result["status"]
    usage = result["usage"]
    print(json.dumps({
        "bytes": counted["bytes"],
        "wall": round(result["wall"], 3),
        "user": round(usage.ru_utime, 3),
        "sys": round(usage.ru_stime, 3),
        "cpu": round(usage.ru_utime + usage.ru_stime, 3),
        "max_rss_kib": usage.ru_maxrss,
        "exit": os.waitstatus_to_exitcode(status),
        "killed": killed,
        "cols": options.cols,
        "rows": options.rows,
    }))


if __name__ == "__main__":
    main()
