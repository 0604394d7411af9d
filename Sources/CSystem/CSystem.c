#define _GNU_SOURCE
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

#include <poll.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <time.h>

static struct termios saved_termios;
static int saved_termios_valid = 0;
static int saved_termios_fd = -1;
static int saved_was_raw = 0;
/* Room for the modes and the palette entries the picture may redefine (71 OSC 4, ~2 KB). */
static char restore_bytes[4096];
static int restore_length = 0;
static int restore_fd = -1;
static int signal_pipe_fd = -1;

// `stty sane`'s modes over whatever `t` holds (its control characters are kept: raw mode
// leaves them alone, so they are still the user's).
static void make_sane(struct termios *t) {
    t->c_iflag &= ~(tcflag_t)(IGNBRK | INLCR | IGNCR | IXOFF | IUCLC | IXANY | PARMRK | ISTRIP);
    t->c_iflag |= BRKINT | ICRNL | IXON | IMAXBEL | IUTF8;
    t->c_oflag &= ~(tcflag_t)(OLCUC | OCRNL | ONOCR | ONLRET | OFILL | OFDEL);
    t->c_oflag |= OPOST | ONLCR;
    t->c_cflag |= CREAD;
    t->c_lflag &= ~(tcflag_t)(ECHONL | NOFLSH | XCASE | TOSTOP | ECHOPRT);
    t->c_lflag |= ISIG | ICANON | IEXTEN | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE;
}

int csystem_save_terminal(int fd) {
    if (tcgetattr(fd, &saved_termios) != 0) return -1;
    // A terminal already raw at start (no line editing, no echo) is one that a killed program
    // (SIGKILL: no handler runs) left behind, maybe an earlier Phosphor: giving those modes back
    // would leave the shell unusable, so the saved state becomes sane cooked modes instead.
    saved_was_raw = !(saved_termios.c_lflag & ICANON) && !(saved_termios.c_lflag & ECHO);
    if (saved_was_raw) make_sane(&saved_termios);
    saved_termios_valid = 1;
    saved_termios_fd = fd;
    return 0;
}

int csystem_saved_terminal_was_raw(void) { return saved_termios_valid && saved_was_raw; }

int csystem_enter_raw_mode(int fd) {
    struct termios raw;
    if (tcgetattr(fd, &raw) != 0) return -1;
    cfmakeraw(&raw);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    return tcsetattr(fd, TCSANOW, &raw);
}

int csystem_restore_terminal(void) {
    if (!saved_termios_valid) return 0;
    return tcsetattr(saved_termios_fd, TCSAFLUSH, &saved_termios);
}

int csystem_flush_input(int fd) { return tcflush(fd, TCIFLUSH); }

void csystem_set_restore_bytes(int tty_fd, const char *bytes, int length) {
    if (length > (int)sizeof restore_bytes) length = (int)sizeof restore_bytes;
    memcpy(restore_bytes, bytes, (size_t)length);
    restore_length = length;
    restore_fd = tty_fd;
}

