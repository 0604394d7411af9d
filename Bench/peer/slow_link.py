#!/usr/bin/env python3
"""`phosphor play` behind a slow link: key-to-screen latency and frames shown per second.

    slow_link.py --bin BIN --rom ROM --core CORE --rate BYTES_PER_SECOND [--rtt-ms 40]
                 [--no-pacing] [--cols 170] [--rows 80] [--seconds 20]

The program runs in a pseudo-terminal whose reader takes its output at a fixed rate (the
link), and everything it reads reaches the "screen" half a round trip later. A cursor-position
request (`CSI 6 n`, the link pacer's probe) is answered a full round trip after the reader
took it (there and back); typed keys reach the program half a round trip after they are
"pressed". Every 2 s from 3 s on, A is pressed (typed every 30 ms for 0.6 s, as autorepeat):
the bench cartridge (Bench/gbc-scene) turns its sky red while A is held, and the time from the
press to the first red SGR reaching the screen is the key-to-screen latency. Frames shown per
second count the frames (each ends in `CSI 0 m`) that reached the screen after the first 2 s.

Prints one JSON object: rate, rtt_ms, pacing, latencies_ms (one per press; null when the red
sky never reached the screen), median_ms, frames_per_second, bytes, lost_presses.
"""

import argparse
import fcntl
import heapq
import json
import os
import re
import signal
import struct
import termios
import threading
import time

RED = re.compile(rb"[34]8;(?:2;(\d+);(\d+);(\d+)|5;(\d+))")
CUBE = [0, 95, 135, 175, 215, 255]


TOKENS = re.compile(rb"\x1b\[([\d;]*)([mb])|( {40,})|((?:\xe2\x96\x88){40,})|( |\xe2\x96\x88)(?=\x1b\[(\d+)b)")


class Red16:
    """Finds the red sky in the pacer's cheapest picture (16 colours): a run of 40 or more cells
    (spaces or full blocks, written or REP) in red or bright red (the core's colour correction
    puts the sky between the two). Sprites and bricks map to them too, but in short runs. Keeps
    the SGR state across chunks."""

    def __init__(self):
        self.foreground = self.background = None

    def sees_red(self, chunk):
        found = False
        for match in TOKENS.finditer(chunk):
            if match.group(2) == b"m":
                self.apply([int(p) if p else 0 for p in match.group(1).split(b";")])
            elif match.group(3) is not None:
                found = found or self.background in (41, 101)
            elif match.group(4) is not None:
                found = found or self.foreground in (31, 91)
            elif match.group(5) is not None and int(match.group(6)) >= 39:
                found = found or (self.background in (41, 101) if match.group(5) == b" " else self.foreground in (31, 91))
        return found

    def apply(self, parameters):
        index = 0
        while index < len(parameters):
            value = parameters[index]
            if value in (38, 48):
                wide = index + 1 < len(parameters) and parameters[index + 1] == 2
                if value == 38:
                    self.foreground = None
                else:
                    self.background = None
                index += 5 if wide else 3
                continue
            if value == 0:
                self.foreground = self.background = None
            elif 30 <= value <= 37 or 90 <= value <= 97:
                self.foreground = value
            elif 40 <= value <= 47 or 100 <= value <= 107:
                self.background = value
            index += 1


