#!/usr/bin/env python3
"""What a recorded play run would cost if every 24-bit colour were a redefined palette entry.

Reads the bytes a program wrote to its terminal (`pty_run.py --save`), rewrites each SGR colour
`38;2;R;G;B` / `48;2;R;G;B` as `38;5;N` / `48;5;N` with N a slot (16 up) given to each distinct
colour in order of first use, and adds one `OSC 4;N;rgb:RR/GG/BB ST` per slot. Prints the bytes
before and after: an estimate for issue 13's bytes aim (the cell plan is not redone, so the real
figure would be a little lower still). Usage: palette_estimate.py RECORDING
"""
import re
import sys

SGR = re.compile(rb"\x1b\[([0-9;]*)m")


def main():
    data = open(sys.argv[1], "rb").read()
    slots = {}
    definitions = 0
    saved = 0
    colours = 0

    def rewrite(match):
        nonlocal definitions, saved, colours
        parameters = match.group(1).split(b";")
        out = []
        index = 0
        while index < len(parameters):
            parameter = parameters[index]
            if parameter in (b"38", b"48") and index + 4 < len(parameters) and parameters[index + 1] == b"2":
                rgb = tuple(int(value) for value in parameters[index + 2:index + 5])
                colours += 1
                if rgb not in slots:
                    slots[rgb] = 16 + len(slots)
                    definitions += len(b"\x1b]4;%d;rgb:%02x/%02x/%02x\x1b\\" % ((slots[rgb],) + rgb))
                out += [parameter, b"5", str(slots[rgb]).encode()]
                index += 5
            else:
                out.append(parameter)
                index += 1
        shorter = b"\x1b[" + b";".join(out) + b"m"
        saved += len(match.group(0)) - len(shorter)
        return shorter

    SGR.sub(rewrite, data)
    after = len(data) - saved + definitions
    print(f"bytes {len(data)}; 24-bit colours sent {colours}, distinct {len(slots)}; "
          f"palette form {after} bytes ({after / len(data):.3f} of these), of which definitions {definitions}")


if __name__ == "__main__":
    main()
