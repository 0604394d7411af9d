/*
 * glcore: a hardware-rendered libretro core for Phosphor's tests and benchmarks. It asks for an
 * OpenGL 3.3 core-profile context (built with -DGLCORE_GLES2: OpenGL ES 2.0), and draws with
 * shaders into the framebuffer the frontend gives it a picture the tests can predict pixel for
 * pixel:
 *   - the clear colour: red = frame counter & 0xFF, green = 0x20, blue = 0xC0 while A is held
 *     (else 0x10);
 *   - a red (255, 0, 0) marker of two triangles over the top-left quarter of the width and the top
 *     eighth of the height (it tells up from down);
 *   - a 32x32 square of two triangles, green (0, 255, 0), blue (0, 0, 255) while B is held,
 *     centred and moved by the left analog stick: x + stick_x / 1024, y + stick_y / 1024 pixels
 *     (C integer division, so -32...+31).
 * Every edge lies on a pixel boundary, so the coverage is exact on every rasteriser.
 * Environment: GLCORE_SIZE=WxH (default 320x240), GLCORE_TOP_LEFT=1 asks for top-left origin (it
 * then draws upside down, as such a core does), GLCORE_JOURNAL=path appends "reset", "destroy"
 * and "unload" as those happen. The state is the frame counter (4 bytes, little-endian); the
 * 512-byte battery RAM (RETRO_MEMORY_SAVE_RAM, as an N64 core's EEPROM/SRAM/FlashRAM/Controller Pak)
 * holds "GLSV" and the frame counter, so the frontend's .srm can be checked.
 * It links against nothing: every GL function comes from the frontend's get_proc_address.
 * Build: cc -shared -fPIC -o glcore.so glcore.c   (add -DGLCORE_GLES2 for the ES variant)
 */
#include <libretro-common/libretro.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned int GLuint;
typedef int GLint;
typedef int GLsizei;
typedef unsigned int GLenum;
typedef float GLfloat;
typedef char GLchar;
typedef unsigned char GLboolean;
typedef ptrdiff_t GLsizeiptr;
typedef unsigned int GLbitfield;

#define GL_COLOR_BUFFER_BIT 0x4000
#define GL_DEPTH_BUFFER_BIT 0x0100
#define GL_TRIANGLES 0x0004
#define GL_FLOAT 0x1406
#define GL_ARRAY_BUFFER 0x8892
#define GL_STREAM_DRAW 0x88E0
#define GL_FRAMEBUFFER 0x8D40
#define GL_VERTEX_SHADER 0x8B31
#define GL_FRAGMENT_SHADER 0x8B30
#define GL_COMPILE_STATUS 0x8B81
#define GL_LINK_STATUS 0x8B82
#define GL_DEPTH_TEST 0x0B71

#define GL_FUNCTIONS(X) \
    X(void, Viewport, (GLint, GLint, GLsizei, GLsizei)) \
    X(void, ClearColor, (GLfloat, GLfloat, GLfloat, GLfloat)) \
    X(void, Clear, (GLbitfield)) \
    X(void, Disable, (GLenum)) \
    X(void, BindFramebuffer, (GLenum, GLuint)) \
    X(GLuint, CreateShader, (GLenum)) \
    X(void, ShaderSource, (GLuint, GLsizei, const GLchar *const *, const GLint *)) \
    X(void, CompileShader, (GLuint)) \
    X(void, GetShaderiv, (GLuint, GLenum, GLint *)) \
    X(void, GetShaderInfoLog, (GLuint, GLsizei, GLsizei *, GLchar *)) \
    X(GLuint, CreateProgram, (void)) \
    X(void, AttachShader, (GLuint, GLuint)) \
    X(void, BindAttribLocation, (GLuint, GLuint, const GLchar *)) \
    X(void, LinkProgram, (GLuint)) \
    X(void, GetProgramiv, (GLuint, GLenum, GLint *)) \
    X(void, UseProgram, (GLuint)) \
    X(void, DeleteShader, (GLuint)) \
    X(void, DeleteProgram, (GLuint)) \
    X(GLint, GetUniformLocation, (GLuint, const GLchar *)) \
    X(void, Uniform2f, (GLint, GLfloat, GLfloat)) \
    X(void, Uniform4f, (GLint, GLfloat, GLfloat, GLfloat, GLfloat)) \
    X(void, Uniform1f, (GLint, GLfloat)) \
    X(void, GenBuffers, (GLsizei, GLuint *)) \
    X(void, DeleteBuffers, (GLsizei, const GLuint *)) \
    X(void, BindBuffer, (GLenum, GLuint)) \
    X(void, BufferData, (GLenum, GLsizeiptr, const void *, GLenum)) \
    X(void, EnableVertexAttribArray, (GLuint)) \
    X(void, VertexAttribPointer, (GLuint, GLint, GLenum, GLboolean, GLsizei, const void *)) \
    X(void, DrawArrays, (GLenum, GLint, GLsizei))

