#include "CLibretro.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void copy_error(char *error, size_t error_size, const char *text) {
    if (error && error_size > 0) {
        snprintf(error, error_size, "%s", text ? text : "unknown error");
    }
}

int clibretro_open(const char *path, clibretro_core *core, char *error, size_t error_size) {
    memset(core, 0, sizeof *core);
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        copy_error(error, error_size, dlerror());
        return -1;
    }
    core->handle = handle;
#define RESOLVE(field, symbol)                                        \
    do {                                                              \
        *(void **)(&core->field) = dlsym(handle, symbol);             \
        if (!core->field) {                                           \
            char text[160];                                           \
            snprintf(text, sizeof text, "missing symbol %s", symbol); \
            copy_error(error, error_size, text);                      \
            dlclose(handle);                                          \
            memset(core, 0, sizeof *core);                            \
            return -1;                                                \
        }                                                             \
    } while (0)
    RESOLVE(set_environment, "retro_set_environment");
    RESOLVE(set_video_refresh, "retro_set_video_refresh");
    RESOLVE(set_audio_sample, "retro_set_audio_sample");
    RESOLVE(set_audio_sample_batch, "retro_set_audio_sample_batch");
    RESOLVE(set_input_poll, "retro_set_input_poll");
    RESOLVE(set_input_state, "retro_set_input_state");
    RESOLVE(init, "retro_init");
    RESOLVE(deinit, "retro_deinit");
    RESOLVE(api_version, "retro_api_version");
    RESOLVE(get_system_info, "retro_get_system_info");
    RESOLVE(get_system_av_info, "retro_get_system_av_info");
    RESOLVE(set_controller_port_device, "retro_set_controller_port_device");
    RESOLVE(reset, "retro_reset");
    RESOLVE(run, "retro_run");
    RESOLVE(serialize_size, "retro_serialize_size");
    RESOLVE(serialize, "retro_serialize");
    RESOLVE(unserialize, "retro_unserialize");
    RESOLVE(cheat_reset, "retro_cheat_reset");
    RESOLVE(cheat_set, "retro_cheat_set");
    RESOLVE(load_game, "retro_load_game");
    RESOLVE(unload_game, "retro_unload_game");
    RESOLVE(get_memory_data, "retro_get_memory_data");
    RESOLVE(get_memory_size, "retro_get_memory_size");
#undef RESOLVE
    return 0;
}

void clibretro_close(clibretro_core *core) {
    if (core->handle) {
        dlclose(core->handle);
    }
    memset(core, 0, sizeof *core);
}

static clibretro_log_sink current_sink = NULL;

void clibretro_set_log_sink(clibretro_log_sink sink) {
    current_sink = sink;
}

static void clibretro_log_printf(enum retro_log_level level, const char *format, ...) {
    if (!current_sink || !format) {
        return;
    }
    char line[1024];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(line, sizeof line, format, arguments);
    va_end(arguments);
    current_sink(level, line);
}

void clibretro_fill_log_callback(struct retro_log_callback *callback) {
    callback->log = clibretro_log_printf;
}
