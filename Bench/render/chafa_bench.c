/*
 * chafa_bench: renders the same raw frame directories as `phosphor-bench render` with libchafa,
 * restricted to the upper half block (U+2580), truecolor, work factor 0, and prints one
 * tab-separated line per directory and canvas size:
 *
 *   chafa <TAB> scene <TAB> columns <TAB> rows <TAB> frames <TAB> microseconds/frame <TAB> bytes/frame
 *
 * Frame files: frame-NNNN.xrgb = width, height (uint32 little-endian) + XRGB8888 pixels.
 * The picture is fitted into the canvas keeping its aspect (cells 1:2), as Phosphor does.
 * Timed per frame: chafa_canvas_draw_all_pixels + chafa_canvas_print (chafa always emits a
 * full frame). Pixels are converted to RGB8 once at load time, outside the timing.
 *
 * Usage: chafa_bench [--passes N] [--sizes 128x60,256x120] DIR...
 */
#include <chafa.h>
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
    uint8_t *rgb; /* width * height * 3 */
} Frame;

static Frame load_frame(const char *path) {
    Frame frame = { 0, 0, NULL };
    uint8_t *xrgb = load_xrgb(path, &frame.width, &frame.height);
    size_t count = (size_t)frame.width * (size_t)frame.height;
    frame.rgb = malloc(count * 3);
    if (!frame.rgb) die("out of memory", path);
    for (size_t i = 0; i < count; i++) { /* little-endian XRGB: bytes B, G, R, X */
        frame.rgb[i * 3] = xrgb[i * 4 + 2];
        frame.rgb[i * 3 + 1] = xrgb[i * 4 + 1];
        frame.rgb[i * 3 + 2] = xrgb[i * 4];
    }
    free(xrgb);
    return frame;
}

static void bench(const char *scene, Frame *frames, size_t frame_count, int columns, int rows, int passes,
                  ChafaTermInfo *term_info) {
    /* Fit the picture into the canvas, keeping aspect with cells half as wide as tall. */
    gint width = columns, height = rows;
    chafa_calc_canvas_geometry(frames[0].width, frames[0].height, &width, &height, 0.5f, TRUE, FALSE);

    ChafaSymbolMap *symbols = chafa_symbol_map_new();
    chafa_symbol_map_add_by_range(symbols, 0x2580, 0x2580); /* ▀ only */
    ChafaCanvasConfig *config = chafa_canvas_config_new();
    chafa_canvas_config_set_geometry(config, width, height);
    chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR);
    chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS);
    chafa_canvas_config_set_symbol_map(config, symbols);
    chafa_canvas_config_set_work_factor(config, 0.0f);
    ChafaCanvas *canvas = chafa_canvas_new(config);
    if (!canvas) die("chafa_canvas_new failed", scene);

    uint64_t elapsed = 0, bytes = 0;
    for (int pass = 0; pass < passes; pass++) {
        for (size_t i = 0; i < frame_count; i++) {
            uint64_t start = now_ns();
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGB8, frames[i].rgb, frames[i].width, frames[i].height,
                                         frames[i].width * 3);
            GString *text = chafa_canvas_print(canvas, term_info);
            elapsed += now_ns() - start;
            if (pass == 0) bytes += text->len;
            g_string_free(text, TRUE);
        }
    }
    printf("chafa\t%s\t%d\t%d\t%zu\t%.1f\t%.0f\n", scene, columns, rows, frame_count,
           (double)elapsed / 1000.0 / (double)(frame_count * (size_t)passes), (double)bytes / (double)frame_count);
    fflush(stdout);
    chafa_canvas_unref(canvas);
    chafa_canvas_config_unref(config);
    chafa_symbol_map_unref(symbols);
}

int main(int argc, char **argv) {
    bench_program = "chafa_bench";
    int passes = 2;
    const char *sizes = "128x60,256x120";
    gchar *environment[] = { "TERM=xterm-256color", "COLORTERM=truecolor", NULL };
    ChafaTermInfo *term_info = chafa_term_db_detect(chafa_term_db_get_default(), environment);
    if (!term_info) die("chafa_term_db_detect failed", NULL);

    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--passes") == 0 && a + 1 < argc) { passes = atoi(argv[++a]); if (passes < 1) die("bad --passes", argv[a]); continue; }
        if (strcmp(argv[a], "--sizes") == 0 && a + 1 < argc) { sizes = argv[++a]; continue; }

        char pattern[4096];
        snprintf(pattern, sizeof pattern, "%s/frame-*.xrgb", argv[a]);
        glob_t matches;
        if (glob(pattern, 0, NULL, &matches) != 0 || matches.gl_pathc == 0) die("no frame-*.xrgb files in", argv[a]);
        Frame *frames = calloc(matches.gl_pathc, sizeof *frames);
        if (!frames) die("out of memory", NULL);
        for (size_t i = 0; i < matches.gl_pathc; i++) frames[i] = load_frame(matches.gl_pathv[i]);

        const char *scene = strrchr(argv[a], '/');
        scene = scene && scene[1] ? scene + 1 : argv[a];
        const char *cursor = sizes;
        while (*cursor) {
            int columns = 0, rows = 0, consumed = 0;
            if (sscanf(cursor, "%dx%d%n", &columns, &rows, &consumed) != 2 || columns <= 0 || rows <= 0) die("bad --sizes", sizes);
            bench(scene, frames, matches.gl_pathc, columns, rows, passes, term_info);
            cursor += consumed;
            if (*cursor == ',') cursor++;
        }
        for (size_t i = 0; i < matches.gl_pathc; i++) free(frames[i].rgb);
        free(frames);
        globfree(&matches);
    }
    chafa_term_info_unref(term_info);
    return 0;
}
