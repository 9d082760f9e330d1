/* Outstanding RPC calls, matched to replies by (scope, direction, XID).
 *
 * Completion order (the default of a table): a transaction leaves as soon as
 * it is done (its reply seen and, for UDP, its linger passed), or given up;
 * memory holds the calls really outstanding and the lingering replies. Call
 * order (txn_table_set_call_order, the txn log): finished transactions also
 * queue behind the oldest unfinished call, in call order.
 *
 * Timeouts are per call: a call is given up when it has waited longer than
 * the timeout since its last transmission, wherever it stands in line.
 *
 * When memory runs short, the table first hands out finished transactions
 * early (the oldest finished first; out of call order in call order), and
 * only when every entry is a call still waiting does it let the longest
 * waiting call go: verdict NS_VERDICT_EVICTED_WAITING with its age, not
 * "unanswered". A small bounded table of tombstones (txn_tomb_*) lets the
 * RPC stage recognise the late reply of such a call. */
#ifndef NFSSCOPE_TXN_TABLE_H
#define NFSSCOPE_TXN_TABLE_H
#include <stdbool.h>
#include <stdint.h>

#include "memcap.h"
#include "nfsscope/txn.h"

struct txn_table;

/* Called for each transaction leaving the table (in call order with
 * txn_table_set_call_order, except when memory runs short). given_up: it
 * leaves without its reply; t->verdict says why (timeout, end of input, XID
 * reused, or still waiting when memory ran short). */
typedef void (*txn_done_fn)(void *ctx, struct ns_txn *t, bool given_up);

struct txn_table *txn_table_new(struct memcap *mc, txn_done_fn fn, void *ctx);
void txn_table_free(struct txn_table *t);
/* Queue finished transactions for call order (before the first call). */
void txn_table_set_call_order(struct txn_table *t, bool call_order);
/* The secret the XID hash starts from (ns_config.hash_seed); set before the
 * first call, ignored after. */
void txn_table_set_seed(struct txn_table *t, uint64_t seed);
/* The outstanding call with this key, or NULL. */
struct ns_txn *txn_find(struct txn_table *t, uint64_t scope, uint32_t xid);
/* A new outstanding call (zeroed except its key fields), or NULL when even
 * after making room (see above) there is none. now_ns: the time of the call. */
struct ns_txn *txn_new_call(struct txn_table *t, uint64_t scope, uint32_t xid, int64_t now_ns);
/* A finished transaction (an orphan reply, or the late reply of an evicted
 * call): handed out at the next flush, or by txn_mark_done once filled in. */
struct ns_txn *txn_new_done(struct txn_table *t, int64_t now_ns);
/* The call was sent again (its last_send_ts_ns updated): it waits from now. */
void txn_resent(struct txn_table *t, struct ns_txn *x);
/* The transaction got its reply at now_ns: it is handed out once linger_ns
 * has passed (UDP: so that duplicate replies and late retransmissions still
 * find it; at once when linger_ns is 0 in completion order) and, in call
 * order, once it is the oldest. */
void txn_mark_done(struct txn_table *t, struct ns_txn *x, int64_t now_ns, int64_t linger_ns);
/* The call can no longer be matched (its XID now names another call); it is
 * handed out as it stands, given up (NS_VERDICT_SUPERSEDED). */
void txn_forget(struct txn_table *t, struct ns_txn *x);
/* Hand out what is ready; give up calls that waited longer than timeout_ns
 * since their last send (all if < 0: end of input). */
void txn_flush(struct txn_table *t, int64_t now_ns, int64_t timeout_ns);
/* Transactions the memory cap made leave early: finished ones handed out
 * before their time, and calls still waiting (the latter also in
 * txn_evicted_waiting). */
uint64_t txn_evicted(const struct txn_table *t);
uint64_t txn_evicted_waiting(const struct txn_table *t);
/* Transactions held: calls outstanding, and finished ones lingering or
 * queued for call order. */
uint32_t txn_outstanding(const struct txn_table *t);

/* What is kept of a call handed out while still waiting, to recognise its
 * late reply. */
struct txn_tomb {
    uint64_t scope;
    uint64_t txn_id;        /* the evicted transaction */
    uint64_t call_frame;
    int64_t call_ts_ns, last_send_ts_ns;
    uint32_t xid, conn_id, prog, vers, proc, auth_flavor;
    uint32_t opkey;         /* statistics key of the call (UINT32_MAX: none) */
    uint16_t sends;
    uint8_t kind, gss_service, gss_proc;
    bool backchannel, call_truncated;
};
/* Keep a tombstone for x, a call being handed out with
 * NS_VERDICT_EVICTED_WAITING (call from the done callback). The oldest
 * tombstone gives way when the bounded table is full. */
void txn_tomb_put(struct txn_table *t, const struct ns_txn *x, uint32_t opkey);
/* The tombstone of (scope, xid): copied to out (may be NULL) and, with
 * take, removed. */
bool txn_tomb_find(struct txn_table *t, uint64_t scope, uint32_t xid, struct txn_tomb *out, bool take);
uint64_t txn_tombs_dropped(const struct txn_table *t); /* overwritten before their reply came */

#endif
