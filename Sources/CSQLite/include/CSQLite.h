#ifndef CSQLite_H
#define CSQLite_H
// Shim for <sqlite3.h>. Only this target includes the C header; Swift calls sqlite3_* directly
// and uses the wrappers below for what Swift cannot import (SQLITE_TRANSIENT is a cast macro).
#include <sqlite3.h>

/// sqlite3_bind_text with SQLITE_TRANSIENT: SQLite copies the bytes before returning.
int csqlite_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, int byteCount);

/// sqlite3_bind_blob with SQLITE_TRANSIENT.
int csqlite_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, int byteCount);

#endif
