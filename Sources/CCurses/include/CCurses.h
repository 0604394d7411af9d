#ifndef CCurses_H
#define CCurses_H
// Shim for <ncursesw/curses.h>. Only this target includes the C header; Swift sees the wrappers below.
#include <ncursesw/curses.h>
#endif
