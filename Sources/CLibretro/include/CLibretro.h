#ifndef CLIBRETRO_H
#define CLIBRETRO_H
// The libretro API as Swift sees it. The API header comes from Debian's retroarch-dev;
// this shim adds what Swift cannot do itself: dlopen/dlsym into a typed function table,
// and a trampoline for the variadic log callback.
#include <stdbool.h>
#include <stddef.h>
#include <libretro-common/libretro.h>

/// Every retro_* entry point of one loaded core. Filled by clibretro_open.
typedef struct clibretro_core {
    void *handle;
    void (*set_environment)(retro_environment_t);
    void (*set_video_refresh)(retro_video_refresh_t);
    void (*set_audio_sample)(retro_audio_sample_t);
    void (*set_audio_sample_batch)(retro_audio_sample_batch_t);
    void (*set_input_poll)(retro_input_poll_t);
    void (*set_input_state)(retro_input_state_t);
    void (*init)(void);
    void (*deinit)(void);
    unsigned (*api_version)(void);
    void (*get_system_info)(struct retro_system_info *info);
    void (*get_system_av_info)(struct retro_system_av_info *info);
    void (*set_controller_port_device)(unsigned port, unsigned device);
    void (*reset)(void);
    void (*run)(void);
    size_t (*serialize_size)(void);
    bool (*serialize)(void *data, size_t size);
    bool (*unserialize)(const void *data, size_t size);
    void (*cheat_reset)(void);
    void (*cheat_set)(unsigned index, bool enabled, const char *code);
    bool (*load_game)(const struct retro_game_info *game);
    void (*unload_game)(void);
    void *(*get_memory_data)(unsigned id);
    size_t (*get_memory_size)(unsigned id);
} clibretro_core;

/// Loads the shared object at `path` and resolves every retro_* symbol.
/// Returns 0 on success; otherwise fills `error` (dlerror's text or the missing symbol's name).
int clibretro_open(const char *path, clibretro_core *core, char *error, size_t error_size);

/// dlcloses the core. Safe on a zeroed struct.
void clibretro_close(clibretro_core *core);

/// Receives every formatted log line. Set once by the host before any core is loaded.
typedef void (*clibretro_log_sink)(enum retro_log_level level, const char *message);
void clibretro_set_log_sink(clibretro_log_sink sink);

/// Fills the struct a core asks for with RETRO_ENVIRONMENT_GET_LOG_INTERFACE: a variadic
/// printf-style function (Swift cannot implement or take the address of one) that formats the
/// line and hands it to the sink.
void clibretro_fill_log_callback(struct retro_log_callback *callback);

#endif