#define GL_POINTER(ret, name, args) static ret (*gl##name) args;
GL_FUNCTIONS(GL_POINTER)
#undef GL_POINTER
// Core profile only (a bound vertex array object is required there).
static void (*glGenVertexArrays)(GLsizei, GLuint *);
static void (*glBindVertexArray)(GLuint);
static void (*glDeleteVertexArrays)(GLsizei, const GLuint *);

static retro_environment_t environment_cb;
static retro_video_refresh_t video_cb;
static retro_audio_sample_batch_t audio_batch_cb;
static retro_input_poll_t input_poll_cb;
static retro_input_state_t input_state_cb;
static struct retro_hw_render_callback hw_render;
static int16_t silence[2 * 735];
static uint8_t save_ram[512];
static uint32_t frame_count;
static unsigned width = 320, height = 240;
static int top_left;
static int ready;
static GLuint program, vertex_buffer, vertex_array;
static GLint size_uniform, color_uniform, flip_uniform;

static void journal(const char *line) {
    const char *path = getenv("GLCORE_JOURNAL");
    if (!path || !*path) return;
    FILE *file = fopen(path, "a");
    if (!file) return;
    fprintf(file, "%s\n", line);
    fclose(file);
}

static void log_line(const char *text) {
    struct retro_log_callback logging;
    if (environment_cb(RETRO_ENVIRONMENT_GET_LOG_INTERFACE, &logging) && logging.log)
        logging.log(RETRO_LOG_ERROR, "%s\n", text);
}

// The shaders differ between GLSL 1.00 (ES 2.0) and 3.30 core only in their first lines.
#ifdef GLCORE_GLES2
static const char *vertex_header = "#version 100\nattribute vec2 position;\n";
static const char *fragment_header = "#version 100\nprecision mediump float;\n#define fragment gl_FragColor\n";
#else
static const char *vertex_header = "#version 330 core\nin vec2 position;\n";
static const char *fragment_header = "#version 330 core\nout vec4 fragment;\n";
#endif
static const char *vertex_body =
    "uniform vec2 size;\n"
    "uniform float flip;\n"
    "void main() {\n"
    "  vec2 ndc = vec2(position.x / size.x * 2.0 - 1.0, 1.0 - position.y / size.y * 2.0);\n"
    "  gl_Position = vec4(ndc.x, ndc.y * flip, 0.0, 1.0);\n"
    "}\n";
static const char *fragment_body =
    "uniform vec4 color;\n"
    "void main() { fragment = color; }\n";

static GLuint compile(GLenum type, const char *header, const char *body) {
    GLuint shader = glCreateShader(type);
    const char *sources[2] = {header, body};
    glShaderSource(shader, 2, sources, NULL);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char text[512];
        glGetShaderInfoLog(shader, sizeof text, NULL, text);
        log_line(text);
    }
    return shader;
}

