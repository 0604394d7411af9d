#ifndef CEvdev_H
#define CEvdev_H
// Shim for <linux/input.h>. Only this target includes the C header; Swift sees the wrappers below
// (and the header's plain integer macros: EV_KEY, BTN_SOUTH, ABS_HAT0X, ...).
#include <stdint.h>
#include <linux/input.h>

/// One evdev event without the timestamp (struct input_event's layout differs between ABIs).
typedef struct {
    uint16_t type;
    uint16_t code;
    int32_t value;
} cevdev_event;

/// An absolute axis's range (struct input_absinfo).
typedef struct {
    int32_t value;
    int32_t minimum;
    int32_t maximum;
    int32_t flat;
} cevdev_axis;

/// open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC). Returns the descriptor or -1 with errno.
int cevdev_open(const char *path);
/// close(2). Returns 0 or -1 with errno.
int cevdev_close(int fd);
/// EVIOCGNAME into `buffer` (always NUL-terminated). Returns >= 0 or -1 with errno.
int cevdev_name(int fd, char *buffer, int length);
/// EVIOCGBIT(EV_KEY) / EVIOCGBIT(EV_ABS): which key codes / axes exist, as a bit array.
int cevdev_key_bits(int fd, uint8_t *bits, int length);
int cevdev_abs_bits(int fd, uint8_t *bits, int length);
/// EVIOCGKEY: which keys are down right now, as a bit array.
int cevdev_key_state(int fd, uint8_t *bits, int length);
/// EVIOCGABS(axis). Returns 0 or -1 with errno.
int cevdev_axis_info(int fd, int axis, cevdev_axis *info);
/// Reads whole struct input_event records. Returns how many (0 when none are waiting) or -1 with errno.
int cevdev_read(int fd, cevdev_event *events, int capacity);
/// Bytes in a key / axis bit array big enough for KEY_MAX / ABS_MAX.
int cevdev_key_bytes(void);
int cevdev_abs_bytes(void);
/// VT_GETSTATE on `fd` (a console tty): the number of the virtual console on screen, or -1 with errno.
int cevdev_active_console(int fd);
#endif
