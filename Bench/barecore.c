/*
 * barecore: the smallest libretro frontend that can run a core headless.
 *
 * It is the speed baseline for `make bench` (nothing but the core's own work
 * is measured) and the verification harness for the test cartridges in Roms/
 * (frame hashes per held button, raw audio, battery RAM round trips).
 *
 * Build:  cc -O2 -o barecore Bench/barecore.c -ldl
 * Usage:  barecore [options] CORE.so ROM FRAMES [INPUT_FILE]
 *
 *   INPUT_FILE  lines "FRAME BUTTONS": from that 0-based retro_run index on,
 *               player 1 holds exactly BUTTONS ("a+b+up", or "-" for none).
 *               Button names: b y select start up down left right a x l r
 *               l2 r2 l3 r3. Lines starting with '#' are ignored.
 *   --audio-raw FILE   write every audio sample as raw S16LE stereo
 *   --sram FILE        load battery RAM from FILE before the first frame (if
 *                      it exists), write it back after the last frame
 *   --ppm FILE         write the final frame as a binary PPM picture
 *   --var KEY=VALUE    answer GET_VARIABLE for KEY with VALUE (repeatable);
 *                      every other key gets "false" (the core's default)
 *   --pace             run at the core's own frame rate (sleep until each
 *                      frame's deadline) instead of as fast as it can: the
 *                      core's CPU cost at 1x, the floor for a frontend playing it
 *   --replay FILE      after each frame, write the next piece of FILE (what a
 *                      frontend wrote to its terminal, cut after each cursor-
 *                      position request ESC [ 6 n) to stdout and wait for the
 *                      terminal's reply on stdin (made raw): the core plus the
 *                      terminal I/O of those bytes, with no picture computed.
 *                      The floor for a frontend that writes the same bytes.
 *
 * Last line printed: "frames=N fps=F hash=H samples=A" where H is the 64-bit
 * FNV-1a of the final frame as XRGB8888 little-endian rows without padding,
 * and A is the number of stereo audio frames the core produced.
 */
#define _DEFAULT_SOURCE /* mkdtemp, struct dirent */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <libretro-common/libretro.h>

/* ---- the core's entry points ------------------------------------------ */

static struct {
    void (*init)(void);
    void (*deinit)(void);
    void (*set_environment)(retro_environment_t);
    void (*set_video_refresh)(retro_video_refresh_t);
    void (*set_audio_sample)(retro_audio_sample_t);
    void (*set_audio_sample_batch)(retro_audio_sample_batch_t);
    void (*set_input_poll)(retro_input_poll_t);
    void (*set_input_state)(retro_input_state_t);
    void (*get_system_info)(struct retro_system_info *);
    void (*get_system_av_info)(struct retro_system_av_info *);
    void (*set_controller_port_device)(unsigned, unsigned);
    bool (*load_game)(const struct retro_game_info *);
    void (*unload_game)(void);
    void (*run)(void);
    void *(*get_memory_data)(unsigned);
    size_t (*get_memory_size)(unsigned);
} core;

static char directory[4096] = "/tmp";  /* system and save directory, made per run */
static bool directory_made;

/* Removes the per-run directory and whatever the core saved there (desmume
 * writes a .dsv): it was made fresh by mkdtemp, so nothing else is in it. */
static void remove_directory(void)
{
    if (!directory_made)
        return;
    DIR *listing = opendir(directory);
    if (listing != NULL) {
        char path[sizeof directory + 256];
        for (struct dirent *entry; (entry = readdir(listing)) != NULL;) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", directory, entry->d_name);
            unlink(path);
        }
        closedir(listing);
    }
    rmdir(directory);
    directory_made = false;
}

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("barecore: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    remove_directory();
    exit(1);
}

static void *load_symbol(void *library, const char *name)
{
    void *symbol = dlsym(library, name);
    if (symbol == NULL)
        die("dlsym(%s) failed: %s", name, dlerror());
    return symbol;
}

static void load_core(const char *path)
{
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL)
        die("dlopen(%s) failed: %s", path, dlerror());
