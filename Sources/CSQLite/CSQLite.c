#include "CSQLite.h"

int csqlite_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, int byteCount) {
    return sqlite3_bind_text(statement, index, text, byteCount, SQLITE_TRANSIENT);
}

int csqlite_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, int byteCount) {
    return sqlite3_bind_blob(statement, index, bytes, byteCount, SQLITE_TRANSIENT);
}
