#!/usr/bin/env python3
"""Write a "core only" variant of Bench/barecore.c: the lower bound for the headless benchmark.

    make_core_only.py Bench/barecore.c OUT.c

barecore converts every frame to XRGB8888 inside the video callback, as it arrives, so it
can hash the last one. That per-pixel loop is work a frontend does not have to do for
frames nobody looks at, and for fast cores with small frames it is a large share of
barecore's time. The variant returns from the video callback at once except during the
last retro_run, so it measures nothing but the core and still prints the same hash.

The source is changed by two exact text replacements; if barecore.c no longer has either
anchor, this exits with a one-line error and the benchmark leaves the column out.
"""

import sys

CALLBACK = ("static void video_refresh(const void *pixels, unsigned width, unsigned height, size_t pitch)\n{\n")
LOOP = "        core.run();\n"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make_core_only.py Bench/barecore.c OUT.c")
    source_path, out_path = sys.argv[1:]
    with open(source_path, encoding="utf-8") as file:
        source = file.read()
    for anchor in (CALLBACK, LOOP):
        if source.count(anchor) != 1:
            sys.exit(f"make_core_only.py: {source_path}: cannot find the place to patch ({anchor.splitlines()[0].strip()})")
    source = source.replace(CALLBACK, "static bool convert_this_frame; /* core-only variant: only the last frame */\n"
                            + CALLBACK + "    if (!convert_this_frame)\n        return;\n")
    source = source.replace(LOOP, "        convert_this_frame = frame + 1 >= frames;\n" + LOOP)
    with open(out_path, "w", encoding="utf-8") as file:
        file.write(source)


if __name__ == "__main__":
    main()