#define LOAD(field, name) *(void **)&core.field = load_symbol(library, name)
    LOAD(init, "retro_init");
    LOAD(deinit, "retro_deinit");
    LOAD(set_environment, "retro_set_environment");
    LOAD(set_video_refresh, "retro_set_video_refresh");
    LOAD(set_audio_sample, "retro_set_audio_sample");
    LOAD(set_audio_sample_batch, "retro_set_audio_sample_batch");
    LOAD(set_input_poll, "retro_set_input_poll");
    LOAD(set_input_state, "retro_set_input_state");
    LOAD(get_system_info, "retro_get_system_info");
    LOAD(get_system_av_info, "retro_get_system_av_info");
    LOAD(set_controller_port_device, "retro_set_controller_port_device");
    LOAD(load_game, "retro_load_game");
    LOAD(unload_game, "retro_unload_game");
    LOAD(run, "retro_run");
    LOAD(get_memory_data, "retro_get_memory_data");
    LOAD(get_memory_size, "retro_get_memory_size");
#undef LOAD
}

/* ---- state shared with the callbacks (single thread) ------------------ */

static enum retro_pixel_format pixel_format = RETRO_PIXEL_FORMAT_0RGB1555;
static uint8_t *frame_xrgb;          /* last frame, XRGB8888, packed rows */
static unsigned frame_width, frame_height;
static uint64_t audio_frames;
static FILE *audio_file;
static uint16_t held_buttons;        /* bit n = RETRO_DEVICE_ID_JOYPAD n */
static char *variables[32];          /* "KEY=VALUE" strings from --var */
static int variable_count;

/* ---- environment ------------------------------------------------------ */

