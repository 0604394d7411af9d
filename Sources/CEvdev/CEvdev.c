#include "CEvdev.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/vt.h>
#include <unistd.h>

int cevdev_open(const char *path) { return open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); }

int cevdev_close(int fd) { return close(fd); }

int cevdev_name(int fd, char *buffer, int length) {
    if (length <= 0) return -1;
    memset(buffer, 0, (size_t)length);
    int result = ioctl(fd, EVIOCGNAME(length - 1), buffer);
    buffer[length - 1] = 0;
    return result;
}

int cevdev_key_bits(int fd, uint8_t *bits, int length) {
    memset(bits, 0, (size_t)length);
    return ioctl(fd, EVIOCGBIT(EV_KEY, length), bits);
}

int cevdev_abs_bits(int fd, uint8_t *bits, int length) {
    memset(bits, 0, (size_t)length);
    return ioctl(fd, EVIOCGBIT(EV_ABS, length), bits);
}

int cevdev_key_state(int fd, uint8_t *bits, int length) {
    memset(bits, 0, (size_t)length);
    return ioctl(fd, EVIOCGKEY(length), bits);
}

int cevdev_axis_info(int fd, int axis, cevdev_axis *info) {
    struct input_absinfo absinfo;
    if (ioctl(fd, EVIOCGABS(axis), &absinfo) != 0) return -1;
    info->value = absinfo.value;
    info->minimum = absinfo.minimum;
    info->maximum = absinfo.maximum;
    info->flat = absinfo.flat;
    return 0;
}

int cevdev_read(int fd, cevdev_event *events, int capacity) {
    struct input_event raw[64];
    if (capacity > 64) capacity = 64;
    ssize_t got = read(fd, raw, sizeof(struct input_event) * (size_t)capacity);
    if (got < 0) return (errno == EAGAIN || errno == EWOULDBLOCK) ? 0 : -1;
    int count = (int)(got / (ssize_t)sizeof(struct input_event));
    for (int i = 0; i < count; i++) {
        events[i].type = raw[i].type;
        events[i].code = raw[i].code;
        events[i].value = raw[i].value;
    }
    return count;
}

int cevdev_key_bytes(void) { return (KEY_MAX + 8) / 8; }
int cevdev_abs_bytes(void) { return (ABS_MAX + 8) / 8; }

int cevdev_active_console(int fd) {
    struct vt_stat state;
    if (ioctl(fd, VT_GETSTATE, &state) < 0) return -1;
    return state.v_active;
}
