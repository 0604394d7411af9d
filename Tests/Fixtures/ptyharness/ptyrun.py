#!/usr/bin/env python3
"""ptyrun: runs a program in a pseudo-terminal for Phosphor's reliability tests.

It plays the terminal: answers DA1 (CSI c) with CSI ? 62 c and, with --kitty, keeps a kitty
keyboard-flags stack (CSI > N u pushes, CSI < u pops, CSI ? u is answered with the top flags).
It follows a plan of steps (JSON list on --plan), records every output byte to --output, and
prints one JSON line: exit status or signal, the pty's termios after the exit (echo, icanon),
the final state of the DEC private modes seen in the output, the kitty stack, and step timings.

Steps: {"wait": TEXT, "timeout": S}   wait until TEXT appears in output after the last match
       {"sleep": S}                    keep reading output for S seconds
       {"wait_file": PATH, "offset": N, "hex": HEX, "timeout": S}
                                       wait until the file's bytes at N are HEX (polled while reading output)
       {"send": TEXT} / {"send_hex": HEX}  type bytes
       {"signal": "TERM"}              signal the child
       {"resize": [ROWS, COLS]}        set the window size (the kernel sends SIGWINCH)
       {"storm": S, "sizes": [[R, C], ...]}  resize as fast as possible for S seconds
       {"hangup": true}                close the terminal (the kernel sends SIGHUP)
       {"exit": S}                     wait up to S seconds for the child to end
"""
import argparse, fcntl, json, os, re, select, signal, struct, subprocess, sys, termios, time

parser = argparse.ArgumentParser()
parser.add_argument("--plan", required=True)
parser.add_argument("--output", required=True)
parser.add_argument("--rows", type=int, default=30)
parser.add_argument("--cols", type=int, default=100)
parser.add_argument("--kitty", action="store_true")
parser.add_argument("command", nargs=argparse.REMAINDER)
args = parser.parse_args()
plan = json.loads(args.plan)
command = args.command[1:] if args.command and args.command[0] == "--" else args.command

master, slave = os.openpty()
def set_size(rows, cols):
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
set_size(args.rows, args.cols)

def become_terminal_owner():
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)

child = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                         preexec_fn=become_terminal_owner, close_fds=True)
output = bytearray()
scan_from = 0      # where the terminal emulation has parsed up to
match_from = 0     # where the next "wait" starts looking
kitty_stack = []
kitty_pushes = 0
modes = {}
modes_ever = {}
answers = []
query = re.compile(rb"\x1b\[([?<>=]?)([0-9;]*)([a-zA-Z])")

def emulate():
    """Parses new complete control sequences: answers queries, tracks modes and the kitty stack."""
    global scan_from, kitty_pushes
    for m in query.finditer(output, scan_from):
        prefix, params, final = m.group(1), m.group(2), m.group(3)
        if final == b"c" and prefix == b"" and params in (b"", b"0"):
            os.write(master, b"\x1b[?62c"); answers.append("DA1")
        elif final == b"u" and args.kitty:
            if prefix == b"?":
                os.write(master, b"\x1b[?%du" % (kitty_stack[-1] if kitty_stack else 0)); answers.append("kitty?")
            elif prefix == b">":
                kitty_stack.append(int(params or b"0")); kitty_pushes += 1
            elif prefix == b"<":
                for _ in range(int(params or b"1")):
                    if kitty_stack: kitty_stack.pop()
        elif prefix == b"?" and final in (b"h", b"l"):
            for number in params.split(b";"):
                if number:
                    modes[int(number)] = final == b"h"
                    modes_ever.setdefault(int(number), set()).add(final.decode())
        scan_from = m.end()
    # Keep an unfinished sequence at the end for the next read.
    tail = output.rfind(b"\x1b", scan_from)
    if tail < 0 or len(output) - tail > 64: scan_from = max(scan_from, len(output) - 1 if tail < 0 else scan_from)

