// The one C header Swift sees for jansson. Macros that Swift cannot import get a prefixed static inline twin here.
#ifndef KEYSCOPE_CJANSSON_SHIM_H
#define KEYSCOPE_CJANSSON_SHIM_H

#include <jansson.h>

#endif