static void forward_signal(int number) {
    int saved_errno = errno;
    if (signal_pipe_fd >= 0) {
        unsigned char byte = (unsigned char)number;
        ssize_t ignored = write(signal_pipe_fd, &byte, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

static void crash_signal(int number) {
    if (restore_fd >= 0 && restore_length > 0) {
        ssize_t ignored = write(restore_fd, restore_bytes, (size_t)restore_length);
        (void)ignored;
    }
    if (saved_termios_valid) tcsetattr(saved_termios_fd, TCSAFLUSH, &saved_termios);
    signal(number, SIG_DFL);
    raise(number);
}

static const int forwarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH};
// Every other signal whose default action ends the process: crashes, and the ones a user or a
// script sends (SIGQUIT from Ctrl-\\ or kill, SIGUSR1/2, timers, resource limits). Each gives the
// terminal back, then dies of the same signal, so the exit status still says which. Catching
// SIGQUIT and the crash signals here also keeps Swift's backtracer (which installed its own
// handlers when the runtime loaded) from starting its interactive prompt on a raw alt screen.
static const int crash_signals[] = {
    SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGQUIT,
    SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPWR, SIGSTKFLT,
};

int csystem_install_signal_handlers(int pipe_write_fd) {
    signal_pipe_fd = pipe_write_fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    action.sa_handler = forward_signal;
    for (size_t i = 0; i < sizeof forwarded_signals / sizeof forwarded_signals[0]; i++) {
        if (sigaction(forwarded_signals[i], &action, NULL) != 0) return -1;
    }
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    action.sa_handler = crash_signal;
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) {
        if (sigaction(crash_signals[i], &action, NULL) != 0) return -1;
    }
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

void csystem_remove_signal_handlers(void) {
    for (size_t i = 0; i < sizeof forwarded_signals / sizeof forwarded_signals[0]; i++) {
        signal(forwarded_signals[i], SIG_DFL);
    }
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) {
        signal(crash_signals[i], SIG_DFL);
    }
    signal_pipe_fd = -1;
}

int csystem_pipe(int fds[2]) { return pipe2(fds, O_NONBLOCK | O_CLOEXEC); }

int csystem_poll_readable(const int *fds, int count, long long timeout_ns, unsigned *ready) {
    struct pollfd entries[8];
    if (count > 8) count = 8;
    for (int i = 0; i < count; i++) {
        entries[i].fd = fds[i];
        entries[i].events = POLLIN;
        entries[i].revents = 0;
    }
    // ppoll, not poll: a timeout in whole milliseconds wakes up to 1 ms before a frame is due,
    // and the caller then spins through zero-timeout polls until it is.
    struct timespec timeout = { .tv_sec = timeout_ns / 1000000000LL, .tv_nsec = timeout_ns % 1000000000LL };
    int result = ppoll(entries, (nfds_t)count, timeout_ns < 0 ? NULL : &timeout, NULL);
    *ready = 0;
    if (result > 0) {
        for (int i = 0; i < count; i++) {
            if (entries[i].revents & (POLLIN | POLLHUP | POLLERR)) *ready |= 1u << i;
        }
    }
    return result;
}

void csystem_suspend_self(void) {
    signal(SIGTSTP, SIG_DFL);
    raise(SIGTSTP);
}

#include <langinfo.h>
#include <locale.h>

int csystem_use_environment_locale_utf8(void) {
    setlocale(LC_ALL, "");
    const char *codeset = nl_langinfo(CODESET);
    return codeset && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

int csystem_use_locale_utf8(const char *name) {
    if (!setlocale(LC_ALL, name)) return 0;
    const char *codeset = nl_langinfo(CODESET);
    return codeset && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

int csystem_is_terminal(int fd) { return isatty(fd); }
int csystem_duplicate(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 3); }
int csystem_replace(int fd, int target) { return dup2(fd, target) < 0 ? -1 : 0; }

long long csystem_thread_cpu_nanoseconds(void)
{
    struct timespec now;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0)
        return -1;
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

int csystem_sleep_nanoseconds(long long nanoseconds)
{
    struct timespec deadline;
    if (clock_gettime(CLOCK_MONOTONIC, &deadline) != 0)
        return -1;
    long long total = (long long)deadline.tv_nsec + (nanoseconds > 0 ? nanoseconds : 0);
    deadline.tv_sec += (time_t)(total / 1000000000LL);
    deadline.tv_nsec = (long)(total % 1000000000LL);
    int result;
    // An absolute deadline: a signal that interrupts the sleep does not make it any longer.
    while ((result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL)) == EINTR) {}
    if (result != 0) {
        errno = result;
        return -1;
    }
    return 0;
}

int csystem_window_pixels(int fd, uint16_t *width, uint16_t *height) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *width = size.ws_xpixel;
    *height = size.ws_ypixel;
    return 0;
}

static volatile sig_atomic_t interrupt_requested = 0;

static void note_interrupt(int signal_number) {
    (void)signal_number;
    interrupt_requested = 1;
}

int csystem_catch_interrupts(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    action.sa_handler = note_interrupt;
    if (sigaction(SIGINT, &action, NULL) != 0) return -1;
    if (sigaction(SIGTERM, &action, NULL) != 0) return -1;
    return 0;
}

int csystem_interrupt_requested(void) { return interrupt_requested ? 1 : 0; }

#include <sys/inotify.h>

int csystem_inotify_init(void) { return inotify_init1(IN_NONBLOCK | IN_CLOEXEC); }

int csystem_inotify_watch_folder(int fd, const char *path) {
    return inotify_add_watch(fd, path, IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE
                                           | IN_DELETE_SELF | IN_DONT_FOLLOW | IN_ONLYDIR);
}
