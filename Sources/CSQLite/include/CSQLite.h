#ifndef CSQLite_H
#define CSQLite_H
// Shim for <sqlite3.h>. Only this target includes the C header; Swift sees the wrappers below.
#include <sqlite3.h>
#endif
