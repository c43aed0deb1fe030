// The one C header the benchmarks' client sees for jansson (the main package's CJansson is not a product).
#ifndef KEYSCOPE_CBENCHJANSSON_SHIM_H
#define KEYSCOPE_CBENCHJANSSON_SHIM_H

#include <jansson.h>

// No shims needed: the client uses only functions (`json_loadb`, `json_object_get`, `json_array_size`,
// `json_array_get`, `json_string_value`, `json_integer_value`, and `json_decref`, which is static inline).

#endif
