#ifndef CSYSTEM_H
#define CSYSTEM_H
// POSIX pieces Swift can't reach directly (ioctl macros, variadic calls) as plain functions.
#include <stdint.h>

/// Terminal size in cells via TIOCGWINSZ. Returns 0 or -1 with errno set.
int csystem_window_size(int fd, uint16_t *rows, uint16_t *columns);

/// open(2) without the variadic signature.
int csystem_open(const char *path, int flags, unsigned mode);

/// fcntl(fd, F_SETFL, flags | O_NONBLOCK) (or clears it). Returns 0 or -1 with errno.
int csystem_set_nonblocking(int fd, int enabled);

/// The current errno (Swift's errno access varies between toolchains).
int csystem_errno(void);
#endif
