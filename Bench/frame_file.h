/*
 * What the C benchmarks (Bench/render/chafa_bench.c, Bench/pixels/libsixel_bench.c) share:
 * failing with one line, a monotonic clock, and reading the frame files of
 * `phosphor-bench` (frame-NNNN.xrgb = width, height as uint32 little-endian, then XRGB8888
 * pixels). Each program sets `bench_program` to its name first.
 */
#ifndef PHOSPHOR_BENCH_FRAME_FILE_H
#define PHOSPHOR_BENCH_FRAME_FILE_H
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *bench_program = "bench";

static void die(const char *message, const char *detail) {
    fprintf(stderr, "%s: %s%s%s\n", bench_program, message, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) die("clock_gettime failed", strerror(errno));
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint32_t read_u32le(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The XRGB8888 pixels of one frame file (malloc'd; bytes B, G, R, X per pixel). */
static uint8_t *load_xrgb(const char *path, int *width, int *height) {
    FILE *file = fopen(path, "rb");
    if (!file) die("cannot open", path);
    uint8_t header[8];
    if (fread(header, 1, 8, file) != 8) die("short header in", path);
    *width = (int)read_u32le(header);
    *height = (int)read_u32le(header + 4);
    if (*width <= 0 || *height <= 0 || *width > 4096 || *height > 4096) die("bad size in", path);
    size_t count = (size_t)*width * (size_t)*height;
    uint8_t *xrgb = malloc(count * 4);
    if (!xrgb) die("out of memory", path);
    if (fread(xrgb, 4, count, file) != count) die("short pixel data in", path);
    fclose(file);
    return xrgb;
}
#endif
