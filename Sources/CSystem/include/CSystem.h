#ifndef CSYSTEM_H
#define CSYSTEM_H
// POSIX pieces Swift can't reach directly (ioctl macros, variadic calls) as plain functions.
#include <stdint.h>

/// Terminal size in cells via TIOCGWINSZ. Returns 0 or -1 with errno set.
int csystem_window_size(int fd, uint16_t *rows, uint16_t *columns);
/// The window size in pixels TIOCGWINSZ reports (0 x 0 where the terminal does not fill it in).
int csystem_window_pixels(int fd, uint16_t *width, uint16_t *height);

/// open(2) without the variadic signature.
int csystem_open(const char *path, int flags, unsigned mode);

/// fcntl(fd, F_SETFL, flags | O_NONBLOCK) (or clears it). Returns 0 or -1 with errno.
int csystem_set_nonblocking(int fd, int enabled);

/// The current errno (Swift's errno access varies between toolchains).
int csystem_errno(void);
#endif

// ---- Terminal restore and signals -------------------------------------------------------------
// Signal handlers must be async-signal-safe, so they live here in C: they only write precomputed
// bytes, call tcsetattr, and write one byte to a pipe that the UI thread polls.

/// Saves the terminal's current settings (tcgetattr on `fd`) as the state to restore.
int csystem_save_terminal(int fd);
/// Whether the settings found by csystem_save_terminal were raw (no ICANON, no ECHO): then sane
/// cooked modes were saved in their place.
int csystem_saved_terminal_was_raw(void);
/// Puts `fd` into raw mode (no echo, no line editing, no signals from keys, no output processing).
int csystem_enter_raw_mode(int fd);
/// Restores the settings saved by csystem_save_terminal (TCSAFLUSH: pending input is discarded).
int csystem_restore_terminal(void);
/// Discards unread input on `fd` (so keys typed during play don't spill into the shell).
int csystem_flush_input(int fd);

/// The bytes written to `tty_fd` when the process dies of a crash signal (pop keyboard protocol,
/// mouse off, leave the alternate screen, show the cursor). Copied; at most 256 bytes.
void csystem_set_restore_bytes(int tty_fd, const char *bytes, int length);

/// SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH each write one byte (the signal number) to
/// `pipe_write_fd`; every other catchable signal that would end the process (crashes, SIGQUIT,
/// SIGUSR1/2, SIGALRM, …) restores the terminal, then dies with the same signal. Returns 0 or -1 with errno.
int csystem_install_signal_handlers(int pipe_write_fd);
/// Puts back the default dispositions (before exec-ing or exiting).
void csystem_remove_signal_handlers(void);

/// A pipe whose both ends are non-blocking and close-on-exec. Returns 0 or -1 with errno.
int csystem_pipe(int fds[2]);

/// ppoll(2) for readability on up to 8 descriptors, waiting up to timeout_ns nanoseconds (negative:
/// no limit); sets bit i of *ready for fds[i].
/// Returns the poll result (0 on timeout) or -1 with errno.
int csystem_poll_readable(const int *fds, int count, long long timeout_ns, unsigned *ready);

/// Stops this process the way SIGTSTP would (after the caller restored the terminal).
void csystem_suspend_self(void);

/// setlocale(LC_ALL, "") and whether the resulting character set is UTF-8.
int csystem_use_environment_locale_utf8(void);
/// setlocale(LC_ALL, name); 1 when its codeset is UTF-8 (a headless terminal uses C.UTF-8).
int csystem_use_locale_utf8(const char *name);
/// isatty(3).
int csystem_is_terminal(int fd);
/// dup(2) with close-on-exec. Returns the new descriptor or -1 with errno.
int csystem_duplicate(int fd);
/// dup2(2). Returns 0 or -1 with errno.
int csystem_replace(int fd, int target);
/// CPU time the calling thread has used (CLOCK_THREAD_CPUTIME_ID), in nanoseconds; -1 on failure (errno set).
long long csystem_thread_cpu_nanoseconds(void);
/// Sleeps the calling thread for `nanoseconds` (clock_nanosleep to a CLOCK_MONOTONIC deadline,
/// resumed after signals). Returns 0 or -1 with errno.
int csystem_sleep_nanoseconds(long long nanoseconds);

/// For commands without a terminal session (`phosphor add`): SIGINT and SIGTERM only set a flag
/// that csystem_interrupt_requested reads, so a long job can stop cleanly between steps.
/// Returns 0 or -1 with errno.
int csystem_catch_interrupts(void);
/// 1 once SIGINT or SIGTERM arrived after csystem_catch_interrupts, else 0. Any thread.
int csystem_interrupt_requested(void);

/// inotify_init1(IN_NONBLOCK | IN_CLOEXEC). Returns the descriptor or -1 with errno.
int csystem_inotify_init(void);
/// inotify_add_watch for files appearing, vanishing or finished being written in a folder:
/// IN_CREATE IN_DELETE IN_MOVED_FROM IN_MOVED_TO IN_CLOSE_WRITE IN_DELETE_SELF, not following links.
/// Returns the watch descriptor or -1 with errno.
int csystem_inotify_watch_folder(int fd, const char *path);
