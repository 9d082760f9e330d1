/* A message as captured: a list of spans, each either captured bytes or a
 * hole (bytes that were on the wire but not in the capture). */
#ifndef NFSSCOPE_MSG_H
#define NFSSCOPE_MSG_H
#include <stdint.h>

/* Everything declared here is the library's public ABI (the rest is hidden). */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

struct ns_span {
    const uint8_t *data; /* NULL: a hole of len bytes */
    uint32_t len;
};

struct ns_msg {
    const struct ns_span *spans;
    uint32_t nspans;
    uint32_t len; /* total bytes on the wire, holes included */
};

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