static int load_gl(void) {
#define GL_LOAD(ret, name, args) \
    *(void **)(&gl##name) = (void *)hw_render.get_proc_address("gl" #name); \
    if (!gl##name) { log_line("glcore: no gl" #name); return 0; }
    GL_FUNCTIONS(GL_LOAD)
#undef GL_LOAD
#ifndef GLCORE_GLES2
    *(void **)(&glGenVertexArrays) = (void *)hw_render.get_proc_address("glGenVertexArrays");
    *(void **)(&glBindVertexArray) = (void *)hw_render.get_proc_address("glBindVertexArray");
    *(void **)(&glDeleteVertexArrays) = (void *)hw_render.get_proc_address("glDeleteVertexArrays");
    if (!glGenVertexArrays || !glBindVertexArray || !glDeleteVertexArrays) return 0;
#endif
    return 1;
}

static void context_reset(void) {
    journal("reset");
    ready = 0;
    if (!load_gl()) return;
    GLuint vertex = compile(GL_VERTEX_SHADER, vertex_header, vertex_body);
    GLuint fragment = compile(GL_FRAGMENT_SHADER, fragment_header, fragment_body);
    program = glCreateProgram();
    glAttachShader(program, vertex);
    glAttachShader(program, fragment);
    glBindAttribLocation(program, 0, "position");
    glLinkProgram(program);
    glDeleteShader(vertex);
    glDeleteShader(fragment);
    GLint linked = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    if (!linked) {
        log_line("glcore: the shaders did not link");
        return;
    }
    size_uniform = glGetUniformLocation(program, "size");
    color_uniform = glGetUniformLocation(program, "color");
    flip_uniform = glGetUniformLocation(program, "flip");
    glGenBuffers(1, &vertex_buffer);
    if (glGenVertexArrays) glGenVertexArrays(1, &vertex_array);
    ready = 1;
}

static void context_destroy(void) {
    journal("destroy");
    if (!ready) return;
    glDeleteProgram(program);
    glDeleteBuffers(1, &vertex_buffer);
    if (glDeleteVertexArrays) glDeleteVertexArrays(1, &vertex_array);
    ready = 0;
}

// A rectangle in picture pixels (top-left origin), as two triangles.
static void rectangle(float left, float top, float right, float bottom, float r, float g, float b) {
    const float vertices[12] = {left, top, right, top, left, bottom, right, top, right, bottom, left, bottom};
    glBufferData(GL_ARRAY_BUFFER, sizeof vertices, vertices, GL_STREAM_DRAW);
    glUniform4f(color_uniform, r, g, b, 1.0f);
    glDrawArrays(GL_TRIANGLES, 0, 6);
}

RETRO_API unsigned retro_api_version(void) { return RETRO_API_VERSION; }
RETRO_API void retro_set_environment(retro_environment_t cb) { environment_cb = cb; }
RETRO_API void retro_set_video_refresh(retro_video_refresh_t cb) { video_cb = cb; }
RETRO_API void retro_set_audio_sample(retro_audio_sample_t cb) { (void)cb; }
RETRO_API void retro_set_audio_sample_batch(retro_audio_sample_batch_t cb) { audio_batch_cb = cb; }
RETRO_API void retro_set_input_poll(retro_input_poll_t cb) { input_poll_cb = cb; }
RETRO_API void retro_set_input_state(retro_input_state_t cb) { input_state_cb = cb; }

RETRO_API void retro_init(void) {
    frame_count = 0;
    memset(save_ram, 0, sizeof save_ram);
    ready = 0;
    width = 320;
    height = 240;
    const char *size = getenv("GLCORE_SIZE");
    if (size && *size) sscanf(size, "%ux%u", &width, &height);
    const char *origin = getenv("GLCORE_TOP_LEFT");
    top_left = origin && *origin == '1';
}

RETRO_API void retro_deinit(void) {}

RETRO_API void retro_get_system_info(struct retro_system_info *info) {
    memset(info, 0, sizeof *info);
    info->library_name = "glcore";
    info->library_version = "1";
    info->valid_extensions = "gl|bin";
    info->need_fullpath = false;
}

RETRO_API void retro_get_system_av_info(struct retro_system_av_info *info) {
    memset(info, 0, sizeof *info);
    info->geometry.base_width = width;
    info->geometry.base_height = height;
    info->geometry.max_width = width;
    info->geometry.max_height = height;
    info->geometry.aspect_ratio = (float)width / (float)height;
    info->timing.fps = 60.0;
    info->timing.sample_rate = 44100.0;
}

RETRO_API void retro_set_controller_port_device(unsigned port, unsigned device) { (void)port; (void)device; }
RETRO_API void retro_reset(void) { frame_count = 0; }

RETRO_API void retro_run(void) {
    input_poll_cb();
    int a = input_state_cb(0, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_A) != 0;
    int b = input_state_cb(0, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_B) != 0;
    int stick_x = input_state_cb(0, RETRO_DEVICE_ANALOG, RETRO_DEVICE_INDEX_ANALOG_LEFT, RETRO_DEVICE_ID_ANALOG_X);
    int stick_y = input_state_cb(0, RETRO_DEVICE_ANALOG, RETRO_DEVICE_INDEX_ANALOG_LEFT, RETRO_DEVICE_ID_ANALOG_Y);
    frame_count++;
    memcpy(save_ram, "GLSV", 4);
    for (int index = 0; index < 4; index++) save_ram[4 + index] = (uint8_t)(frame_count >> (8 * index));
    if (ready) {
        glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)hw_render.get_current_framebuffer());
        glViewport(0, 0, (GLsizei)width, (GLsizei)height);
        glDisable(GL_DEPTH_TEST);
        glClearColor((float)(frame_count & 0xFF) / 255.0f, 0x20 / 255.0f, (a ? 0xC0 : 0x10) / 255.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glUseProgram(program);
        if (glBindVertexArray) glBindVertexArray(vertex_array);
        glBindBuffer(GL_ARRAY_BUFFER, vertex_buffer);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 2, GL_FLOAT, 0, 0, 0);
        glUniform2f(size_uniform, (float)width, (float)height);
        glUniform1f(flip_uniform, top_left ? -1.0f : 1.0f);
        rectangle(0, 0, (float)(width / 4), (float)(height / 8), 1, 0, 0);
        float x = (float)(width / 2 - 16 + stick_x / 1024), y = (float)(height / 2 - 16 + stick_y / 1024);
        rectangle(x, y, x + 32, y + 32, 0, b ? 0 : 1, b ? 1 : 0);
        if (glBindVertexArray) glBindVertexArray(0);
        video_cb(RETRO_HW_FRAME_BUFFER_VALID, width, height, 0);
    } else {
        video_cb(NULL, width, height, 0);
    }
    audio_batch_cb(silence, 735);
}

