#ifndef MILEPOST_CSQLITE_SHIM_H
#define MILEPOST_CSQLITE_SHIM_H
// The system libsqlite3 (Debian: libsqlite3-dev). Swift sees it through this header only.
#include <sqlite3.h>

// Binds a text SQLite copies (SQLITE_TRANSIENT is a cast Swift cannot import).
static inline int milepost_sqlite3_bind_text_copy(sqlite3_stmt *statement, int index, const char *text, int bytes) {
    return sqlite3_bind_text(statement, index, text, bytes, SQLITE_TRANSIENT);
}
#endif