def pump(timeout):
    if master < 0:
        time.sleep(timeout); return child.poll() is None
    ready, _, _ = select.select([master], [], [], timeout)
    if ready:
        try:
            data = os.read(master, 65536)
        except OSError:
            return False
        if not data: return False
        output.extend(data)
        emulate()
    return True

def drain_after_exit():
    while master >= 0:
        ready, _, _ = select.select([master], [], [], 0.2)
        if not ready: return
        try:
            data = os.read(master, 65536)
        except OSError:
            return
        if not data: return
        output.extend(data)
        emulate()

timings = []
failure = None
for step in plan:
    started = time.monotonic()
    if "wait" in step:
        needle = step["wait"].encode()
        deadline = started + step.get("timeout", 10)
        while True:
            found = output.find(needle, match_from)
            if found >= 0:
                match_from = found + len(needle); break
            if time.monotonic() > deadline or child.poll() is not None and not pump(0.05):
                failure = "timed out waiting for %r" % step["wait"]; break
            pump(0.05)
        timings.append(round(time.monotonic() - started, 3))
        if failure: break
    elif "wait_file" in step:
        wanted = bytes.fromhex(step["hex"]); offset = step.get("offset", 0)
        deadline = started + step.get("timeout", 10)
        def file_matches():
            try:
                with open(step["wait_file"], "rb") as f:
                    f.seek(offset); return f.read(len(wanted)) == wanted
            except OSError:
                return False
        while not file_matches():
            if time.monotonic() > deadline or child.poll() is not None:
                failure = "timed out waiting for %s to hold %s at %d" % (step["wait_file"], step["hex"], offset); break
            pump(0.01)
        timings.append(round(time.monotonic() - started, 3))
        if failure: break
    elif "sleep" in step:
        while time.monotonic() - started < step["sleep"]:
            pump(0.02)
    elif "send" in step:
        os.write(master, step["send"].encode())
    elif "send_hex" in step:
        os.write(master, bytes.fromhex(step["send_hex"]))
    elif "signal" in step:
        child.send_signal(getattr(signal, "SIG" + step["signal"]))
    elif "resize" in step:
        set_size(*step["resize"])
    elif "storm" in step:
        sizes = step["sizes"]; count = 0
        while time.monotonic() - started < step["storm"]:
            set_size(*sizes[count % len(sizes)]); count += 1
            if count % 4 == 0: pump(0)
        timings.append(count)
    elif "hangup" in step:
        # The terminal goes away (a closed SSH session): close our side of the pty.
        os.close(master); master = -1
    elif "exit" in step:
        deadline = started + step["exit"]
        while child.poll() is None and time.monotonic() < deadline:
            pump(0.05)
        if child.poll() is None:
            failure = "did not exit"; break
    match_from = max(match_from, 0)

if child.poll() is None:
    child.kill(); child.wait()
drain_after_exit()
try:
    attributes = termios.tcgetattr(slave)
    pending = struct.unpack("i", fcntl.ioctl(slave, termios.FIONREAD, b"\0\0\0\0"))[0]
except (OSError, termios.error):  # hung up
    attributes = [0, 0, 0, 0]; pending = 0
with open(args.output, "wb") as f:
    f.write(output)
code = child.returncode
print(json.dumps({
    "exit": code if code >= 0 else None,
    "signal": -code if code < 0 else None,
    "failure": failure,
    "echo": bool(attributes[3] & termios.ECHO),
    "icanon": bool(attributes[3] & termios.ICANON),
    "isig": bool(attributes[3] & termios.ISIG),
    "pending_input": pending,
    "modes": {str(k): v for k, v in modes.items()},
    "modes_ever": {str(k): sorted(v) for k, v in modes_ever.items()},
    "kitty_stack": kitty_stack,
    "kitty_pushes": kitty_pushes,
    "answers": answers,
    "timings": timings,
    "bytes": len(output),
}))
