#include "CSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

int csystem_window_size(int fd, uint16_t *rows, uint16_t *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

int csystem_open(const char *path, int flags, unsigned mode) { return open(path, flags, mode); }

int csystem_set_nonblocking(int fd, int enabled) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    flags = enabled ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
    return fcntl(fd, F_SETFL, flags);
}

int csystem_errno(void) { return errno; }
