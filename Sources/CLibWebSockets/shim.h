// The one C header Swift sees for libwebsockets. Macros that Swift cannot import get a prefixed static inline twin.
#ifndef KEYSCOPE_CLIBWEBSOCKETS_SHIM_H
#define KEYSCOPE_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

#if defined(__linux__)
// The readiness watch (KeyscopeLws/ReadinessWatch.swift): Glibc's Swift module has no epoll.
#include <sys/epoll.h>
#endif

/// `LWS_PRE` (the headroom lws_write needs before the payload) is a macro over a macro, which Swift cannot import.
static inline size_t kws_pre(void) { return LWS_PRE; }

#endif
