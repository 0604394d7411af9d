#include "CEvdev.h"
