#!/usr/bin/env python3
"""Runs phosphor in a pseudo-terminal that speaks the kitty keyboard protocol.

It answers the protocol query (CSI ? u), the synchronized-output mode query (CSI ? 2026 $ p;
not with --silent-modes, which plays a terminal that ignores DECRQM) and DA1 (CSI c) the way
kitty does, sends key presses
and releases as kitty escapes, keeps a small model of the screen from the bytes phosphor writes
(cursor moves, colours, text), and prints a JSON verdict. Used by KittyProtocolTests.swift.

usage: kitty_pty.py PHOSPHOR ROM HOME [--silent-modes]
"""
import json, os, pty, re, select, signal, struct, sys, termios, fcntl, time

COLUMNS, ROWS = 100, 40
binary, rom, home = sys.argv[1:4]
answer_mode_queries = "--silent-modes" not in sys.argv[4:]

pid, master = pty.fork()
if pid == 0:
    os.environ.update({"PHOSPHOR_HOME": home, "LANG": "C.UTF-8", "TERM": "xterm-256color", "COLORTERM": "truecolor"})
    # No link pacing: this terminal model is a Python loop, slow on a loaded machine, and the
    # pacer would rightly take it for a slow link and drop colours, so the picture after the
    # release would no longer equal the idle one (pacing has its own tests: LinkPacerTests).
    os.execv(binary, [binary, "play", "--no-audio", "--no-link-pacing", rom])

fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
os.kill(pid, signal.SIGWINCH)

screen = [[(" ", None) for _ in range(COLUMNS)] for _ in range(ROWS)]
state = {"row": 0, "col": 0, "fg": None, "bg": None, "flags": 0, "pushed": False, "popped": False}
output = bytearray()
pending = b""
SEQUENCE = re.compile(rb"\x1b\[([?<>=]?)([0-9;:]*)([ -/]*)([@-~])|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x1b\][^\x07]*\x07")

def reply(data):
    os.write(master, data)

def apply(chunk):
    """Feeds phosphor's output into the screen model and answers queries."""
    global pending
    data = pending + chunk
    pending = b""
    i = 0
    text = bytearray()
    def put(ch):
        # Cells as they look: `▄` is `▀` with the colours swapped, `█` and a one-colour `▀` a space.
        fg, bg = state["fg"], state["bg"]
        if ch == "\u2584":
            ch, fg, bg = "\u2580", bg, fg
        elif ch == "\u2588":
            ch, bg = " ", fg
        if ch == "\u2580" and fg == bg:
            ch = " "
        if 0 <= state["row"] < ROWS and 0 <= state["col"] < COLUMNS:
            screen[state["row"]][state["col"]] = (ch, bg if ch == " " else (fg, bg))
        state["col"] += 1
    def flush_text():
        for ch in text.decode("utf-8", "replace"):
            state["last_raw"] = ch
            put(ch)
        text.clear()
    while i < len(data):
        byte = data[i]
        if byte == 0x1B:
            match = SEQUENCE.match(data, i)
            if not match:
                if len(data) - i < 64:
                    pending = data[i:]
                    break
                i += 1
                continue
            flush_text()
            i = match.end()
            if match.group(4) is None:
                continue
            private, params, final = match.group(1), match.group(2).decode(), match.group(4)
            numbers = [int(p) if p.isdigit() else 0 for p in params.replace(":", ";").split(";")] if params else []
            if final == b"u" and private == b"?":
                reply(b"\x1b[?%du" % state["flags"])
            elif final == b"u" and private == b">":
                state["flags"] = numbers[0] if numbers else 0
                state["pushed"] = True
            elif final == b"u" and private == b"<":
                state["flags"] = 0
                state["popped"] = True
            elif final == b"p" and private == b"?" and match.group(3) == b"$" and answer_mode_queries:
                reply(b"\x1b[?%d;%d$y" % (numbers[0], 2 if numbers[0] == 2026 else 0))
            elif final == b"c" and private == b"":
                reply(b"\x1b[?62;22c")
            elif final == b"H" and private == b"":
                state["row"] = (numbers[0] if numbers else 1) - 1
                state["col"] = (numbers[1] if len(numbers) > 1 else 1) - 1
            elif final == b"C":
                state["col"] += numbers[0] if numbers else 1
            elif final == b"n" and private == b"" and numbers == [6]:
                reply(b"\x1b[%d;1R" % ROWS)    # the link pacer's probe: answered at once
            elif final == b"b" and private == b"" and state.get("last_raw"):
                for _ in range(numbers[0] if numbers else 1):
                    put(state["last_raw"])   # REP
            elif final in (b"P", b"@") and private == b"" and 0 <= state["row"] < ROWS:
                count = numbers[0] if numbers else 1
                line = screen[state["row"]]
                blank = (" ", state["bg"])
                col = state["col"]
                if final == b"P":
                    line[col:] = line[col + count:] + [blank] * min(count, COLUMNS - col)
                else:
                    line[col:] = ([blank] * count + line[col:])[:COLUMNS - col]
            elif final == b"m" and private == b"":
                codes = numbers or [0]
                k = 0
                while k < len(codes):
                    code = codes[k]; k += 1
                    if code == 0: state["fg"] = state["bg"] = None
                    elif code == 39: state["fg"] = None
                    elif code == 49: state["bg"] = None
                    elif code in (38, 48) and k < len(codes):
                        mode = codes[k]; k += 1
                        if mode == 2: value = tuple(codes[k:k + 3]); k += 3
                        else: value = codes[k] if k < len(codes) else 0; k += 1
                        state["fg" if code == 38 else "bg"] = value
            elif final == b"J":
                for r in range(ROWS):
                    for c in range(COLUMNS):
                        screen[r][c] = (" ", None)
            continue
        if byte == 0x0D:
            flush_text(); state["col"] = 0
        elif byte == 0x0A:
            flush_text(); state["row"] += 1
        elif byte < 0x20:
            flush_text()
        else:
            text.append(byte)
        i += 1
    flush_text()

