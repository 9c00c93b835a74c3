#ifndef MILEPOST_CSQLITE_SHIM_H
#define MILEPOST_CSQLITE_SHIM_H
// The system libsqlite3 (Debian: libsqlite3-dev). Swift sees it through this header only.
#include <sqlite3.h>

#endif
