#ifndef CXInput_H
#define CXInput_H
// Shim for libX11 + libXi (XInput2 raw key events) and XKB's repeat controls. Only this target
// includes the X headers; Swift sees the functions below. Every function is called from one
// thread at a time (the connection is handed from the opening thread to the reader thread).
//
// Xlib's default error handlers end the process (a bad window id, the server going away): this
// shim installs handlers that record the error instead, so a broken or vanished X server costs
// key release, never the game.
#include <stdint.h>
// XK_* keysym values as plain integer macros, for the keysym-to-Key table in Swift.
#define XK_MISCELLANY
#define XK_LATIN1
#define XK_XKB_KEYS
#include <X11/keysymdef.h>

typedef struct cxinput_connection cxinput_connection;

/// Why `cxinput_open` failed.
enum {
    CXINPUT_OK = 0,
    CXINPUT_NO_DISPLAY = 1,        // XOpenDisplay returned NULL (unset, unreachable, refused)
    CXINPUT_NO_EXTENSION = 2,      // XQueryExtension("XInputExtension") said no
    CXINPUT_OLD_VERSION = 3,       // XIQueryVersion below 2.0
    CXINPUT_SELECT_FAILED = 4,     // XISelectEvents on the root window failed
};

/// One raw key event: `pressed` 1 for XI_RawKeyPress, 0 for XI_RawKeyRelease; `keysym` is the
/// key's level-1 keysym in group 1 (what the key types without modifiers), 0 when it has none.
typedef struct {
    int pressed;
    uint32_t keycode;
    uint32_t keysym;
} cxinput_key_event;

/// Opens `display_name` (NULL: $DISPLAY) and selects raw key presses and releases of every
/// keyboard on the root window. Returns NULL with `*failure` set to one of the codes above.
cxinput_connection *cxinput_open(const char *display_name, int *failure);
/// Closes the display and frees the connection.
void cxinput_close(cxinput_connection *connection);
/// Waits up to `timeout_ms` for X events: 1 when some are waiting, 0 on timeout (or EINTR), -1
/// when the connection is broken.
int cxinput_wait(cxinput_connection *connection, int timeout_ms);
/// 1 once the server has gone away (an I/O error); nothing else may be called on it then but close.
int cxinput_is_broken(cxinput_connection *connection);
/// Takes the next raw key event already received into `event` (returns 1), or returns 0 when
/// none is waiting. Reads what the socket has without blocking; other events are dropped.
int cxinput_next_key_event(cxinput_connection *connection, cxinput_key_event *event);
/// The top-level window (child of the root) holding `window`, or 0 when `window` is not a window.
unsigned long cxinput_toplevel(cxinput_connection *connection, unsigned long window);
/// The top-level window that has the keyboard focus (under PointerRoot focus: the one under the
/// pointer), or 0 for none.
unsigned long cxinput_focused_toplevel(cxinput_connection *connection);
/// XKB's autorepeat: delay before the first repeat and the interval, in milliseconds. Returns 0,
/// or -1 when XKB is missing or repeat is off.
int cxinput_repeat_rate(cxinput_connection *connection, int *delay_ms, int *interval_ms);
#endif
