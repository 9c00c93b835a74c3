#ifndef MILEPOST_CLIBPQ_SHIM_H
#define MILEPOST_CLIBPQ_SHIM_H
// The system libpq (Debian: libpq-dev). Swift sees it through this header only.
#include <libpq-fe.h>
#endif
