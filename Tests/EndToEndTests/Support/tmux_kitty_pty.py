#!/usr/bin/env python3
"""Runs phosphor inside tmux inside a pseudo-terminal that answers like kitty does.

The outer "terminal" answers the kitty graphics query (a=q) with OK and DA1 like kitty, and
records what tmux sends it. With `allow-passthrough on` (PASSTHROUGH=on) phosphor's kitty
commands reach it through tmux's passthrough; off, tmux drops them. After the picture has had
time to come up, Esc opens the pause menu (which must take the image down), then tmux is
stopped. Prints a JSON verdict. Used by TmuxPassthroughTests.swift.

With `split`, phosphor runs in the right-hand pane of a window split at column 50 (the left pane
runs `sleep`), and the verdict also has where the images were placed on the outer terminal (the
cursor move before each `a=T`, zero-based) and where phosphor's log says it placed them in its pane.

usage: tmux_kitty_pty.py PHOSPHOR ROM HOME SOCKET on|off [split]
"""
import json, os, pty, re, select, signal, struct, subprocess, sys, termios, fcntl, time

binary, rom, home, socket, passthrough = sys.argv[1:6]
split = sys.argv[6:7] == ["split"]
config = os.path.join(home, "tmux.conf")
with open(config, "w") as file:
    file.write("set -g allow-passthrough %s\nset -g status off\nset -sg escape-time 10\n" % passthrough)

pid, master = pty.fork()
if pid == 0:
    os.environ.update({"PHOSPHOR_HOME": home, "LANG": "C.UTF-8", "TERM": "xterm-256color"})
    os.environ.pop("TMUX", None)
    game = "%s play --no-audio %s" % (binary, rom)
    panes = ["sleep 120", ";", "split-window", "-h", "-l", "50", game] if split else [game]
    os.execvp("tmux", ["tmux", "-L", socket, "-f", config, "new-session", "-x", "100", "-y", "40"] + panes)
fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 800, 1000))

output = bytearray()
QUERY = re.compile(rb"\x1b_G(i=\d+)[^\x1b]*a=q[^\x1b]*\x1b\\")

def pump(seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        ready, _, _ = select.select([master], [], [], 0.05)
        if not ready:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:
            return
        output.extend(chunk)
        for match in QUERY.finditer(chunk):
            os.write(master, b"\x1b_G" + match.group(1) + b";OK\x1b\\")
        for _ in range(chunk.count(b"\x1b[c")):
            os.write(master, b"\x1b[?62;c")

def commands(data):
    return [dict(item.split("=", 1) for item in keys.decode().split(",") if "=" in item)
            for keys in re.findall(rb"\x1b_G([^;\x1b]*)", data)]

# Until the game's picture has gone out (as an image with passthrough on, as half blocks with it
# off) and had a moment more, or 20 s: a loaded machine starts tmux and phosphor slowly.
start = time.time()
while time.time() - start < 20.0:
    pump(0.5)
    drawn = "\u2580".encode() in output if passthrough == "off" else any(c.get("a") == "T" for c in commands(bytes(output)))
    if drawn:
        pump(2.0)
        break
before_menu = len(output)
os.write(master, b"\x1b")
pump(2.0)
subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
pump(1.0)
try:
    os.kill(pid, signal.SIGTERM)
except ProcessLookupError:
    pass
os.waitpid(pid, 0)

placed = [c for c in commands(bytes(output[:before_menu])) if c.get("a") == "T"]
after = commands(bytes(output[before_menu:]))
deleted = [i for i, c in enumerate(after) if c.get("a") == "d" and c.get("i") == "7100"]
log = open(os.path.join(home, "data", "phosphor.log"), encoding="utf-8", errors="replace").read() \
    if os.path.exists(os.path.join(home, "data", "phosphor.log")) else ""
in_pane = [[int(y), int(x)] for x, y in re.findall(r"pixels: .* screen 0 at cells \d+x\d+\+(\d+)\+(\d+)", log)]
outer = [[int(row) - 1, int(column) - 1] for row, column in
         re.findall(rb"\x1b\[(\d+);(\d+)H\x1b_G[^;\x1b]*a=T", bytes(output[:before_menu]))]
print(json.dumps({
    "placed_at_outer": outer,
    "placed_in_pane": in_pane,
    "queries_reached_outer": len(QUERY.findall(bytes(output))),
    "images_placed": len(placed),
    "image_ids": sorted({c.get("i", "") for c in placed}),
    "deleted_under_menu": bool(deleted),
    "placed_after_delete": bool(deleted) and any(c.get("a") == "T" for c in after[deleted[-1]:]),
}))
