#include "CEGL.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


// libEGL is opened at run time, so that Phosphor starts (and plays software cores) on a machine
// without it and can say what is missing. The macros send the calls below through the table.
#define EGL_FUNCTIONS(X) \
    X(GETERROR, GetError) X(QUERYSTRING, QueryString) X(GETPROCADDRESS, GetProcAddress) \
    X(BINDAPI, BindAPI) X(CHOOSECONFIG, ChooseConfig) X(CREATECONTEXT, CreateContext) \
    X(CREATEPBUFFERSURFACE, CreatePbufferSurface) X(MAKECURRENT, MakeCurrent) \
    X(DESTROYSURFACE, DestroySurface) X(DESTROYCONTEXT, DestroyContext) X(TERMINATE, Terminate) \
    X(GETDISPLAY, GetDisplay) X(INITIALIZE, Initialize)
#define EGL_FIELD(upper, name) PFNEGL##upper##PROC name;
static struct { void *library; EGL_FUNCTIONS(EGL_FIELD) } egl_table;
#undef EGL_FIELD
#define eglGetError egl_table.GetError
#define eglQueryString egl_table.QueryString
#define eglGetProcAddress egl_table.GetProcAddress
#define eglBindAPI egl_table.BindAPI
#define eglChooseConfig egl_table.ChooseConfig
#define eglCreateContext egl_table.CreateContext
#define eglCreatePbufferSurface egl_table.CreatePbufferSurface
#define eglMakeCurrent egl_table.MakeCurrent
#define eglDestroySurface egl_table.DestroySurface
#define eglDestroyContext egl_table.DestroyContext
#define eglTerminate egl_table.Terminate
#define eglGetDisplay egl_table.GetDisplay
#define eglInitialize egl_table.Initialize

#ifndef GL_BGRA
#define GL_BGRA 0x80E1
#endif

// GL entry points, taken from eglGetProcAddress once the context is current (Mesa answers for
// core functions too: EGL_KHR_get_all_proc_addresses).
typedef struct {
    PFNGLGETSTRINGPROC GetString;
    PFNGLGETERRORPROC GetError;
    PFNGLGETINTEGERVPROC GetIntegerv;
    PFNGLGENFRAMEBUFFERSPROC GenFramebuffers;
    PFNGLDELETEFRAMEBUFFERSPROC DeleteFramebuffers;
    PFNGLBINDFRAMEBUFFERPROC BindFramebuffer;
    PFNGLFRAMEBUFFERRENDERBUFFERPROC FramebufferRenderbuffer;
    PFNGLCHECKFRAMEBUFFERSTATUSPROC CheckFramebufferStatus;
    PFNGLGENRENDERBUFFERSPROC GenRenderbuffers;
    PFNGLDELETERENDERBUFFERSPROC DeleteRenderbuffers;
    PFNGLBINDRENDERBUFFERPROC BindRenderbuffer;
    PFNGLRENDERBUFFERSTORAGEPROC RenderbufferStorage;
    PFNGLCLEARCOLORPROC ClearColor;
    PFNGLCLEARPROC Clear;
    PFNGLREADPIXELSPROC ReadPixels;
    PFNGLPIXELSTOREIPROC PixelStorei;
    PFNGLGENBUFFERSPROC GenBuffers;
    PFNGLDELETEBUFFERSPROC DeleteBuffers;
    PFNGLBINDBUFFERPROC BindBuffer;
    PFNGLBUFFERDATAPROC BufferData;
    PFNGLMAPBUFFERRANGEPROC MapBufferRange;
    PFNGLUNMAPBUFFERPROC UnmapBuffer;
} gl_functions;

// One pixel buffer object and the read that went into it.
typedef struct {
    GLuint buffer;
    size_t capacity;
    bool pending;
    int width, height;
    uint64_t tag;
} read_slot;