def pump(seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        ready, _, _ = select.select([master], [], [], max(0, deadline - time.time()))
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return False
            if not chunk:
                return False
            output.extend(chunk)
            apply(chunk)
    return True

def picture():
    """The game area (every row but the status bar)."""
    return [tuple(row) for row in screen[:ROWS - 1]]

def picture_cells(rows):
    """Cells showing colour: half blocks, and blanks with a background (a one-colour cell)."""
    return sum(cell[0] == "\u2580" or (cell[0] == " " and cell[1] is not None) for row in rows for cell in row)

def pump_until_settled(limit):
    """Reads until the picture is drawn (over 200 half blocks) and two looks 0.3 s apart agree,
    or `limit` seconds pass: a polling wait for the idle picture instead of a fixed one."""
    deadline = time.time() + limit
    previous = None
    while time.time() < deadline:
        if not pump(0.3):
            return
        current = picture()
        if current == previous and picture_cells(current) > 200:
            return
        previous = current

A_KEY = 120  # 'x' is A in the default key map
pump_until_settled(10.0)
idle = picture()
reply(b"\x1b[%d;1:1u" % A_KEY)          # press A, never repeated
pump(0.6)
pressed = picture()
pump(1.6)                               # far past any autorepeat-based hold window
still_pressed = picture()
reply(b"\x1b[%d;1:3u" % A_KEY)          # release A
# Polls instead of one fixed wait: on a loaded machine the next drawn frame can come late. A
# release that does not let go never brings the idle picture back within the limit.
release_deadline = time.time() + 3.0
while time.time() < release_deadline and picture() != idle:
    if not pump(0.1):
        break
released = picture()
os.kill(pid, signal.SIGTERM)
pump(2.0)
_, status = os.waitpid(pid, 0)
print(json.dumps({
    "pushed": state["pushed"],
    "changed_on_press": pressed != idle,
    "held_without_repeats": still_pressed == pressed,
    "back_after_release": released == idle,
    "popped": state["popped"],
    "half_blocks": picture_cells(idle),
    "synchronized_begins": output.count(b"\x1b[?2026h"),
    "synchronized_ends": output.count(b"\x1b[?2026l"),
    "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status),
}))
