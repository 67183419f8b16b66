#ifndef CLZ4_SHIM_H
#define CLZ4_SHIM_H
// The block API (lz4.h) writes and decodes records in standard LZ4 frames; the frame API
// (lz4frame.h) is there for `bench blocks`, which measures block sizes with it.
#include <lz4.h>
#include <lz4frame.h>
#endif