struct cegl_context {
    EGLDisplay display;
    EGLContext context;
    EGLSurface surface;  // a 1x1 pbuffer on the fallback platform, else EGL_NO_SURFACE
    void *gbm_library;
    void *gbm_device;
    int gbm_fd;
    const char *platform;
    bool is_es;
    bool has_pbo;
    bool reads_bgra;  // else RGBA, swapped to BGRA on the CPU
    char version[128];
    char renderer[128];
    gl_functions gl;
    GLuint framebuffer, color, depth_stencil;
    read_slot slots[2];
    int next_slot;
    // The mapped slot (-1: none), or the CPU copy when there are no PBOs / the order was swapped.
    int mapped_slot;
    uint8_t *cpu_pixels;
    size_t cpu_capacity;
};

static uintptr_t current_framebuffer_name = 0;

static void fail(cegl_error *error, const char *function, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(cegl_error *error, const char *function, const char *format, ...) {
    if (!error) return;
    snprintf(error->function, sizeof error->function, "%s", function);
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error->reason, sizeof error->reason, format, arguments);
    va_end(arguments);
}

static const char *egl_error_name(EGLint code) {
    switch (code) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
    default: return "unknown EGL error";
    }
}

static void fail_egl(cegl_error *error, const char *function) {
    EGLint code = eglGetError();
    fail(error, function, "%s (0x%04x)", egl_error_name(code), (unsigned)code);
}

static bool has_word(const char *list, const char *word) {
    if (!list) return false;
    size_t length = strlen(word);
    for (const char *at = list; (at = strstr(at, word)) != NULL; at += length) {
        bool starts = at == list || at[-1] == ' ';
        bool ends = at[length] == ' ' || at[length] == '\0';
        if (starts && ends) return true;
    }
    return false;
}


// Opens libEGL.so.1 once and resolves the table. 0 or -1 with `error`.
static int open_egl(cegl_error *error) {
    if (egl_table.library) return 0;
    void *library = dlopen("libEGL.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!library) {
        fail(error, "dlopen", "libEGL.so.1: %s", dlerror());
        return -1;
    }
#define EGL_RESOLVE(upper, name)                                                   \
    *(void **)(&egl_table.name) = dlsym(library, "egl" #name);                     \
    if (!egl_table.name) {                                                         \
        fail(error, "dlsym", "libEGL.so.1 has no egl" #name);                      \
        dlclose(library);                                                          \
        return -1;                                                                 \
    }
    EGL_FUNCTIONS(EGL_RESOLVE)
#undef EGL_RESOLVE
    egl_table.library = library;
    return 0;
}

// MARK: Displays

static EGLDisplay surfaceless_display(void) {
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_platform_display || !has_word(client, "EGL_MESA_platform_surfaceless")) return EGL_NO_DISPLAY;
    return get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
}

// A GPU's render node through GBM (libgbm is opened at run time: it is there only with Mesa).
static EGLDisplay gbm_display(cegl_context *context) {
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_platform_display || !(has_word(client, "EGL_KHR_platform_gbm") || has_word(client, "EGL_MESA_platform_gbm")))
        return EGL_NO_DISPLAY;
    void *library = dlopen("libgbm.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return EGL_NO_DISPLAY;
    void *(*create_device)(int) = (void *(*)(int))dlsym(library, "gbm_create_device");
    for (int node = 128; create_device && node < 136; node++) {
        char path[32];
        snprintf(path, sizeof path, "/dev/dri/renderD%d", node);
        int fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0) continue;
        void *device = create_device(fd);
        if (device) {
            context->gbm_library = library;
            context->gbm_device = device;
            context->gbm_fd = fd;
            return get_platform_display(EGL_PLATFORM_GBM_KHR, device, NULL);
        }
        close(fd);
    }
    dlclose(library);
    return EGL_NO_DISPLAY;
}

static void release_gbm(cegl_context *context) {
    if (context->gbm_device) {
        void (*destroy)(void *) = (void (*)(void *))dlsym(context->gbm_library, "gbm_device_destroy");
        if (destroy) destroy(context->gbm_device);
        close(context->gbm_fd);
    }
    if (context->gbm_library) dlclose(context->gbm_library);
    context->gbm_library = NULL;
    context->gbm_device = NULL;
}

