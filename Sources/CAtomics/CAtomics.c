// The operations are inline, in include/CAtomics.h; a C target needs one source file.
#include "CAtomics.h"
