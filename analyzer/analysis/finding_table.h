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
/* The RFC reference, a constant: copied, not formatted (a finding is made
 * once per kind and key, but a capture can make many). */
void finding_set_rfc(struct ns_finding *x, const char *rfc);
/* Sorted view for output; the store itself keeps its order (indexes stay
 * valid). The view is valid until the next findings_add or findings_sorted. */
size_t findings_sorted(const struct findings *f, const struct ns_finding *const **out);
uint64_t findings_dropped(const struct findings *f);

/* Messages are rendered when a front end reads a finding, not when it
 * changes (issue 21: text is for people; a finding raised a million times
 * must not be formatted a million times). An analysis keeps in the
 * finding's state (FINDINGS_STATE_MAX bytes, zeroed at findings_add) the
 * numbers its message says, beyond the finding's own fields, and gives the
 * renderer that writes the message from both. Every findings_touch marks
 * the message stale; findings_sorted, findings_changed, findings_by_id and
 * the listener's finding (findings_render) bring it up to date first.
 * A finding without a renderer keeps the message its analysis writes. */
#define FINDINGS_STATE_MAX 112
typedef void (*findings_render_fn)(const struct ns_finding *x, const void *state, char *msg);
void findings_set_renderer(struct findings *f, const struct ns_finding *x, findings_render_fn fn);
/* x's state, to compare and write (aligned for any scalar). */
void *findings_state(struct findings *f, const struct ns_finding *x);
/* x with its message up to date (x is one of f's findings). */
const struct ns_finding *findings_render(const struct findings *f, const struct ns_finding *x);

void findings_set_listener(struct findings *f, findings_listener_fn fn, void *ctx);
/* Record a change of x (call after changing it): a new generation, its
 * message stale, and the listener is told. Every change to a stored finding
 * goes through here. */
void findings_touch(struct findings *f, struct ns_finding *x, uint64_t frame);
/* The generation of the newest change (0: none yet). */
uint64_t findings_generation(const struct findings *f);
/* The finding with this id, or NULL. */
const struct ns_finding *findings_by_id(const struct findings *f, uint32_t id);
/* Findings changed after generation gen, by id; the array is valid until the
 * next call into the store. */
size_t findings_changed(const struct findings *f, uint64_t gen, const struct ns_finding *const **out);

#endif