// Config, context and current-making on an initialised display. 0 or -1 with `error`.
static int make_context(cegl_context *context, cegl_api api, int major, int minor, bool debug, bool pbuffer,
                        cegl_error *error) {
    EGLDisplay display = context->display;
    if (!eglBindAPI(api == CEGL_API_OPENGL_ES ? EGL_OPENGL_ES_API : EGL_OPENGL_API)) {
        fail_egl(error, "eglBindAPI");
        return -1;
    }
    EGLint renderable = api != CEGL_API_OPENGL_ES ? EGL_OPENGL_BIT
                        : major >= 3 ? EGL_OPENGL_ES3_BIT_KHR : EGL_OPENGL_ES2_BIT;
    const EGLint config_attributes[] = {
        EGL_SURFACE_TYPE, pbuffer ? EGL_PBUFFER_BIT : 0, EGL_RENDERABLE_TYPE, renderable, EGL_NONE,
    };
    EGLConfig config;
    EGLint count = 0;
    if (!eglChooseConfig(display, config_attributes, &config, 1, &count)) {
        fail_egl(error, "eglChooseConfig");
        return -1;
    }
    if (count == 0) {
        fail(error, "eglChooseConfig", "no config renders %s", api == CEGL_API_OPENGL_ES ? "OpenGL ES" : "OpenGL");
        return -1;
    }
    EGLint attributes[16];
    int n = 0;
    if (api == CEGL_API_OPENGL_CORE || api == CEGL_API_OPENGL_ES) {
        attributes[n++] = EGL_CONTEXT_MAJOR_VERSION;
        attributes[n++] = major;
        attributes[n++] = EGL_CONTEXT_MINOR_VERSION;
        attributes[n++] = minor;
    }
    if (api == CEGL_API_OPENGL_CORE) {
        attributes[n++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
        attributes[n++] = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT;
    } else if (api == CEGL_API_OPENGL_COMPATIBILITY) {
        attributes[n++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
        attributes[n++] = EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT;
    }
    if (debug) {
        attributes[n++] = EGL_CONTEXT_OPENGL_DEBUG;
        attributes[n++] = EGL_TRUE;
    }
    attributes[n] = EGL_NONE;
    context->context = eglCreateContext(display, config, EGL_NO_CONTEXT, attributes);
    if (context->context == EGL_NO_CONTEXT) {
        EGLint code = eglGetError();
        fail(error, "eglCreateContext", "no %s %d.%d context: %s (0x%04x)",
             api == CEGL_API_OPENGL_ES ? "OpenGL ES" : api == CEGL_API_OPENGL_CORE ? "OpenGL core" : "OpenGL",
             major, minor, egl_error_name(code), (unsigned)code);
        return -1;
    }
    if (pbuffer) {
        const EGLint surface_attributes[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
        context->surface = eglCreatePbufferSurface(display, config, surface_attributes);
        if (context->surface == EGL_NO_SURFACE) {
            fail_egl(error, "eglCreatePbufferSurface");
            return -1;
        }
    }
    if (!eglMakeCurrent(display, context->surface, context->surface, context->context)) {
        fail_egl(error, "eglMakeCurrent");
        return -1;
    }
    return 0;
}

// Tears down whatever a failed attempt left, keeping the struct reusable.
static void release_display(cegl_context *context) {
    if (context->display != EGL_NO_DISPLAY) {
        eglMakeCurrent(context->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (context->surface != EGL_NO_SURFACE) eglDestroySurface(context->display, context->surface);
        if (context->context != EGL_NO_CONTEXT) eglDestroyContext(context->display, context->context);
        eglTerminate(context->display);
    }
    context->display = EGL_NO_DISPLAY;
    context->context = EGL_NO_CONTEXT;
    context->surface = EGL_NO_SURFACE;
    release_gbm(context);
}

#define LOAD(name)                                                              \
    do {                                                                        \
        *(void **)(&gl->name) = (void *)eglGetProcAddress("gl" #name);          \
        if (!gl->name) {                                                        \
            fail(error, "eglGetProcAddress", "the driver has no gl" #name);     \
            return -1;                                                          \
        }                                                                       \
    } while (0)

static int load_functions(gl_functions *gl, bool need_pbo, cegl_error *error) {
    LOAD(GetString); LOAD(GetError); LOAD(GetIntegerv);
    LOAD(GenFramebuffers); LOAD(DeleteFramebuffers); LOAD(BindFramebuffer); LOAD(FramebufferRenderbuffer);
    LOAD(CheckFramebufferStatus); LOAD(GenRenderbuffers); LOAD(DeleteRenderbuffers); LOAD(BindRenderbuffer);
    LOAD(RenderbufferStorage); LOAD(ClearColor); LOAD(Clear); LOAD(ReadPixels); LOAD(PixelStorei);
    LOAD(GenBuffers); LOAD(DeleteBuffers); LOAD(BindBuffer); LOAD(BufferData);
    if (need_pbo) {
        LOAD(MapBufferRange);
        LOAD(UnmapBuffer);
    }
    return 0;
}
#undef LOAD

// Reads the version string: desktop "4.5 (Core Profile) Mesa ...", ES "OpenGL ES 3.2 Mesa ...".
static void read_capabilities(cegl_context *context) {
    const char *version = (const char *)context->gl.GetString(GL_VERSION);
    const char *renderer = (const char *)context->gl.GetString(GL_RENDERER);
    snprintf(context->version, sizeof context->version, "%s", version ? version : "?");
    snprintf(context->renderer, sizeof context->renderer, "%s", renderer ? renderer : "?");
    int major = 0, minor = 0;
    const char *numbers = version ? version : "";
    if (strncmp(numbers, "OpenGL ES ", 10) == 0) numbers += 10;
    sscanf(numbers, "%d.%d", &major, &minor);
    if (context->is_es) {
        context->has_pbo = major >= 3;
        const char *extensions = (const char *)context->gl.GetString(GL_EXTENSIONS);
        context->reads_bgra = has_word(extensions, "GL_EXT_read_format_bgra");
    } else {
        context->has_pbo = major > 2 || (major == 2 && minor >= 1);
        context->reads_bgra = true;
    }
}

cegl_context *cegl_create(cegl_api api, int major, int minor, bool debug, cegl_error *error) {
    // llvmpipe advertises GL_ARM_shader_framebuffer_fetch_depth_stencil in desktop GL and a
    // GLideN64 (mupen64plus-next) shader using it fails to compile: hide it unless the user chose.
    setenv("MESA_EXTENSION_OVERRIDE", "-GL_ARM_shader_framebuffer_fetch_depth_stencil", 0);
    if (open_egl(error) != 0) return NULL;
    cegl_context *context = calloc(1, sizeof *context);
    if (!context) {
        fail(error, "calloc", "out of memory");
        return NULL;
    }
    context->display = EGL_NO_DISPLAY;
    context->context = EGL_NO_CONTEXT;
    context->surface = EGL_NO_SURFACE;
    context->mapped_slot = -1;
    context->is_es = api == CEGL_API_OPENGL_ES;
    static const char *const platforms[] = {"surfaceless", "gbm", "pbuffer"};
    cegl_error attempt = {{0}, {0}};
    bool made = false;
    for (int index = 0; index < 3 && !made; index++) {
        EGLDisplay display = index == 0 ? surfaceless_display()
                             : index == 1 ? gbm_display(context)
                                          : eglGetDisplay(EGL_DEFAULT_DISPLAY);
        if (display == EGL_NO_DISPLAY) {
            release_gbm(context);
            if (attempt.function[0] == 0) fail(&attempt, "eglGetPlatformDisplayEXT", "no %s display", platforms[index]);
            continue;
        }
        context->display = display;
        EGLint egl_major, egl_minor;
        if (!eglInitialize(display, &egl_major, &egl_minor)) {
            // Keep the first real reason (a context error) over a missing fallback display.
            fail_egl(attempt.function[0] && strcmp(attempt.function, "eglCreateContext") == 0 ? NULL : &attempt,
                     "eglInitialize");
            release_display(context);
            continue;
        }
        cegl_error this_one = {{0}, {0}};
        if (make_context(context, api, major, minor, debug, index == 2, &this_one) != 0) {
            if (strcmp(attempt.function, "eglCreateContext") != 0) attempt = this_one;
            release_display(context);
            continue;
        }
        context->platform = platforms[index];
        made = true;
    }
    if (!made) {
        if (error) *error = attempt;
        free(context);
        return NULL;
    }
    // Version detection needs glGetString first; then the PBO functions when the version has them.
    if (load_functions(&context->gl, false, error) != 0) {
        cegl_destroy(context);
        return NULL;
    }
    read_capabilities(context);
    if (context->has_pbo && load_functions(&context->gl, true, error) != 0) {
        cegl_destroy(context);
        return NULL;
    }
    return context;
}

static void release_framebuffer(cegl_context *context) {
    gl_functions *gl = &context->gl;
    if (context->framebuffer) gl->DeleteFramebuffers(1, &context->framebuffer);
    if (context->color) gl->DeleteRenderbuffers(1, &context->color);
    if (context->depth_stencil) gl->DeleteRenderbuffers(1, &context->depth_stencil);
    context->framebuffer = context->color = context->depth_stencil = 0;
    current_framebuffer_name = 0;
}

void cegl_destroy(cegl_context *context) {
    if (!context) return;
    if (context->context != EGL_NO_CONTEXT && context->gl.DeleteBuffers) {
        cegl_read_release(context);
        release_framebuffer(context);
        for (int index = 0; index < 2; index++) {
            if (context->slots[index].buffer) context->gl.DeleteBuffers(1, &context->slots[index].buffer);
        }
    }
    release_display(context);
    free(context->cpu_pixels);
    free(context);
}

const char *cegl_platform(const cegl_context *context) { return context->platform; }
const char *cegl_gl_version(const cegl_context *context) { return context->version; }
const char *cegl_gl_renderer(const cegl_context *context) { return context->renderer; }
bool cegl_reads_asynchronously(const cegl_context *context) { return context->has_pbo; }

static void clear_gl_errors(const gl_functions *gl) {
    for (int count = 0; count < 16 && gl->GetError() != GL_NO_ERROR; count++) {}
}

static const char *gl_error_name(GLenum code) {
    switch (code) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "unknown GL error";
    }
}

static int check_gl(const cegl_context *context, const char *function, cegl_error *error) {
    GLenum code = context->gl.GetError();
    if (code == GL_NO_ERROR) return 0;
    fail(error, function, "%s (0x%04x)", gl_error_name(code), (unsigned)code);
    return -1;
}

int cegl_make_framebuffer(cegl_context *context, int width, int height, bool depth, bool stencil, cegl_error *error) {
    gl_functions *gl = &context->gl;
    clear_gl_errors(gl);
    release_framebuffer(context);
    gl->GenFramebuffers(1, &context->framebuffer);
    gl->BindFramebuffer(GL_FRAMEBUFFER, context->framebuffer);
    gl->GenRenderbuffers(1, &context->color);
    gl->BindRenderbuffer(GL_RENDERBUFFER, context->color);
    gl->RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, context->color);
    // Stencil alone is invalid in libretro's terms; depth with stencil is one packed 24/8 buffer.
    if (depth) {
        gl->GenRenderbuffers(1, &context->depth_stencil);
        gl->BindRenderbuffer(GL_RENDERBUFFER, context->depth_stencil);
        gl->RenderbufferStorage(GL_RENDERBUFFER, stencil ? GL_DEPTH24_STENCIL8 : GL_DEPTH_COMPONENT24, width, height);
        gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, stencil ? GL_DEPTH_STENCIL_ATTACHMENT : GL_DEPTH_ATTACHMENT,
                                    GL_RENDERBUFFER, context->depth_stencil);
    }
    if (check_gl(context, "glRenderbufferStorage", error) != 0) return -1;
    GLenum status = gl->CheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        fail(error, "glCheckFramebufferStatus", "framebuffer %dx%d incomplete (0x%04x)", width, height, (unsigned)status);
        return -1;
    }
    gl->ClearColor(0, 0, 0, 1);
    gl->Clear(GL_COLOR_BUFFER_BIT | (depth ? GL_DEPTH_BUFFER_BIT : 0) | (stencil ? GL_STENCIL_BUFFER_BIT : 0));
    gl->BindRenderbuffer(GL_RENDERBUFFER, 0);
    current_framebuffer_name = context->framebuffer;
    return check_gl(context, "glClear", error);
}

uintptr_t cegl_current_framebuffer(void) { return current_framebuffer_name; }

void (*cegl_proc_address(const char *name))(void) { return name && egl_table.library ? eglGetProcAddress(name) : NULL; }

// The pack state the core may have changed, put back after each read.
typedef struct {
    GLint framebuffer, pack_buffer, alignment, row_length;
} pack_state;

static pack_state enter_pack_state(cegl_context *context) {
    gl_functions *gl = &context->gl;
    pack_state saved = {0, 0, 4, 0};
    GLenum binding = context->has_pbo ? GL_READ_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING;
    gl->GetIntegerv(binding, &saved.framebuffer);
    gl->GetIntegerv(GL_PACK_ALIGNMENT, &saved.alignment);
    gl->PixelStorei(GL_PACK_ALIGNMENT, 4);
    if (context->has_pbo) {
        gl->GetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &saved.pack_buffer);
        gl->GetIntegerv(GL_PACK_ROW_LENGTH, &saved.row_length);
        gl->PixelStorei(GL_PACK_ROW_LENGTH, 0);
    }
    gl->BindFramebuffer(context->has_pbo ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER, context->framebuffer);
    return saved;
}

static void leave_pack_state(cegl_context *context, pack_state saved) {
    gl_functions *gl = &context->gl;
    gl->BindFramebuffer(context->has_pbo ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER, (GLuint)saved.framebuffer);
    gl->PixelStorei(GL_PACK_ALIGNMENT, saved.alignment);
    if (context->has_pbo) {
        gl->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)saved.pack_buffer);
        gl->PixelStorei(GL_PACK_ROW_LENGTH, saved.row_length);
    }
}

