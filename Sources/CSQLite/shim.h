#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
// SQLite, for the benchmark's SQLite peer only.
#include <sqlite3.h>
#endif
