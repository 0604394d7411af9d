#include "CArchive.h"