def is_red(match):
    if match.group(4) is not None:
        index = int(match.group(4))
        if not 16 <= index < 232:
            return index in (1, 9)
        n = index - 16
        r, g, b = CUBE[n // 36], CUBE[(n // 6) % 6], CUBE[n % 6]
    else:
        r, g, b = (int(match.group(k)) for k in (1, 2, 3))
    return r > 180 and g < 60 and b < 60


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--rom", required=True)
    parser.add_argument("--core", required=True)
    parser.add_argument("--rate", type=float, required=True)
    parser.add_argument("--rtt-ms", type=float, default=40)
    parser.add_argument("--no-pacing", action="store_true")
    parser.add_argument("--cols", type=int, default=170)
    parser.add_argument("--rows", type=int, default=80)
    parser.add_argument("--seconds", type=float, default=20)
    options = parser.parse_args()
    half = options.rtt_ms / 2000

    command = [options.bin, "play", "--no-audio", "--core", options.core, "--frames", str(int(options.seconds * 59.7)),
               options.rom]
    if options.no_pacing:
        command.insert(2, "--no-link-pacing")
    environment = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor",
                       LINES=str(options.rows), COLUMNS=str(options.cols))
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", options.rows, options.cols, 0, 0))
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(master)
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        for target in (0, 1, 2):
            os.dup2(slave, target)
        os.execvpe(command[0], command, environment)
    os.close(slave)

    lock = threading.Lock()
    outgoing = []  # heap of (time, bytes): what reaches the program, when
    screen = []    # (time it reaches the screen, chunk)
    done = threading.Event()

    def send_at(when, data):
        with lock:
            heapq.heappush(outgoing, (when, data))

    def reader():
        """The link: takes bytes at the rate; the screen gets them half a round trip later."""
        budget_start = time.monotonic()
        taken = 0
        while not done.is_set():
            try:
                chunk = os.read(master, 2048)
            except OSError:
                break
            if not chunk:
                break
            now = time.monotonic()
            # A fixed rate: time the link spent idle is not credit for a burst later (at most
            # one read's worth), as no real link stores unused capacity.
            budget_start = max(budget_start, now - taken / options.rate - 2048 / options.rate)
            taken += len(chunk)
            screen.append((now + half, chunk))
            for _ in range(chunk.count(b"\x1b[6n")):
                send_at(now + 2 * half, f"\x1b[{options.rows};1R".encode())
            # Hold the next read until the link has carried this chunk.
            wait = budget_start + taken / options.rate - time.monotonic()
            if wait > 0:
                time.sleep(wait)

    def writer():
        while not done.is_set():
            with lock:
                due = outgoing[0][0] if outgoing else None
                data = heapq.heappop(outgoing)[1] if due is not None and due <= time.monotonic() else None
            if data is not None:
                try:
                    os.write(master, data)
                except OSError:
                    return
            else:
                time.sleep(0.001)

    threading.Thread(target=reader, daemon=True).start()
    threading.Thread(target=writer, daemon=True).start()

    presses = []
    moment = 3.0
    while moment + 1.5 < options.seconds:
        presses.append(started + moment)
        for k in range(20):
            send_at(started + moment + half + k * 0.03, b"x")
        moment += 2.0

    deadline = started + options.seconds * 4 + 10
    status = None
    while time.monotonic() < deadline:
        finished, status = os.waitpid(pid, os.WNOHANG)
        if finished:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    done.set()
    end = time.monotonic()

    red16 = Red16()
    reds = [when for when, chunk in screen if red16.sees_red(chunk)]
    latencies = []
    for index, pressed in enumerate(presses):
        until = presses[index + 1] if index + 1 < len(presses) else float("inf")
        seen = None
        for when, chunk in screen:
            if when < pressed or when >= until + 1.0:
                continue
            if any(is_red(match) for match in RED.finditer(chunk)) or when in reds:
                seen = when
                break
        latencies.append(round((seen - pressed) * 1000) if seen else None)
    window = [chunk for when, chunk in screen if when >= started + 2.0]
    frames = sum(chunk.count(b"\x1b[0m") for chunk in window)
    last = max((when for when, _ in screen), default=end)
    measured = [value for value in latencies if value is not None]
    measured.sort()
    print(json.dumps({
        "rate": options.rate, "rtt_ms": options.rtt_ms, "pacing": not options.no_pacing,
        "latencies_ms": latencies,
        "median_ms": measured[len(measured) // 2] if measured else None,
        "frames_per_second": round(frames / max(0.001, last - (started + 2.0)), 1),
        "bytes": sum(len(chunk) for _, chunk in screen),
        "lost_presses": latencies.count(None),
        "wall": round(end - started, 1),
    }))


if __name__ == "__main__":
    main()