static void log_printf(enum retro_log_level level, const char *fmt, ...)
{
    if (level < RETRO_LOG_WARN)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("core: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

static bool environment(unsigned command, void *data)
{
    switch (command & ~RETRO_ENVIRONMENT_EXPERIMENTAL) {
    case RETRO_ENVIRONMENT_GET_CAN_DUPE:
        *(bool *)data = true;
        return true;
    case RETRO_ENVIRONMENT_GET_SYSTEM_DIRECTORY:
    case RETRO_ENVIRONMENT_GET_SAVE_DIRECTORY:
        *(const char **)data = directory;
        return true;
    case RETRO_ENVIRONMENT_GET_LOG_INTERFACE:
        ((struct retro_log_callback *)data)->log = log_printf;
        return true;
    case RETRO_ENVIRONMENT_SET_PIXEL_FORMAT: {
        enum retro_pixel_format format = *(const enum retro_pixel_format *)data;
        if (format > RETRO_PIXEL_FORMAT_RGB565)
            return false;
        pixel_format = format;
        return true;
    }
    case RETRO_ENVIRONMENT_GET_INPUT_BITMASKS & ~RETRO_ENVIRONMENT_EXPERIMENTAL:
        if (data != NULL)
            *(bool *)data = true;
        return true;
    case RETRO_ENVIRONMENT_GET_VARIABLE: {
        struct retro_variable *variable = data;
        size_t length = strlen(variable->key);
        for (int i = 0; i < variable_count; i++) {
            if (strncmp(variables[i], variable->key, length) == 0 && variables[i][length] == '=') {
                variable->value = variables[i] + length + 1;
                return true;
            }
        }
        return false;
    }
    default:
        return false;
    }
}

/* ---- video: keep the last frame as XRGB8888 --------------------------- */

static void video_refresh(const void *pixels, unsigned width, unsigned height, size_t pitch)
{
    if (pixels == NULL)
        return; /* duplicate of the previous frame */
    if (width != frame_width || height != frame_height) {
        free(frame_xrgb);
        frame_xrgb = malloc((size_t)width * height * 4);
        if (frame_xrgb == NULL)
            die("out of memory for a %ux%u frame", width, height);
        frame_width = width;
        frame_height = height;
    }
    for (unsigned y = 0; y < height; y++) {
        const uint8_t *row = (const uint8_t *)pixels + y * pitch;
        uint8_t *out = frame_xrgb + (size_t)y * width * 4;
        for (unsigned x = 0; x < width; x++, out += 4) {
            unsigned r, g, b;
            if (pixel_format == RETRO_PIXEL_FORMAT_XRGB8888) {
                uint32_t p = ((const uint32_t *)row)[x];
                r = (p >> 16) & 0xff; g = (p >> 8) & 0xff; b = p & 0xff;
            } else if (pixel_format == RETRO_PIXEL_FORMAT_RGB565) {
                uint16_t p = ((const uint16_t *)row)[x];
                unsigned r5 = p >> 11, g6 = (p >> 5) & 0x3f, b5 = p & 0x1f;
                r = (r5 << 3) | (r5 >> 2); g = (g6 << 2) | (g6 >> 4); b = (b5 << 3) | (b5 >> 2);
            } else {
                uint16_t p = ((const uint16_t *)row)[x];
                unsigned r5 = (p >> 10) & 0x1f, g5 = (p >> 5) & 0x1f, b5 = p & 0x1f;
                r = (r5 << 3) | (r5 >> 2); g = (g5 << 3) | (g5 >> 2); b = (b5 << 3) | (b5 >> 2);
            }
            out[0] = (uint8_t)b; out[1] = (uint8_t)g; out[2] = (uint8_t)r; out[3] = 0;
        }
    }
}

/* ---- audio: count, and optionally keep, every stereo frame ------------ */

static size_t audio_batch(const int16_t *samples, size_t frames)
{
    audio_frames += frames;
    if (audio_file != NULL && fwrite(samples, 4, frames, audio_file) != frames)
        die("fwrite(audio) failed: %s", strerror(errno));
    return frames;
}

static void audio_sample(int16_t left, int16_t right)
{
    int16_t pair[2] = { left, right };
    audio_batch(pair, 1);
}

/* ---- input ------------------------------------------------------------ */

static void input_poll(void) {}

static int16_t input_state(unsigned port, unsigned device, unsigned index, unsigned id)
{
    (void)index;
    if (port != 0 || (device & RETRO_DEVICE_MASK) != RETRO_DEVICE_JOYPAD)
        return 0;
    if (id == RETRO_DEVICE_ID_JOYPAD_MASK)
        return (int16_t)held_buttons;
    return id < 16 ? (held_buttons >> id) & 1 : 0;
}

struct input_change { unsigned long frame; uint16_t buttons; };

static uint16_t parse_buttons(const char *text, const char *file, unsigned line)
{
    static const char *names[16] = { "b", "y", "select", "start", "up", "down", "left", "right",
                                     "a", "x", "l", "r", "l2", "r2", "l3", "r3" };
    if (strcmp(text, "-") == 0)
        return 0;
    uint16_t mask = 0;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", text);
    for (char *save = NULL, *name = strtok_r(copy, "+", &save); name; name = strtok_r(NULL, "+", &save)) {
        unsigned id = 0;
        while (id < 16 && strcmp(names[id], name) != 0)
            id++;
        if (id == 16)
            die("%s:%u: unknown button '%s'", file, line, name);
        mask |= (uint16_t)(1u << id);
    }
    return mask;
}

static struct input_change *read_input_file(const char *path, size_t *count)
{
    FILE *file = fopen(path, "r");
    if (file == NULL)
        die("fopen(%s) failed: %s", path, strerror(errno));
    struct input_change *changes = NULL;
    size_t capacity = 0;
    *count = 0;
    char line[512];
    unsigned number = 0;
    while (fgets(line, sizeof line, file)) {
        number++;
        unsigned long frame;
        char buttons[256];
        if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
            continue;
        if (sscanf(line, "%lu %255s", &frame, buttons) != 2)
            die("%s:%u: expected 'FRAME BUTTONS'", path, number);
        if (*count > 0 && frame < changes[*count - 1].frame)
            die("%s:%u: frame %lu comes after frame %lu; frames must not decrease", path, number,
                frame, changes[*count - 1].frame);
        if (*count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            changes = realloc(changes, capacity * sizeof *changes);
            if (changes == NULL)
                die("out of memory reading %s", path);
        }
        changes[*count].frame = frame;
        changes[*count].buttons = parse_buttons(buttons, path, number);
        (*count)++;
    }
    fclose(file);
    return changes;
}

/* ---- files ------------------------------------------------------------ */

static uint8_t *read_whole_file(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL)
        die("fopen(%s) failed: %s", path, strerror(errno));
    if (fseek(file, 0, SEEK_END) != 0)
        die("fseek(%s) failed: %s", path, strerror(errno));
    long length = ftell(file);
    if (length < 0)
        die("ftell(%s) failed: %s", path, strerror(errno));
    rewind(file);
    uint8_t *bytes = malloc(length ? (size_t)length : 1);
    if (bytes == NULL || fread(bytes, 1, (size_t)length, file) != (size_t)length)
        die("fread(%s) failed", path);
    fclose(file);
    *size = (size_t)length;
    return bytes;
}

/* Writes a temporary file beside `path` and renames it over `path`, so a
 * failed write never leaves a half-written battery save behind. */
static void write_whole_file(const char *path, const void *bytes, size_t size)
{
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s.tmp-%ld", path, (long)getpid());
    FILE *file = fopen(temporary, "wb");
    if (file == NULL)
        die("fopen(%s) failed: %s", temporary, strerror(errno));
    if (fwrite(bytes, 1, size, file) != size || fflush(file) != 0 || fsync(fileno(file)) != 0) {
        int error = errno;
        fclose(file);
        unlink(temporary);
        die("fwrite(%s) failed: %s", temporary, strerror(error));
    }
    if (fclose(file) != 0 || rename(temporary, path) != 0) {
        int error = errno;
        unlink(temporary);
        die("rename(%s, %s) failed: %s", temporary, path, strerror(error));
    }
}

static void write_ppm(const char *path)
{
    FILE *file = fopen(path, "wb");
    if (file == NULL)
        die("fopen(%s) failed: %s", path, strerror(errno));
    fprintf(file, "P6\n%u %u\n255\n", frame_width, frame_height);
    for (size_t i = 0; i < (size_t)frame_width * frame_height; i++) {
        uint8_t rgb[3] = { frame_xrgb[i * 4 + 2], frame_xrgb[i * 4 + 1], frame_xrgb[i * 4] };
        fwrite(rgb, 1, 3, file);
    }
    if (fclose(file) != 0)
        die("fclose(%s) failed: %s", path, strerror(errno));
}

static uint64_t fnv1a(const uint8_t *bytes, size_t size)
{
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < size; i++) {
        hash ^= bytes[i];
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- --replay: a recorded terminal stream, one piece per frame ---------- */

static uint8_t *replay_bytes;
static size_t replay_size, replay_offset;

static void write_all(const uint8_t *bytes, size_t count)
{
    while (count > 0) {
        ssize_t written = write(STDOUT_FILENO, bytes, count);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            die("write(stdout) failed: %s", strerror(errno));
        bytes += written;
        count -= (size_t)written;
    }
}

/* Writes up to and including the next ESC [ 6 n, then reads until the reply's final 'R'. */
static void replay_next_piece(void)
{
    static const uint8_t request[] = { 0x1b, '[', '6', 'n' };
    if (replay_offset >= replay_size)
        return;
    size_t end = replay_size;
    bool asks = false;
    for (size_t i = replay_offset; i + sizeof request <= replay_size; i++) {
        if (memcmp(replay_bytes + i, request, sizeof request) == 0) {
            end = i + sizeof request;
            asks = true;
            break;
        }
    }
    write_all(replay_bytes + replay_offset, end - replay_offset);
    replay_offset = end;
    uint8_t byte = 0;
    while (asks && byte != 'R') {
        ssize_t got = read(STDIN_FILENO, &byte, 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            die("read(stdin) failed waiting for the cursor report");
    }
}

static void make_stdin_raw(void)
{
    struct termios mode;
    if (tcgetattr(STDIN_FILENO, &mode) != 0)
        die("tcgetattr(stdin) failed: %s (--replay needs a terminal)", strerror(errno));
    cfmakeraw(&mode);
    if (tcsetattr(STDIN_FILENO, TCSANOW, &mode) != 0)
        die("tcsetattr(stdin) failed: %s", strerror(errno));
}

/* ---- main ------------------------------------------------------------- */

static void usage(void)
{
    fputs("usage: barecore [--audio-raw FILE] [--sram FILE] [--ppm FILE] [--var KEY=VALUE]... [--pace] [--replay FILE] CORE.so ROM FRAMES [INPUT_FILE]\n", stderr);
    exit(2);
}

int main(int argc, char **argv)
{
    const char *audio_path = NULL, *sram_path = NULL, *ppm_path = NULL, *replay_path = NULL;
    const char *positional[4];
    int positional_count = 0;
    bool paced = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--audio-raw") == 0 && i + 1 < argc)
            audio_path = argv[++i];
        else if (strcmp(argv[i], "--sram") == 0 && i + 1 < argc)
            sram_path = argv[++i];
        else if (strcmp(argv[i], "--ppm") == 0 && i + 1 < argc)
            ppm_path = argv[++i];
        else if (strcmp(argv[i], "--var") == 0 && i + 1 < argc) {
            if (strchr(argv[i + 1], '=') == NULL || variable_count == 32)
                die("--var wants KEY=VALUE (at most 32), got '%s'", argv[i + 1]);
            variables[variable_count++] = argv[++i];
        }
        else if (strcmp(argv[i], "--pace") == 0)
            paced = true;
        else if (strcmp(argv[i], "--replay") == 0 && i + 1 < argc)
            replay_path = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1] == '-')
            usage();
        else if (positional_count < 4)
            positional[positional_count++] = argv[i];
        else
            usage();
    }
    if (positional_count < 3)
        usage();
    const char *core_path = positional[0], *rom_path = positional[1];
    char *end;
    unsigned long frames = strtoul(positional[2], &end, 10);
    if (end == positional[2] || *end != '\0')
        die("FRAMES must be a number, got '%s'", positional[2]);
    size_t change_count = 0;
    struct input_change *changes = positional_count == 4 ? read_input_file(positional[3], &change_count) : NULL;

    const char *tmp = getenv("TMPDIR");
    snprintf(directory, sizeof directory, "%s/barecore-XXXXXX", tmp ? tmp : "/tmp");
    if (mkdtemp(directory) == NULL)
        die("mkdtemp(%s) failed: %s", directory, strerror(errno));
    directory_made = true;

    if (audio_path != NULL && (audio_file = fopen(audio_path, "wb")) == NULL)
        die("fopen(%s) failed: %s", audio_path, strerror(errno));

    if (replay_path != NULL) {
        replay_bytes = read_whole_file(replay_path, &replay_size);
        make_stdin_raw();
    }

    struct retro_game_info game = { .path = rom_path };
    uint8_t *rom = read_whole_file(rom_path, &game.size);
    game.data = rom;

    load_core(core_path);
    core.set_environment(environment);
    core.init();
    core.set_video_refresh(video_refresh);
    core.set_audio_sample(audio_sample);
    core.set_audio_sample_batch(audio_batch);
    core.set_input_poll(input_poll);
    core.set_input_state(input_state);

    if (!core.load_game(&game))
        die("retro_load_game(%s) failed", rom_path);
    core.set_controller_port_device(0, RETRO_DEVICE_JOYPAD);

    struct retro_system_av_info av;
    core.get_system_av_info(&av);
    printf("video=%ux%u refresh=%.3f sample_rate=%.1f\n", av.geometry.base_width, av.geometry.base_height,
           av.timing.fps, av.timing.sample_rate);

    uint8_t *sram = core.get_memory_data(RETRO_MEMORY_SAVE_RAM);
    size_t sram_size = core.get_memory_size(RETRO_MEMORY_SAVE_RAM);
    if (sram_path != NULL) {
        if (sram == NULL || sram_size == 0)
            die("%s has no battery RAM to load into", rom_path);
        struct stat info;
        if (stat(sram_path, &info) == 0) {
            size_t size;
            uint8_t *saved = read_whole_file(sram_path, &size);
            memcpy(sram, saved, size < sram_size ? size : sram_size);
            free(saved);
        }
    }

    size_t next_change = 0;
    double start = now_seconds();
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    long period_ns = av.timing.fps > 0 ? (long)(1e9 / av.timing.fps) : 16666667;
    for (unsigned long frame = 0; frame < frames; frame++) {
        while (next_change < change_count && changes[next_change].frame <= frame)
            held_buttons = changes[next_change++].buttons;
        core.run();
        if (replay_path != NULL)
            replay_next_piece();
        if (paced) {
            deadline.tv_nsec += period_ns;
            while (deadline.tv_nsec >= 1000000000L) {
                deadline.tv_nsec -= 1000000000L;
                deadline.tv_sec += 1;
            }
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR) {
            }
        }
    }
    double elapsed = now_seconds() - start;
    if (replay_path != NULL && replay_offset < replay_size)
        write_all(replay_bytes + replay_offset, replay_size - replay_offset);

    if (sram_path != NULL)
        write_whole_file(sram_path, sram, sram_size);
    if (ppm_path != NULL && frame_xrgb != NULL)
        write_ppm(ppm_path);
    if (audio_file != NULL && fclose(audio_file) != 0)
        die("fclose(%s) failed: %s", audio_path, strerror(errno));

    uint64_t hash = frame_xrgb ? fnv1a(frame_xrgb, (size_t)frame_width * frame_height * 4) : fnv1a(NULL, 0);
    printf("size=%ux%u sram=%zu\n", frame_width, frame_height, sram_size);
    printf("frames=%lu fps=%.1f hash=%016llx samples=%llu\n", frames, elapsed > 0 ? frames / elapsed : 0.0,
           (unsigned long long)hash, (unsigned long long)audio_frames);

    core.unload_game();
    core.deinit();
    remove_directory();
    free(rom);
    free(changes);
    return 0;
}
