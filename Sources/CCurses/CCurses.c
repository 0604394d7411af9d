#include "CCurses.h"
