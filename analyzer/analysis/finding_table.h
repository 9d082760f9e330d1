/* The findings store: analyzers add or update findings; front ends read them
 * sorted by severity (highest first), then first time, then kind. Capped:
 * past the cap new findings are counted as dropped, never stored. */
#ifndef NFSSCOPE_FINDINGS_INT_H
#define NFSSCOPE_FINDINGS_INT_H
#include <stddef.h>
#include <stdint.h>

#include "memcap.h"
#include "nfsscope/findings.h"

struct findings;

/* Told of every change: x was created or updated; frame is the frame the
 * change is tied to (an occurrence; it may be earlier than the frame being
 * fed), 0 when the change is not tied to one (a message or severity). */
typedef void (*findings_listener_fn)(void *ctx, const struct ns_finding *x, uint64_t frame);

struct findings *findings_new(struct memcap *mc);
void findings_free(struct findings *f);
/* A new finding to fill in (kind, severity, times set), or NULL when the store
 * is full (counted). The pointer is valid until the next findings_add. */
struct ns_finding *findings_add(struct findings *f, const char *kind, uint8_t severity, int64_t ts_ns);
/* Number of the finding (for findings_get), to keep updating it later. */
size_t findings_index(const struct findings *f, const struct ns_finding *x);
struct ns_finding *findings_get(struct findings *f, size_t i);
/* Fold one more occurrence into x: count, last time, a frame and a connection. */
void finding_note(struct ns_finding *x, int64_t ts_ns, uint64_t frame, uint32_t conn_id);
void finding_add_frame(struct ns_finding *x, uint64_t frame);
void finding_add_conn(struct ns_finding *x, uint32_t conn_id);
/* Sorted view for output; the store itself keeps its order (indexes stay
 * valid). The view is valid until the next findings_add or findings_sorted. */
size_t findings_sorted(struct findings *f, const struct ns_finding *const **out);
uint64_t findings_dropped(const struct findings *f);

void findings_set_listener(struct findings *f, findings_listener_fn fn, void *ctx);
/* Record a change of x (call after changing it): a new generation, and the
 * listener is told. Every change to a stored finding goes through here. */
void findings_touch(struct findings *f, struct ns_finding *x, uint64_t frame);
/* The generation of the newest change (0: none yet). */
uint64_t findings_generation(const struct findings *f);
/* The finding with this id, or NULL. */
const struct ns_finding *findings_by_id(const struct findings *f, uint32_t id);
/* Findings changed after generation gen, by id; the array is valid until the
 * next call into the store. */
size_t findings_changed(struct findings *f, uint64_t gen, const struct ns_finding *const **out);

#endif
