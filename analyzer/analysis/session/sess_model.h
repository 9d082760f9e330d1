/* The session analyzer: NFSv4.1+ clients, sessions, connection binding, slot
 * tables, session findings (doc/findings.md) and READ_PLUS statistics. Fed
 * by analysis.c in packet order; views in nfsscope/session.h. */
#ifndef NFSSCOPE_SESSION_INT_API_H
#define NFSSCOPE_SESSION_INT_API_H
#include <stdbool.h>
#include <stdint.h>

#include "analysis_events.h"
#include "finding_table.h"
#include "memcap.h"
#include "nfsscope/session.h"
#include "nfsscope/stats.h"
#include "nfsscope/txn.h"

struct sess_model;

struct sess_config {
    uint32_t storm_count;       /* 0 = 20 */
    int64_t storm_window_ns;    /* 0 = 10 s */
    int64_t grace_period_ns;    /* 0 = 90 s */
    int64_t lease_time_ns;      /* a client's lease when no GETATTR told it; 0 = 90 s */
};

/* NULL when out of memory. fs: where findings go (not owned). */
struct sess_model *sess_new(struct memcap *mc, struct findings *fs, const struct sess_config *cfg);
void sess_free(struct sess_model *m);
/* Where amendments of earlier frames go (may be left unset). */
void sess_set_amend(struct sess_model *m, const struct analysis_amend *am);
/* A call's first transmission (c: its connection). out (may be NULL): the
 * slot verdict of this frame. */
void sess_on_call(struct sess_model *m, const struct ns_txn *t, const struct ns_conn *c, struct sess_frame_info *out);
/* The same XID sent again in frame/ts. */
void sess_on_retransmit(struct sess_model *m, const struct ns_txn *t, uint64_t frame, int64_t ts,
                        struct sess_frame_info *out);
/* A reply (dup: not the first one for this call). */
void sess_on_reply(struct sess_model *m, const struct ns_txn *t, const struct ns_conn *c, bool dup,
                   struct sess_frame_info *out);
/* The transaction is handed out; given_up: its call was never answered. */
void sess_on_txn_done(struct sess_model *m, const struct ns_txn *t, bool given_up);
/* Bring every finding and view up to date as of now (packet time): messages,
 * fractions, rules that depend only on elapsed time. Gives nothing up;
 * idempotent; cheap enough to call every second. */
void sess_settle(struct sess_model *m, int64_t now);
/* End of input: settle, then the rules that need the end. Idempotent. */
void sess_finish(struct sess_model *m, int64_t now);
/* Lookups by key; NULL if not known (or evicted). */
const struct ns_session_view *sess_session_by_id(struct sess_model *m, const uint8_t *sessionid);
const struct ns_client_view *sess_client_by_id(struct sess_model *m, uint64_t clientid);

size_t sess_client_count(const struct sess_model *m);
const struct ns_client_view *sess_client(const struct sess_model *m, size_t i);
size_t sess_session_count(const struct sess_model *m);
const struct ns_session_view *sess_session(struct sess_model *m, size_t i);
const struct ns_read_bytes *sess_read_totals(const struct sess_model *m);
size_t sess_read_files(struct sess_model *m, const struct ns_read_file *const **out);
const struct ns_session_stats *sess_stats(const struct sess_model *m);

#endif
