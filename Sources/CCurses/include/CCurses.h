#ifndef CCURSES_H
#define CCURSES_H
// ncursesw as the menus use it. Text is UTF-8 (ncursesw converts under a UTF-8 locale); colours
// are xterm palette indices (-1 = the terminal's default); pairs are created on demand.
#include <stdint.h>

typedef struct ccurses_window ccurses_window;

/// newterm() on the given descriptors (dup'ed, so closing them later is safe), then raw mode,
/// no echo, no newline translation, hidden cursor, colours with the terminal's defaults.
/// `terminal_type` NULL means $TERM. Ends a screen started before (one screen at a time).
/// Returns 0, or -1 when the terminal type is unknown or unusable.
int ccurses_start(const char *terminal_type, int input_fd, int output_fd);
/// endwin() if needed, then frees the screen and closes its streams (a headless terminal's end).
void ccurses_end(void);
/// endwin(): leaves the alternate screen and restores the terminal modes ncurses changed.
void ccurses_stop(void);
/// Re-enters after ccurses_stop (resume after Ctrl-Z).
void ccurses_resume(void);
/// resizeterm() to the new size after SIGWINCH.
int ccurses_resize(int rows, int columns);
int ccurses_rows(void);
int ccurses_columns(void);
/// How many colours the terminal has (COLORS).
int ccurses_colors(void);
/* 1 when the terminal's terminfo entry has the RGB flag (direct colour), else 0. */
int ccurses_has_rgb(void);
/// 1 when the terminal's terminfo entry has the string capability `name` (e.g. "rep"), else 0.
int ccurses_has_string_capability(const char *name);
/// The terminal type ncurses drives (TERM, or the type a headless terminal was opened with).
const char *ccurses_terminal_name(void);

ccurses_window *ccurses_screen(void);  // stdscr
ccurses_window *ccurses_new_window(int rows, int columns, int row, int column);
void ccurses_delete_window(ccurses_window *window);
int ccurses_move_window(ccurses_window *window, int rows, int columns, int row, int column);

enum {
    CCURSES_BOLD = 1,
    CCURSES_REVERSE = 2,
    CCURSES_DIM = 4,
    CCURSES_UNDERLINE = 8,
};

/// Fills the whole window with spaces in the given colours.
void ccurses_clear(ccurses_window *window, int foreground, int background);
/// Writes UTF-8 text at (row, column) of the window, clipped to `max_columns` cells (-1: to the edge).
int ccurses_put(ccurses_window *window, int row, int column, const char *utf8, int max_columns,
                int foreground, int background, int attributes);
/// How many terminal columns `utf8` takes (wcwidth per character, as ccurses_put counts them);
/// -1 for text that is not valid in the locale.
int ccurses_text_width(const char *utf8);
/// A box around the window's edge in the given colours (line-drawing characters).
void ccurses_box(ccurses_window *window, int foreground, int background);

/// Marks the window for the next ccurses_update (wnoutrefresh).
void ccurses_stage(ccurses_window *window);
/// Writes everything staged to the terminal (doupdate).
void ccurses_update(void);
/// How many times ccurses_update ran (tests: raw frames alone must not cost an ncurses update).
unsigned long ccurses_update_count(void);
/// Forgets what ncurses believes is on screen inside the window's rectangle, so the next update
/// repaints exactly that rectangle (used over the raw-drawn game picture).
void ccurses_repaint(ccurses_window *window);
/// Forgets the whole screen: the next update repaints everything.
void ccurses_repaint_all(void);
/* A new full-screen window clears the terminal at its first refresh; this one does not. */
void ccurses_keep_screen(ccurses_window *window);
/// Where ncurses believes the terminal cursor is (after raw output the caller moves it back there).
void ccurses_cursor(int *row, int *column);
/// Tells ncurses the terminal's attributes were reset behind its back (SGR 0 was written),
/// without writing anything or updating the screen.
void ccurses_attributes_reset(void);
#endif
