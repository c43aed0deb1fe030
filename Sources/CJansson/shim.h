// The one C header Swift sees for jansson. Macros that Swift cannot import get a prefixed static inline twin here.
#ifndef KEYSCOPE_CJANSSON_SHIM_H
#define KEYSCOPE_CJANSSON_SHIM_H

#include <jansson.h>

// Not needed as shims: `json_object_foreach` (Swift walks objects with `json_object_iter`, `_iter_next`,
// `_iter_key`, `_iter_key_len` and `_iter_value`), `json_boolean` (Swift calls `json_true()` / `json_false()`), and
// plain integer macros such as `JSON_REJECT_DUPLICATES` or `JSON_PARSER_MAX_DEPTH`, which Swift imports as constants.

/// `json_typeof` is a function-like macro (`(json)->type`), which Swift cannot import.
static inline json_type kjs_typeof(const json_t *json) { return json_typeof(json); }

#endif
