#include "CXInput.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <X11/Xlib.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XInput2.h>

struct cxinput_connection {
    Display *display;
    int xi_opcode;
};

// Set by the handlers below. One reader thread uses a connection at a time; the flags are only
// read back by that same thread right after its call.
static _Thread_local int last_protocol_error;
static volatile int io_error_seen;

static int record_protocol_error(Display *display, XErrorEvent *error) {
    (void)display;
    last_protocol_error = error->error_code;
    return 0;
}

static int record_io_error(Display *display) {
    (void)display;
    io_error_seen = 1;
    return 0;
}

// Called instead of exit(1) when the connection breaks: returning leaves the process running.
static void keep_running(Display *display, void *user_data) {
    (void)display;
    (void)user_data;
    io_error_seen = 1;
}

cxinput_connection *cxinput_open(const char *display_name, int *failure) {
    io_error_seen = 0;
    XSetErrorHandler(record_protocol_error);
    XSetIOErrorHandler(record_io_error);
    Display *display = XOpenDisplay(display_name);
    if (display == NULL) {
        *failure = CXINPUT_NO_DISPLAY;
        return NULL;
    }
    XSetIOErrorExitHandler(display, keep_running, NULL);
    int opcode = 0, event = 0, error = 0;
    if (!XQueryExtension(display, "XInputExtension", &opcode, &event, &error)) {
        XCloseDisplay(display);
        *failure = CXINPUT_NO_EXTENSION;
        return NULL;
    }
    int major = 2, minor = 0;
    if (XIQueryVersion(display, &major, &minor) != Success || major < 2) {
        XCloseDisplay(display);
        *failure = CXINPUT_OLD_VERSION;
        return NULL;
    }
    unsigned char mask_bits[XIMaskLen(XI_LASTEVENT)];
    memset(mask_bits, 0, sizeof mask_bits);
    XISetMask(mask_bits, XI_RawKeyPress);
    XISetMask(mask_bits, XI_RawKeyRelease);
    XIEventMask mask = {.deviceid = XIAllMasterDevices, .mask_len = sizeof mask_bits, .mask = mask_bits};
    last_protocol_error = 0;
    XISelectEvents(display, DefaultRootWindow(display), &mask, 1);
    XSync(display, False);
    if (last_protocol_error != 0) {
        XCloseDisplay(display);
        *failure = CXINPUT_SELECT_FAILED;
        return NULL;
    }
    cxinput_connection *connection = calloc(1, sizeof *connection);
    if (connection == NULL) {
        XCloseDisplay(display);
        *failure = CXINPUT_NO_DISPLAY;
        return NULL;
    }
    connection->display = display;
    connection->xi_opcode = opcode;
    *failure = CXINPUT_OK;
    return connection;
}

void cxinput_close(cxinput_connection *connection) {
    if (connection == NULL) return;
    if (!io_error_seen) XCloseDisplay(connection->display);
    free(connection);
}

int cxinput_is_broken(cxinput_connection *connection) {
    (void)connection;
    return io_error_seen;
}

int cxinput_next_key_event(cxinput_connection *connection, cxinput_key_event *out) {
    Display *display = connection->display;
    while (!io_error_seen && XPending(display) > 0) {
        XEvent event;
        XNextEvent(display, &event);
        if (event.type != GenericEvent || event.xcookie.extension != connection->xi_opcode) continue;
        if (!XGetEventData(display, &event.xcookie)) continue;
        int kind = event.xcookie.evtype;
        int found = 0;
        if (kind == XI_RawKeyPress || kind == XI_RawKeyRelease) {
            XIRawEvent *raw = event.xcookie.data;
            out->pressed = kind == XI_RawKeyPress;
            out->keycode = (uint32_t)raw->detail;
            out->keysym = (uint32_t)XkbKeycodeToKeysym(display, (KeyCode)raw->detail, 0, 0);
            found = 1;
        }
        XFreeEventData(display, &event.xcookie);
        if (found) return 1;
    }
    return 0;
}

unsigned long cxinput_toplevel(cxinput_connection *connection, unsigned long window) {
    Display *display = connection->display;
    Window root = DefaultRootWindow(display);
    Window current = window;
    // The tree is shallow (a window manager adds a frame or two); the bound keeps a broken tree finite.
    for (int depth = 0; depth < 64 && current != 0 && current != root; depth++) {
        Window tree_root = 0, parent = 0, *children = NULL;
        unsigned int count = 0;
        last_protocol_error = 0;
        if (!XQueryTree(display, current, &tree_root, &parent, &children, &count) || last_protocol_error != 0) return 0;
        if (children != NULL) XFree(children);
        if (parent == root) return current;
        current = parent;
    }
    return 0;
}

unsigned long cxinput_focused_toplevel(cxinput_connection *connection) {
    Display *display = connection->display;
    Window focus = 0;
    int revert = 0;
    last_protocol_error = 0;
    XGetInputFocus(display, &focus, &revert);
    if (last_protocol_error != 0 || focus == None) return 0;
    if (focus == PointerRoot) {
        // Keys go to the window under the pointer (an X server without a window manager).
        Window root = 0, child = 0;
        int root_x, root_y, x, y;
        unsigned int buttons;
        if (!XQueryPointer(display, DefaultRootWindow(display), &root, &child, &root_x, &root_y, &x, &y, &buttons)) return 0;
        return child;
    }
    if (focus == DefaultRootWindow(display)) return 0;
    return cxinput_toplevel(connection, focus);
}

int cxinput_repeat_rate(cxinput_connection *connection, int *delay_ms, int *interval_ms) {
    Display *display = connection->display;
    XkbDescPtr keyboard = XkbGetMap(display, 0, XkbUseCoreKbd);
    if (keyboard == NULL) return -1;
    int result = -1;
    if (XkbGetControls(display, XkbRepeatKeysMask | XkbControlsEnabledMask, keyboard) == Success && keyboard->ctrls != NULL) {
        if (keyboard->ctrls->enabled_ctrls & XkbRepeatKeysMask) {
            *delay_ms = keyboard->ctrls->repeat_delay;
            *interval_ms = keyboard->ctrls->repeat_interval;
            result = 0;
        }
    }
    XkbFreeKeyboard(keyboard, 0, True);
    return result;
}

int cxinput_wait(cxinput_connection *connection, int timeout_ms) {
    if (io_error_seen) return -1;
    if (XPending(connection->display) > 0) return 1;
    struct pollfd descriptor = {.fd = ConnectionNumber(connection->display), .events = POLLIN};
    int result = poll(&descriptor, 1, timeout_ms);
    if (result < 0 && errno == EINTR) return 0;
    if (result > 0 && (descriptor.revents & (POLLERR | POLLHUP | POLLNVAL))) return -1;
    return result;
}
