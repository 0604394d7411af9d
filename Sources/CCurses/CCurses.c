#define _GNU_SOURCE
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include "CCurses.h"

#include <ncursesw/curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>
#include <string.h>
#include <unistd.h>

static SCREEN *screen = NULL;
static FILE *input_file = NULL;
static FILE *output_file = NULL;

/// Colour pairs by (foreground, background), created on first use.
#define MAX_PAIRS 4096
static int pair_foreground[MAX_PAIRS];
static int pair_background[MAX_PAIRS];
static int pair_count = 1;

static int pair_for(int foreground, int background) {
    if (foreground == -1 && background == -1) return 0;
    for (int i = 1; i < pair_count; i++) {
        if (pair_foreground[i] == foreground && pair_background[i] == background) return i;
    }
    if (pair_count >= MAX_PAIRS || pair_count >= COLOR_PAIRS) return 0;
    int pair = pair_count++;
    pair_foreground[pair] = foreground;
    pair_background[pair] = background;
    init_extended_pair(pair, foreground, background);
    return pair;
}

int ccurses_start(const char *terminal_type, int input_fd, int output_fd) {
    ccurses_end();
    input_file = fdopen(dup(input_fd), "r");
    output_file = fdopen(dup(output_fd), "w");
    if (!input_file || !output_file) return -1;
    screen = newterm(terminal_type, output_file, input_file);
    if (!screen) return -1;
    set_term(screen);
    raw();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, FALSE);
    curs_set(0);
    if (has_colors()) {
        start_color();
        use_default_colors();
    }
    pair_count = 1;
    // ncurses clears the screen on its first update; do it now, before anything is drawn raw.
    refresh();
    return 0;
}

void ccurses_stop(void) {
    if (!screen) return;
    endwin();
    fflush(output_file);
}

void ccurses_end(void) {
    if (screen) {
        if (!isendwin()) endwin();
        delscreen(screen);
        screen = NULL;
    }
    if (output_file) { fclose(output_file); output_file = NULL; }
    if (input_file) { fclose(input_file); input_file = NULL; }
}

void ccurses_resume(void) {
    if (!screen) return;
    reset_prog_mode();
    clearok(curscr, TRUE);
    refresh();
}

int ccurses_resize(int rows, int columns) { return resizeterm(rows, columns); }
int ccurses_rows(void) { return LINES; }
int ccurses_columns(void) { return COLS; }
int ccurses_colors(void) { return COLORS; }
int ccurses_has_rgb(void) {
    /* tigetflag: 1 present, 0 absent, -1 not a boolean capability (absent too). */
    char name[] = "RGB";
    return tigetflag(name) == 1;
}

int ccurses_has_string_capability(const char *name) {
    if (!screen) return 0;
    char *value = tigetstr(name);
    return value != NULL && value != (char *)-1 && value[0] != '\0';
}
const char *ccurses_terminal_name(void) { return termname(); }

ccurses_window *ccurses_screen(void) { return (ccurses_window *)stdscr; }

ccurses_window *ccurses_new_window(int rows, int columns, int row, int column) {
    return (ccurses_window *)newwin(rows, columns, row, column);
}

void ccurses_delete_window(ccurses_window *window) {
    if (window) delwin((WINDOW *)window);
}

int ccurses_move_window(ccurses_window *window, int rows, int columns, int row, int column) {
    WINDOW *w = (WINDOW *)window;
    if (wresize(w, rows, columns) != OK) return -1;
    return mvwin(w, row, column) == OK ? 0 : -1;
}

static attr_t attributes_for(int attributes) {
    attr_t result = A_NORMAL;
    if (attributes & CCURSES_BOLD) result |= A_BOLD;
    if (attributes & CCURSES_REVERSE) result |= A_REVERSE;
    if (attributes & CCURSES_DIM) result |= A_DIM;
    if (attributes & CCURSES_UNDERLINE) result |= A_UNDERLINE;
    return result;
}

