// The one C header Swift sees for hiredis 0.14 (the Redis client, RESP2), imported by KeyscopeRedis only.
// Static-inline twins stand in for what Swift cannot use directly: the error text in a fixed char array, the
// timeval-taking calls (milliseconds here), and the reply type and error codes as plain functions.
#ifndef KEYSCOPE_CHIREDIS_SHIM_H
#define KEYSCOPE_CHIREDIS_SHIM_H

#include <hiredis/hiredis.h>
#include <sys/time.h>

static inline struct timeval keyscope_redis_timeval(int milliseconds) {
    struct timeval tv;
    tv.tv_sec = milliseconds / 1000;
    tv.tv_usec = (milliseconds % 1000) * 1000;
    return tv;
}

/// Connects with a connect timeout; NULL only when hiredis could not allocate a context.
static inline redisContext *keyscope_redis_connect(const char *host, int port, int timeout_ms) {
    return redisConnectWithTimeout(host, port, keyscope_redis_timeval(timeout_ms));
}

/// Sets the socket's read and write timeout: a command that gets no answer in time fails with an I/O error.
static inline int keyscope_redis_set_timeout(redisContext *context, int timeout_ms) {
    return redisSetTimeout(context, keyscope_redis_timeval(timeout_ms));
}

/// The context's error text (hiredis keeps it in a fixed char array).
static inline const char *keyscope_redis_errstr(const redisContext *context) { return context->errstr; }

static inline int keyscope_redis_err(const redisContext *context) { return context->err; }

static inline int keyscope_redis_reply_string(void) { return REDIS_REPLY_STRING; }
static inline int keyscope_redis_reply_array(void) { return REDIS_REPLY_ARRAY; }
static inline int keyscope_redis_reply_integer(void) { return REDIS_REPLY_INTEGER; }
static inline int keyscope_redis_reply_nil(void) { return REDIS_REPLY_NIL; }
static inline int keyscope_redis_reply_status(void) { return REDIS_REPLY_STATUS; }
static inline int keyscope_redis_reply_error(void) { return REDIS_REPLY_ERROR; }

#endif
