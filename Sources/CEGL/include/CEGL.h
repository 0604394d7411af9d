#ifndef CEGL_H
#define CEGL_H
// Offscreen OpenGL for hardware-rendered libretro cores: an EGL display with no window system, a
// context of the type and version the core asked for, a framebuffer object it renders into, and
// the read-back of that framebuffer through pixel buffer objects. Only this target sees the EGL and
// GL headers; every function links against libEGL alone and takes GL's functions from
// eglGetProcAddress (the core gets its own the same way).
//
// Threading: one context at a time per process (libretro's get_current_framebuffer carries no
// context pointer). Every function except cegl_current_framebuffer and cegl_proc_address must be
// called on the thread that created the context (it is current there only); those two are the
// core's callbacks and run on that thread too.
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Which kind of context to create.
typedef enum {
    /// Desktop OpenGL, compatibility profile (RETRO_HW_CONTEXT_OPENGL).
    CEGL_API_OPENGL_COMPATIBILITY = 0,
    /// Desktop OpenGL, core profile of the given version (RETRO_HW_CONTEXT_OPENGL_CORE).
    CEGL_API_OPENGL_CORE = 1,
    /// OpenGL ES of the given major.minor (RETRO_HW_CONTEXT_OPENGLES2/3/_VERSION).
    CEGL_API_OPENGL_ES = 2,
} cegl_api;

/// What failed: the EGL or GL function's name and a reason ("EGL_BAD_MATCH (0x3009)", ...).
typedef struct {
    char function[64];
    char reason[256];
} cegl_error;

typedef struct cegl_context cegl_context;

/// Creates the display (Mesa's surfaceless platform, else a GBM render node, else the default
/// display with a pbuffer), the context, and makes it current on this thread. NULL on failure,
/// with `error` filled.
cegl_context *cegl_create(cegl_api api, int major, int minor, bool debug, cegl_error *error);

/// Releases the framebuffer, the pixel buffers, the context and the display. Safe on NULL.
void cegl_destroy(cegl_context *context);

/// "surfaceless", "gbm" or "pbuffer": how the display was made.
const char *cegl_platform(const cegl_context *context);
/// glGetString(GL_VERSION) and GL_RENDERER of the context ("4.5 (Core Profile) Mesa 22.3.6", "llvmpipe ...").
const char *cegl_gl_version(const cegl_context *context);
const char *cegl_gl_renderer(const cegl_context *context);

/// (Re)creates the framebuffer object at `width` x `height` with an RGBA8 colour buffer and the
/// depth / stencil the core asked for, and clears it. 0 on success, -1 with `error` filled.
int cegl_make_framebuffer(cegl_context *context, int width, int height, bool depth, bool stencil, cegl_error *error);

/// The framebuffer object's name: the core's get_current_framebuffer.
uintptr_t cegl_current_framebuffer(void);

/// A GL function by name (eglGetProcAddress): the core's get_proc_address.
void (*cegl_proc_address(const char *name))(void);

/// One frame read back: `rows` holds `height` rows of `width` XRGB8888 (little-endian BGRA)
/// pixels, `pitch` bytes apart, bottom row first (GL's order). Valid until cegl_read_release.
typedef struct {
    const void *rows;
    int width;
    int height;
    int pitch;
    /// The frame's number as given to cegl_read_start.
    uint64_t tag;
} cegl_frame;

/// Starts reading the bottom-left `width` x `height` of the framebuffer into a pixel buffer
/// object (glReadPixels into a bound GL_PIXEL_PACK_BUFFER returns without waiting on a GPU).
/// Without pixel buffer objects (OpenGL ES 2.0) it reads at once. 0 or -1 with `error`.
int cegl_read_start(cegl_context *context, int width, int height, uint64_t tag, cegl_error *error);

/// Maps the oldest read still pending (`newest` false: the one before the last started, so its
/// transfer overlapped the core's next frame; `newest` true: the last one). 1 with `frame`
/// filled, 0 when there is none, -1 with `error`. Release it with cegl_read_release.
int cegl_read_take(cegl_context *context, bool newest, cegl_frame *frame, cegl_error *error);

/// Unmaps the frame cegl_read_take gave out.
void cegl_read_release(cegl_context *context);

/// Whether reads go through pixel buffer objects (false on an OpenGL ES 2.0 context).
bool cegl_reads_asynchronously(const cegl_context *context);

#endif
