#ifndef CLZ4_SHIM_H
#define CLZ4_SHIM_H
// The block API (lz4.h) decodes records; the frame API (lz4frame.h) writes standard LZ4 frames.
#include <lz4.h>
#include <lz4frame.h>
#endif