static int reserve_cpu_pixels(cegl_context *context, size_t size, cegl_error *error) {
    if (context->cpu_capacity >= size) return 0;
    uint8_t *grown = realloc(context->cpu_pixels, size);
    if (!grown) {
        fail(error, "realloc", "out of memory for a %zu-byte frame", size);
        return -1;
    }
    context->cpu_pixels = grown;
    context->cpu_capacity = size;
    return 0;
}

// RGBA bytes to BGRA (XRGB8888 little-endian), from `source` into `target` (may be the same).
static void swap_red_blue(uint8_t *target, const uint8_t *source, size_t pixels) {
    for (size_t index = 0; index < pixels; index++) {
        uint8_t red = source[4 * index], green = source[4 * index + 1], blue = source[4 * index + 2];
        target[4 * index] = blue;
        target[4 * index + 1] = green;
        target[4 * index + 2] = red;
        target[4 * index + 3] = 0xFF;
    }
}

int cegl_read_start(cegl_context *context, int width, int height, uint64_t tag, cegl_error *error) {
    gl_functions *gl = &context->gl;
    if (!context->framebuffer) {
        fail(error, "glReadPixels", "no framebuffer to read");
        return -1;
    }
    cegl_read_release(context);
    clear_gl_errors(gl);  // a core may leave an error pending
    size_t size = (size_t)width * (size_t)height * 4;
    GLenum format = context->reads_bgra ? GL_BGRA : GL_RGBA;
    read_slot *slot = &context->slots[context->next_slot];
    pack_state saved = enter_pack_state(context);
    if (context->has_pbo) {
        if (!slot->buffer) gl->GenBuffers(1, &slot->buffer);
        gl->BindBuffer(GL_PIXEL_PACK_BUFFER, slot->buffer);
        if (slot->capacity < size) {
            gl->BufferData(GL_PIXEL_PACK_BUFFER, (GLsizeiptr)size, NULL, GL_STREAM_READ);
            slot->capacity = size;
        }
        gl->ReadPixels(0, 0, width, height, format, GL_UNSIGNED_BYTE, 0);
    } else {
        if (reserve_cpu_pixels(context, size, error) != 0) {
            leave_pack_state(context, saved);
            return -1;
        }
        gl->ReadPixels(0, 0, width, height, format, GL_UNSIGNED_BYTE, context->cpu_pixels);
        if (!context->reads_bgra) swap_red_blue(context->cpu_pixels, context->cpu_pixels, size / 4);
    }
    int result = check_gl(context, "glReadPixels", error);
    leave_pack_state(context, saved);
    if (result != 0) return -1;
    slot->pending = true;
    slot->width = width;
    slot->height = height;
    slot->tag = tag;
    if (context->has_pbo) context->next_slot ^= 1;
    return 0;
}