RETRO_API size_t retro_serialize_size(void) { return 4; }

RETRO_API bool retro_serialize(void *data, size_t size) {
    if (size < 4) return false;
    uint8_t *bytes = data;
    for (int index = 0; index < 4; index++) bytes[index] = (uint8_t)(frame_count >> (8 * index));
    return true;
}

RETRO_API bool retro_unserialize(const void *data, size_t size) {
    if (size != 4) return false;
    const uint8_t *bytes = data;
    frame_count = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
    return true;
}

RETRO_API void retro_cheat_reset(void) {}
RETRO_API void retro_cheat_set(unsigned index, bool enabled, const char *code) { (void)index; (void)enabled; (void)code; }

RETRO_API bool retro_load_game(const struct retro_game_info *game) {
    (void)game;
    enum retro_pixel_format format = RETRO_PIXEL_FORMAT_XRGB8888;
    if (!environment_cb(RETRO_ENVIRONMENT_SET_PIXEL_FORMAT, &format)) return false;
    memset(&hw_render, 0, sizeof hw_render);
#ifdef GLCORE_GLES2
    hw_render.context_type = RETRO_HW_CONTEXT_OPENGLES2;
#else
    hw_render.context_type = RETRO_HW_CONTEXT_OPENGL_CORE;
    hw_render.version_major = 3;
    hw_render.version_minor = 3;
#endif
    hw_render.context_reset = context_reset;
    hw_render.context_destroy = context_destroy;
    hw_render.depth = true;
    hw_render.stencil = false;
    hw_render.bottom_left_origin = !top_left;
    hw_render.cache_context = true;
    return environment_cb(RETRO_ENVIRONMENT_SET_HW_RENDER, &hw_render);
}

RETRO_API bool retro_load_game_special(unsigned type, const struct retro_game_info *info, size_t count) {
    (void)type; (void)info; (void)count;
    return false;
}

RETRO_API void retro_unload_game(void) { journal("unload"); }
RETRO_API unsigned retro_get_region(void) { return RETRO_REGION_NTSC; }
RETRO_API void *retro_get_memory_data(unsigned id) { return id == RETRO_MEMORY_SAVE_RAM ? save_ram : NULL; }
RETRO_API size_t retro_get_memory_size(unsigned id) { return id == RETRO_MEMORY_SAVE_RAM ? sizeof save_ram : 0; }
