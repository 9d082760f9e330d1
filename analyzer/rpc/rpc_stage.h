/* The RPC stage: RPC messages of a flow in, transactions out. It owns the
 * connection records and the table of outstanding calls; it decides which
 * side is the server, matches replies to calls by XID and tells a sink what
 * happened, in packet order. It knows nothing of the analyzers behind it.
 * Of a flow it writes only its own part, struct flow_rpc (flow.h): the
 * connection id and the server's side. */
#ifndef NFSSCOPE_RPC_STAGE_H
#define NFSSCOPE_RPC_STAGE_H
#include <stdbool.h>
#include <stdint.h>

#include "flow.h"
#include "memcap.h"
#include "nfs_names.h"
#include "nfsscope/msg.h"
#include "nfsscope/stats.h"
#include "nfsscope/txn.h"

/* The frame being processed: every RPC event happens at one. */
struct rpc_at {
    uint64_t frame;
    int64_t ts;
};

/* Where the stage's results go; every member may be NULL. */
struct rpc_sink {
    void *ctx;
    /* a call's first transmission, arguments decoded */
    void (*on_call)(void *ctx, struct ns_txn *t, const struct ns_conn *c, const struct rpc_at *at);
    /* the same call again (t->sends already counts it) */
    void (*on_resend)(void *ctx, struct ns_txn *t, const struct ns_conn *c, const struct rpc_at *at);
    /* a reply: first (dup false), a further one (dup), or one whose call is unknown (orphan) */
    void (*on_reply)(void *ctx, struct ns_txn *t, const struct ns_conn *c, bool dup, bool orphan,
                     const struct rpc_at *at);
    /* the transaction leaves the stage (in call order unless completion_order,
     * or memory ran short); given_up: without its reply (t->verdict says why) */
    void (*on_done)(void *ctx, struct ns_txn *t, bool given_up);
    /* hand transactions out as soon as they are done, not in call order */
    bool completion_order;
    /* where the decoders tell names and file handles (NULL: not looked for) */
    const struct nfs_name_sink *names;
};

struct rpc_stage;

/* NULL when out of memory. st: counters the stage adds to (not owned).
 * call_timeout_ns: unanswered calls are given up after this. */
/* The key of the outstanding-call hash (ns_config.hash_seed); before the
 * first message. */
void rpc_stage_set_hash_seed(struct rpc_stage *r, uint64_t seed);
struct rpc_stage *rpc_stage_new(struct memcap *mc, struct ns_stats *st, const struct rpc_sink *sink,
                                int64_t call_timeout_ns);
void rpc_stage_free(struct rpc_stage *r);
/* One RPC message sent by side `side` of flow f (truncated: holes in it). */
void rpc_stage_message(struct rpc_stage *r, struct flow *f, int side, const struct ns_msg *m, bool truncated,
                       const struct rpc_at *at);
/* Could p (n captured bytes of a len-byte record) start an RPC message on
 * this flow? Used by record marking to resynchronise: expected, at the
 * boundary the record before announced (its shape only); else at any offset
 * scanned, as tshark's heuristic (RPC version 2 and a known program, version
 * and procedure for a call; a sane reply_stat/accept_stat for a reply). */
bool rpc_stage_plausible(struct rpc_stage *r, const struct flow *f, int side, const uint8_t *p, uint32_t n,
                         uint32_t len, bool expected);
/* May the middle of message m (a trial: head, hole, zero tail; see
 * rpc_record.h) be skipped? True when its decoding reads no byte of a hole:
 * decoding the real message will then read only head and tail too. */
bool rpc_stage_skippable(struct rpc_stage *r, const struct flow *f, int side, const struct ns_msg *m);
/* Hand out what is done; give up calls older than timeout (all if < 0, the
 * configured timeout if 0). */
void rpc_stage_flush(struct rpc_stage *r, int64_t now_ns, int64_t timeout_ns);

/* Connections by id (1..count; see conn_table.h for their lifetime). A
 * record never moves: a pointer stays valid until the record is dropped (a
 * closed connection, oldest first, when the cap needs room); NULL if id is
 * out of range or its record was dropped. */
uint32_t rpc_stage_conn_count(const struct rpc_stage *r);
struct ns_conn *rpc_stage_conn(const struct rpc_stage *r, uint32_t id);
bool rpc_stage_conn_tcp(const struct rpc_stage *r, uint32_t id, struct ns_conn_tcp *out);
void rpc_stage_conn_tcp_add(struct rpc_stage *r, uint32_t id, uint64_t retrans, uint64_t ooo);
/* The flow is gone (closed, evicted or reused): its record may become a
 * closed-connection summary. Idempotent. */
void rpc_stage_flow_gone(struct rpc_stage *r, const struct flow *f);
/* The flow's addresses and ports carry a new connection (TCP port reuse):
 * the record stays the old connection's (gone) and the flow's RPC part
 * (struct flow_rpc, the stage's own) is cleared, so the next message makes
 * a new record and decides the server again. */
void rpc_stage_flow_reused(struct rpc_stage *r, struct flow *f);
/* Closed connection records dropped by the cap, their figures added up,
 * and the records kept now. */
uint64_t rpc_stage_conns_dropped(const struct rpc_stage *r);
const struct ns_conn *rpc_stage_conns_dropped_sum(const struct rpc_stage *r);
uint32_t rpc_stage_conns_kept(const struct rpc_stage *r);
/* RPC messages dropped because no connection record could be made. */
uint64_t rpc_stage_conns_over_cap(const struct rpc_stage *r);
uint64_t rpc_stage_evicted_calls(const struct rpc_stage *r);
uint32_t rpc_stage_outstanding(const struct rpc_stage *r);

#endif