int cegl_read_take(cegl_context *context, bool newest, cegl_frame *frame, cegl_error *error) {
    gl_functions *gl = &context->gl;
    cegl_read_release(context);
    if (!context->has_pbo) {
        // One synchronous slot: the last read, already on the CPU.
        read_slot *slot = &context->slots[0];
        if (!slot->pending) return 0;
        slot->pending = false;
        *frame = (cegl_frame){context->cpu_pixels, slot->width, slot->height, slot->width * 4, slot->tag};
        return 1;
    }
    int older = context->next_slot, latest = context->next_slot ^ 1;
    int index;
    if (newest) {
        index = context->slots[latest].pending ? latest : older;
        if (index == latest) context->slots[older].pending = false;  // superseded
    } else {
        index = older;
    }
    read_slot *slot = &context->slots[index];
    if (!slot->pending) return 0;
    slot->pending = false;
    size_t size = (size_t)slot->width * (size_t)slot->height * 4;
    clear_gl_errors(gl);
    GLint saved_pack = 0;
    gl->GetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &saved_pack);
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, slot->buffer);
    const void *mapped = gl->MapBufferRange(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)size, GL_MAP_READ_BIT);
    if (!mapped) {
        gl->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)saved_pack);
        if (check_gl(context, "glMapBufferRange", error) == 0) fail(error, "glMapBufferRange", "returned NULL");
        return -1;
    }
    const void *rows = mapped;
    if (!context->reads_bgra) {
        if (reserve_cpu_pixels(context, size, error) != 0) {
            gl->UnmapBuffer(GL_PIXEL_PACK_BUFFER);
            gl->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)saved_pack);
            return -1;
        }
        swap_red_blue(context->cpu_pixels, mapped, size / 4);
        rows = context->cpu_pixels;
    }
    // Stays mapped (and bound) until cegl_read_release; the pack binding goes back then.
    context->mapped_slot = index;
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)saved_pack);
    *frame = (cegl_frame){rows, slot->width, slot->height, slot->width * 4, slot->tag};
    return 1;
}

void cegl_read_release(cegl_context *context) {
    if (context->mapped_slot < 0) return;
    gl_functions *gl = &context->gl;
    GLint saved_pack = 0;
    gl->GetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &saved_pack);
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, context->slots[context->mapped_slot].buffer);
    gl->UnmapBuffer(GL_PIXEL_PACK_BUFFER);
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)saved_pack);
    context->mapped_slot = -1;
}