void ccurses_clear(ccurses_window *window, int foreground, int background) {
    WINDOW *w = (WINDOW *)window;
    int pair = pair_for(foreground, background);
    cchar_t blank;
    setcchar(&blank, L" ", A_NORMAL, 0, &pair);
    wbkgrndset(w, &blank);
    werase(w);
}

int ccurses_put(ccurses_window *window, int row, int column, const char *utf8, int max_columns,
                int foreground, int background, int attributes) {
    WINDOW *w = (WINDOW *)window;
    int pair = pair_for(foreground, background);
    wattr_set(w, attributes_for(attributes), 0, &pair);
    int width = getmaxx(w) - column;
    if (max_columns >= 0 && max_columns < width) width = max_columns;
    if (width <= 0 || row < 0 || row >= getmaxy(w)) return 0;
    // Convert to wide characters and clip by display width, so wide glyphs never overflow.
    wchar_t wide[1024];
    size_t length = mbstowcs(wide, utf8, 1023);
    if (length == (size_t)-1) return -1;
    wide[length] = 0;
    int used = 0;
    size_t count = 0;
    while (count < length) {
        int cell = wcwidth(wide[count]);
        if (cell < 0) cell = 1;
        if (used + cell > width) break;
        used += cell;
        count++;
    }
    mvwaddnwstr(w, row, column, wide, (int)count);
    int zero = 0;
    wattr_set(w, A_NORMAL, 0, &zero);
    return used;
}

int ccurses_text_width(const char *utf8) {
    wchar_t wide[1024];
    size_t length = mbstowcs(wide, utf8, 1023);
    if (length == (size_t)-1) return -1;
    int used = 0;
    for (size_t i = 0; i < length; i++) {
        int cell = wcwidth(wide[i]);
        used += cell < 0 ? 1 : cell;  // as ccurses_put counts it
    }
    return used;
}

void ccurses_box(ccurses_window *window, int foreground, int background) {
    WINDOW *w = (WINDOW *)window;
    int pair = pair_for(foreground, background);
    wattr_set(w, A_NORMAL, 0, &pair);
    cchar_t vertical, horizontal, top_left, top_right, bottom_left, bottom_right;
    setcchar(&vertical, L"│", A_NORMAL, 0, &pair);
    setcchar(&horizontal, L"─", A_NORMAL, 0, &pair);
    setcchar(&top_left, L"╭", A_NORMAL, 0, &pair);
    setcchar(&top_right, L"╮", A_NORMAL, 0, &pair);
    setcchar(&bottom_left, L"╰", A_NORMAL, 0, &pair);
    setcchar(&bottom_right, L"╯", A_NORMAL, 0, &pair);
    wborder_set(w, &vertical, &vertical, &horizontal, &horizontal, &top_left, &top_right, &bottom_left,
                &bottom_right);
    int zero = 0;
    wattr_set(w, A_NORMAL, 0, &zero);
}

void ccurses_stage(ccurses_window *window) { wnoutrefresh((WINDOW *)window); }
static unsigned long update_count = 0;
void ccurses_update(void) {
    update_count++;
    doupdate();
}
unsigned long ccurses_update_count(void) { return update_count; }
void ccurses_repaint(ccurses_window *window) { redrawwin((WINDOW *)window); }
void ccurses_repaint_all(void) { clearok(curscr, TRUE); }
void ccurses_keep_screen(ccurses_window *window) { clearok((WINDOW *)window, FALSE); }

void ccurses_cursor(int *row, int *column) {
    int y, x;
    getyx(curscr, y, x);
    *row = y;
    *column = x;
}

/// vid_puts' output goes here: the caller already wrote SGR 0 itself.
static int discard_output(int character) { return character; }

void ccurses_attributes_reset(void) {
    // Only ncurses' belief changes: nothing is written, so nothing waits in its output buffer and
    // no doupdate is needed (one per game frame compared every line of the screen for nothing).
    vid_puts(A_NORMAL, 0, NULL, discard_output);
}
