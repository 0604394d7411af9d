/*
 * libsixel_bench: encodes the same raw frame directories as `phosphor-bench pixels` with
 * Debian's libsixel (1.10), for the sixel rows of the pixel table. Per frame, timed: XRGB8888 to
 * RGB888, a nearest-neighbour whole-scale enlargement (libsixel has no scale-while-encoding),
 * a new 256-colour dither built from the frame (sixel_dither_initialize: libsixel's median cut,
 * no diffusion, so flat colours stay flat) and sixel_encode into a byte counter. Prints
 *
 *   scene <TAB> scale <TAB> method <TAB> CPU µs/frame <TAB> wall µs/frame <TAB> bytes/frame
 *
 * (times: medians over every frame of every pass, in the thread's CPU time and in wall time, as
 * `phosphor-bench pixels` measures its own rows)
 *
 * Usage: libsixel_bench [--passes N] [--scales 1,3] DIR...
 */
#include <sixel/sixel.h>
#include "../frame_file.h"
#include <errno.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int width, height;
    uint8_t *xrgb; /* width * height * 4, little-endian 0x00RRGGBB */
} Frame;

static Frame load(const char *path) {
    Frame frame = { 0, 0, NULL };
    frame.xrgb = load_xrgb(path, &frame.width, &frame.height);
    return frame;
}

static int count_bytes(char *data, int size, void *priv) {
    (void)data;
    *(size_t *)priv += (size_t)size;
    return size;
}

static uint64_t thread_cpu_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) die("clock_gettime failed", strerror(errno));
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The median of `count` samples (sorts them). */
static double median_us(uint64_t *samples, size_t count) {
    qsort(samples, count, sizeof *samples, compare_u64);
    if (count % 2) return (double)samples[count / 2] / 1000.0;
    return ((double)samples[count / 2 - 1] + (double)samples[count / 2]) / 2000.0;
}

static void bench(const char *scene, Frame *frames, size_t count, int scale, int passes) {
    int width = frames[0].width * scale, height = frames[0].height * scale;
    uint8_t *rgb = malloc((size_t)width * (size_t)height * 3);
    if (!rgb) die("out of memory", NULL);
    size_t bytes = 0;
    sixel_output_t *output = NULL;
    if (SIXEL_FAILED(sixel_output_new(&output, count_bytes, &bytes, NULL))) die("sixel_output_new failed", NULL);
    size_t samples = count * (size_t)passes, sample = 0;
    uint64_t *cpu = malloc(samples * sizeof *cpu), *wall = malloc(samples * sizeof *wall);
    if (!cpu || !wall) die("out of memory", NULL);
    size_t first_pass_bytes = 0;
    for (int pass = 0; pass < passes; pass++) {
        bytes = 0;
        for (size_t f = 0; f < count; f++) {
            const Frame *frame = &frames[f];
            uint64_t start = now_ns(), start_cpu = thread_cpu_ns();
            for (int y = 0; y < height; y++) {
                const uint8_t *row = frame->xrgb + (size_t)(y / scale) * (size_t)frame->width * 4;
                uint8_t *out = rgb + (size_t)y * (size_t)width * 3;
                for (int x = 0; x < width; x++) {
                    const uint8_t *pixel = row + (x / scale) * 4;
                    out[x * 3] = pixel[2];
                    out[x * 3 + 1] = pixel[1];
                    out[x * 3 + 2] = pixel[0];
                }
            }
            sixel_dither_t *dither = NULL;
            if (SIXEL_FAILED(sixel_dither_new(&dither, 256, NULL))) die("sixel_dither_new failed", NULL);
            if (SIXEL_FAILED(sixel_dither_initialize(dither, rgb, width, height, SIXEL_PIXELFORMAT_RGB888,
                                                     SIXEL_LARGE_AUTO, SIXEL_REP_AUTO, SIXEL_QUALITY_AUTO)))
                die("sixel_dither_initialize failed", NULL);
            sixel_dither_set_diffusion_type(dither, SIXEL_DIFFUSE_NONE);
            if (SIXEL_FAILED(sixel_encode(rgb, width, height, 3, dither, output))) die("sixel_encode failed", NULL);
            sixel_dither_unref(dither);
            wall[sample] = now_ns() - start;
            cpu[sample] = thread_cpu_ns() - start_cpu;
            sample++;
        }
        if (pass == 0) first_pass_bytes = bytes;
    }
    printf("%s\t%d\tsixel, libsixel 1.10 (256 colours)\t%.0f\t%.0f\t%.0f\n", scene, scale, median_us(cpu, samples),
           median_us(wall, samples), (double)first_pass_bytes / (double)count);
    free(cpu);
    free(wall);
    sixel_output_unref(output);
    free(rgb);
}

int main(int argc, char **argv) {
    bench_program = "libsixel_bench";
    int passes = 3;
    const char *scales = "1,3";
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--passes") == 0 && a + 1 < argc) { passes = atoi(argv[++a]); if (passes < 1) die("bad --passes", argv[a]); continue; }
        if (strcmp(argv[a], "--scales") == 0 && a + 1 < argc) { scales = argv[++a]; continue; }
        char pattern[4096];
        snprintf(pattern, sizeof pattern, "%s/frame-*.xrgb", argv[a]);
        glob_t matches;
        if (glob(pattern, 0, NULL, &matches) != 0 || matches.gl_pathc == 0) die("no frame-*.xrgb files in", argv[a]);
        Frame *frames = calloc(matches.gl_pathc, sizeof *frames);
        if (!frames) die("out of memory", NULL);
        for (size_t i = 0; i < matches.gl_pathc; i++) frames[i] = load(matches.gl_pathv[i]);
        const char *scene = strrchr(argv[a], '/');
        scene = scene && scene[1] ? scene + 1 : argv[a];
        for (const char *cursor = scales; *cursor;) {
            int scale = 0, consumed = 0;
            if (sscanf(cursor, "%d%n", &scale, &consumed) != 1 || scale < 1) die("bad --scales", scales);
            bench(scene, frames, matches.gl_pathc, scale, passes);
            cursor += consumed;
            if (*cursor == ',') cursor++;
        }
        for (size_t i = 0; i < matches.gl_pathc; i++) free(frames[i].xrgb);
        free(frames);
        globfree(&matches);
    }
    return 0;
}
