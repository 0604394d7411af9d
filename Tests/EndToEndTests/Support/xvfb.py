"""What the real-terminal scripts share (real_terminal.py, xterm_outlines.py): tool checks, waiting,
and an Xvfb server on a free display."""

import os
import shutil
import subprocess
import sys
import time


def need(tool):
    """Exits 77 with `skip: <tool> is not installed` when the tool is missing."""
    if shutil.which(tool) is None:
        print(f"skip: {tool} is not installed")
        sys.exit(77)


def wait_for(condition, seconds, what):
    """The first truthy value of `condition()`, polled every 0.1 s; exits after `seconds`, saying
    what it waited for on standard output (the tests read only that: a failure then says why)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    print(f"timed out waiting for {what}", flush=True)
    raise SystemExit(1)


def start_xvfb(size):
    """Xvfb on the first free display from :140, a screen of `size` ("1024x768"), once it listens.
    Returns (process, display); the caller terminates the process."""
    display = None
    for number in range(140, 200):
        if not os.path.exists(f"/tmp/.X11-unix/X{number}") and not os.path.exists(f"/tmp/.X{number}-lock"):
            display = f":{number}"
            break
    if display is None:
        raise SystemExit("no free X display between :140 and :199")
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: os.path.exists(f"/tmp/.X11-unix/X{display[1:]}"), 10, "Xvfb")
    except SystemExit:
        xvfb.terminate()
        raise
    return xvfb, display


def stop(process):
    """SIGTERM, then SIGKILL after 5 s (a terminal that ignores the polite way); None is fine."""
    if process is None:
        return
    process.terminate()
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()
