/*
 * crashcore: a minimal libretro core for Phosphor's reliability tests. It loads any content,
 * shows a plain picture, keeps a seconds counter in its battery RAM ("CRSH" + UInt32 LE seconds,
 * updated every 60 frames), and dereferences NULL in retro_run after CRASHCORE_FRAMES frames
 * (an environment variable; 120 when unset). With CRASHCORE_HW_RENDER set it instead asks for
 * Vulkan rendering when loading, like a Vulkan-only core, which Phosphor must refuse.
 * Build: cc -shared -fPIC -o crashcore.so crashcore.c
 */
#include <libretro-common/libretro.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 160
#define HEIGHT 144

static retro_environment_t environment_cb;
static retro_video_refresh_t video_cb;
static retro_audio_sample_batch_t audio_batch_cb;
static retro_input_poll_t input_poll_cb;
static uint32_t pixels[WIDTH * HEIGHT];
static int16_t silence[2 * 735];
static uint8_t battery_ram[8192];
static unsigned long frame_count;
static unsigned long crash_after = 120;

RETRO_API unsigned retro_api_version(void) { return RETRO_API_VERSION; }

RETRO_API void retro_set_environment(retro_environment_t cb) { environment_cb = cb; }
RETRO_API void retro_set_video_refresh(retro_video_refresh_t cb) { video_cb = cb; }
RETRO_API void retro_set_audio_sample(retro_audio_sample_t cb) { (void)cb; }
RETRO_API void retro_set_audio_sample_batch(retro_audio_sample_batch_t cb) { audio_batch_cb = cb; }
RETRO_API void retro_set_input_poll(retro_input_poll_t cb) { input_poll_cb = cb; }
RETRO_API void retro_set_input_state(retro_input_state_t cb) { (void)cb; }

RETRO_API void retro_init(void) {
    const char *limit = getenv("CRASHCORE_FRAMES");
    if (limit && *limit) crash_after = strtoul(limit, NULL, 10);
}

RETRO_API void retro_deinit(void) {}

RETRO_API void retro_get_system_info(struct retro_system_info *info) {
    memset(info, 0, sizeof *info);
    info->library_name = "crashcore";
    info->library_version = "1";
    info->valid_extensions = "gb|gbc|nes|bin";
    info->need_fullpath = false;
}

RETRO_API void retro_get_system_av_info(struct retro_system_av_info *info) {
    memset(info, 0, sizeof *info);
    info->geometry.base_width = WIDTH;
    info->geometry.base_height = HEIGHT;
    info->geometry.max_width = WIDTH;
    info->geometry.max_height = HEIGHT;
    info->geometry.aspect_ratio = (float)WIDTH / HEIGHT;
    info->timing.fps = 60.0;
    info->timing.sample_rate = 44100.0;
}

RETRO_API void retro_set_controller_port_device(unsigned port, unsigned device) { (void)port; (void)device; }
RETRO_API void retro_reset(void) { frame_count = 0; }

RETRO_API void retro_run(void) {
    if (input_poll_cb) input_poll_cb();
    if (frame_count >= crash_after) {
        volatile int *nowhere = NULL;
        *nowhere = 1; /* the crash under test */
    }
    uint32_t seconds = (uint32_t)(frame_count / 60);
    memcpy(battery_ram, "CRSH", 4);
    memcpy(battery_ram + 4, &seconds, 4);
    for (int i = 0; i < WIDTH * HEIGHT; i++) pixels[i] = (i / WIDTH < HEIGHT / 2) ? 0x00C03030u : 0x003030C0u;
    video_cb(pixels, WIDTH, HEIGHT, WIDTH * sizeof pixels[0]);
    if (audio_batch_cb) audio_batch_cb(silence, 735);
    frame_count++;
}

RETRO_API size_t retro_serialize_size(void) { return 0; }
RETRO_API bool retro_serialize(void *data, size_t size) { (void)data; (void)size; return false; }
RETRO_API bool retro_unserialize(const void *data, size_t size) { (void)data; (void)size; return false; }
RETRO_API void retro_cheat_reset(void) {}
RETRO_API void retro_cheat_set(unsigned index, bool enabled, const char *code) { (void)index; (void)enabled; (void)code; }

RETRO_API bool retro_load_game(const struct retro_game_info *game) {
    (void)game;
    if (getenv("CRASHCORE_HW_RENDER")) {
        struct retro_hw_render_callback render;
        memset(&render, 0, sizeof render);
        render.context_type = RETRO_HW_CONTEXT_VULKAN;
        return environment_cb(RETRO_ENVIRONMENT_SET_HW_RENDER, &render);
    }
    enum retro_pixel_format format = RETRO_PIXEL_FORMAT_XRGB8888;
    return environment_cb(RETRO_ENVIRONMENT_SET_PIXEL_FORMAT, &format);
}

RETRO_API bool retro_load_game_special(unsigned type, const struct retro_game_info *info, size_t count) {
    (void)type; (void)info; (void)count;
    return false;
}

RETRO_API void retro_unload_game(void) {}
RETRO_API unsigned retro_get_region(void) { return RETRO_REGION_NTSC; }

RETRO_API void *retro_get_memory_data(unsigned id) { return id == RETRO_MEMORY_SAVE_RAM ? battery_ram : NULL; }
RETRO_API size_t retro_get_memory_size(unsigned id) { return id == RETRO_MEMORY_SAVE_RAM ? sizeof battery_ram : 0; }
