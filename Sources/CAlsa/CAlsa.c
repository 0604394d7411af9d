#include "CAlsa.h"
