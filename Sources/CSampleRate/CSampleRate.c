#include "CSampleRate.h"
