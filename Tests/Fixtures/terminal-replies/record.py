#!/usr/bin/env python3
"""Records what a real terminal answers to Phosphor's start-up queries (GraphicsDetectionTests).

    record.py --mode plain|tmux|screen|palette --out DIR/NAME [--seconds 3]

Run it *inside* the terminal (record.sh starts each one). It puts the tty in raw mode and
writes the bytes `TerminalNegotiation.start()` writes (the tests check `NAME.sent` against
the Swift code, so the two cannot drift apart): DECRQM 2026 and 1016, OSC 11, XTVERSION, the
graphics queries
(`GraphicsDetection.start()`: kitty `a=q` direct and through a temporary file, XTSMGRAPHICS
colour registers and geometry, `CSI 16 t`; inside tmux only `CSI 16 t`, and the kitty query wrapped
in its passthrough once tmux's own DA1 reply is in; inside GNU screen none) and the keyboard's `CSI ? u` + DA1. Like
the app, when a `CSI ? flags u` came before the DA1 reply it pushes the game flags and asks
again (`CSI > 11 u CSI ? u CSI c`), and pops them (`CSI < u`) at the end. Everything read in
the next `--seconds` goes to NAME.reply as raw bytes (late answers too: tmux's passthrough
answer comes after tmux's own DA1), every write to NAME.sent, and NAME.info gets TERM, the
tty's TIOCGWINSZ (columns, rows, pixel width, pixel height) and each read's time and length
(the reads a terminal's answer is split across).

`--mode palette` records the palette exchange alone (`TerminalPalette`): the `OSC 4 ; n ; ?`
query of each candidate entry, then, once entry 87's own colour came, the probe (87 redefined
and asked again) as the app sends it, and once that answer came, 87's own colour given back.
"""

import argparse
import base64
import fcntl
import os
import re
import select
import struct
import termios
import time
import tty

PROBE = "/dev/shm/phosphor-tty-graphics-protocol-record-1.rgb"


def queries(mode):
    """The first burst, and (inside tmux) what goes out once the first DA1 reply is in."""
    sync = b"\x1b[?2026$p"
    pixel_mouse = b"\x1b[?1016$p"
    background = b"\x1b]11;?\x1b\\" + b"\x1b[>q"  # OSC 11, then XTVERSION
    kitty = b"\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\"
    cell = b"\x1b[16t"
    keyboard = b"\x1b[?u\x1b[c"
    if mode == "tmux":
        wrapped = b"\x1bPtmux;" + kitty.replace(b"\x1b", b"\x1b\x1b") + b"\x1b\\"
        return sync + pixel_mouse + background + cell + keyboard, wrapped
    if mode == "screen":
        return sync + pixel_mouse + background + keyboard, b""
    path = base64.b64encode(PROBE.encode()).decode()
    kitty_file = f"\x1b_Gi=32,s=1,v=1,a=q,t=t,f=24;{path}\x1b\\".encode()
    return sync + pixel_mouse + background + kitty + kitty_file + b"\x1b[?1;1S\x1b[?2;1S" + cell + keyboard, b""


PALETTE_CANDIDATES = list(range(16, 25)) + list(range(26, 88))
PALETTE_PROBE = b"\x1b]4;87;rgb:1212/5656/9a9a\x1b\\\x1b]4;87;?\x1b\\"


def exchange(fd, first, seconds, respond):
    """Writes `first`, then reads for `seconds`; after each read, `respond(reply so far)` gives
    what to write next (b"" for nothing). Returns (reply, sent, reads)."""
    os.write(fd, first)
    reply, sent, reads = b"", first, []
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            continue
        chunk = os.read(fd, 4096)
        reads.append((round((time.monotonic() - start) * 1000), len(chunk)))
        reply += chunk
        more = respond(reply)
        if more:
            os.write(fd, more)
            sent += more
    return reply, sent, reads


def record_palette(fd, seconds):
    """The palette exchange: (reply, sent, reads)."""
    answer = re.compile(rb"\x1b\]4;87;rgb:([0-9a-fA-F/]+)(?:\x07|\x1b\\)")
    state = {"probed": False, "restored": False}

    def respond(reply):
        answers = answer.findall(reply)
        if not state["probed"] and answers:
            state["probed"] = True
            return PALETTE_PROBE
        if state["probed"] and not state["restored"] and len(answers) >= 2:
            state["restored"] = True
            # 87's own colour back, four hex digits a component as the app writes it.
            parts = [(part * 2 if len(part) == 2 else part).lower() for part in answers[0].split(b"/")]
            return b"\x1b]4;87;rgb:" + b"/".join(parts) + b"\x1b\\"
        return b""

    first = b"".join(b"\x1b]4;%d;?\x1b\\" % index for index in PALETTE_CANDIDATES)
    return exchange(fd, first, seconds, respond)


def record_queries(fd, mode, seconds):
    """The start-up queries' exchange: (reply, sent, reads)."""
    first, after_da1 = queries(mode)
    da1 = re.compile(rb"\x1b\[\?[0-9;]*c")
    flags = re.compile(rb"\x1b\[\?[0-9]*u")
    state = {"pushed": False, "followed_up": not after_da1}

    def respond(reply):
        more = b""
        # The app's verification round: flags before the first DA1 reply mean the protocol.
        first_da1 = da1.search(reply)
        # Inside tmux the wrapped kitty query goes out once tmux's own DA1 reply is in, as the app does.
        if not state["followed_up"] and first_da1:
            more += after_da1
            state["followed_up"] = True
        if not state["pushed"] and first_da1 and flags.search(reply, 0, first_da1.start()):
            more += b"\x1b[>11u\x1b[?u\x1b[c"
            state["pushed"] = True
        return more

    reply, sent, reads = exchange(fd, first, seconds, respond)
    if state["pushed"]:
        os.write(fd, b"\x1b[<u")
        sent += b"\x1b[<u"
    return reply, sent, reads


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["plain", "tmux", "screen", "palette"], required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()

    if args.mode == "plain":
        with open(PROBE, "wb") as probe:
            probe.write(b"\0\0\0")
    fd = os.open("/dev/tty", os.O_RDWR)
    saved = termios.tcgetattr(fd)
    winsize = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    try:
        tty.setraw(fd)
        if args.mode == "palette":
            reply, sent, reads = record_palette(fd, args.seconds)
        else:
            reply, sent, reads = record_queries(fd, args.mode, args.seconds)
    finally:
        termios.tcsetattr(fd, termios.TCSAFLUSH, saved)
        os.close(fd)
        probe_read = args.mode == "plain" and not os.path.exists(PROBE)
        if args.mode == "plain" and not probe_read:
            os.remove(PROBE)
    with open(args.out + ".reply", "wb") as file:
        file.write(reply)
    with open(args.out + ".sent", "wb") as file:
        file.write(sent)
    with open(args.out + ".info", "w") as file:
        file.write(f"TERM={os.environ.get('TERM', '')}\n")
        file.write(f"winsize={winsize[1]}x{winsize[0]} pixels={winsize[2]}x{winsize[3]}\n")
        if args.mode == "plain":
            file.write(f"probe file read and deleted by the terminal: {'yes' if probe_read else 'no'}\n")
        file.write("reads (ms:bytes): " + " ".join(f"{ms}:{length}" for ms, length in reads) + "\n")

if __name__ == "__main__":
    main()
