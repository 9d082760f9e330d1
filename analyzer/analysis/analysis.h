/* The analyzers fed by the RPC stage (sessions, UDP timing) and the findings
 * store they share: one place that tells each of them what happened, in
 * packet order, and collects what they say about each frame. Each analyzer
 * owns its state; none reads the stream tables or the analyzer object. */
#ifndef NFSSCOPE_ANALYSIS_H
#define NFSSCOPE_ANALYSIS_H
#include <stdbool.h>

#include "analysis_events.h"
#include "finding_table.h"
#include "ipfrag.h"
#include "memcap.h"
#include "nfs_names.h"
#include "nfsscope/nfsscope.h"

struct analysis {
    struct findings *findings;
    struct sess_model *sessions;
    struct udp_timing *udp;
    struct who *who; /* per file (paths from the wire), per user, per client */
};

/* What the analyzers said about one frame of a call or reply. */
struct analysis_frame {
    struct sess_frame_info sess;
    struct udp_frame_info udp;
};

/* Where the decoders tell names and handles (the who module's path map). */
const struct nfs_name_sink *analysis_names(struct analysis *an);
/* Create every analyzer (false: out of memory; what was made is freed). */
bool analysis_init(struct analysis *an, struct memcap *mc, const struct ns_config *cfg);
void analysis_free(struct analysis *an);
/* Where findings changes and amendments go (either may be NULL). */
void analysis_set_listeners(struct analysis *an, findings_listener_fn on_finding, analysis_amend_fn on_amend,
                            void *ctx);
/* A call's first transmission, its arguments decoded (frame/now: where). */
void analysis_on_call(struct analysis *an, struct ns_txn *t, const struct ns_conn *c, uint64_t frame, int64_t now,
                      struct analysis_frame *out);
/* The same XID sent again (t->sends already counts it; c: the connection it came on). */
void analysis_on_retransmit(struct analysis *an, struct ns_txn *t, const struct ns_conn *c, uint64_t frame,
                            int64_t now, struct analysis_frame *out);
/* A reply, its results decoded; dup: a reply after the first (t keeps the first). */
void analysis_on_reply(struct analysis *an, struct ns_txn *t, const struct ns_conn *c, bool dup, uint64_t frame,
                       int64_t now, struct analysis_frame *out);
/* A transaction is handed out (call order); given_up: never answered. */
void analysis_on_txn_done(struct analysis *an, const struct ns_txn *t, const struct ns_conn *c, bool given_up);
/* An IP datagram that was fragmented, complete or given up. */
void analysis_on_fragmented(struct analysis *an, const struct ipfrag_done *d, uint64_t frame, int64_t now);
/* Findings and views up to date as of now; span: capture time so far.
 * Gives nothing up; idempotent. */
void analysis_settle(struct analysis *an, int64_t now, int64_t span_ns);
/* End of input (after every transaction was handed out). Idempotent. */
void analysis_finish(struct analysis *an, int64_t now, int64_t span_ns);

#endif
