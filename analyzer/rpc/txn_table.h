/* Outstanding RPC calls, matched to replies by (scope, direction, XID), and
 * handed out as transactions in call order. Capped; when full, or when a call
 * waits longer than the timeout, the oldest call is given up (counted). */
#ifndef NFSSCOPE_TXN_TABLE_H
#define NFSSCOPE_TXN_TABLE_H
#include <stdbool.h>
#include <stdint.h>

#include "memcap.h"
#include "nfsscope/txn.h"

struct txn_table;

/* Called for each finished transaction in call order. given_up: no reply. */
typedef void (*txn_done_fn)(void *ctx, struct ns_txn *t, bool given_up);

struct txn_table *txn_table_new(struct memcap *mc, txn_done_fn fn, void *ctx);
void txn_table_free(struct txn_table *t);
/* The outstanding call with this key, or NULL. */
struct ns_txn *txn_find(struct txn_table *t, uint64_t scope, uint32_t xid);
/* A new outstanding call (zeroed except its key fields), or NULL when even
 * after giving up the oldest call there is no room. */
struct ns_txn *txn_new_call(struct txn_table *t, uint64_t scope, uint32_t xid);
/* A finished transaction to hand out in order (orphan reply). */
struct ns_txn *txn_new_done(struct txn_table *t);
/* The transaction got its reply at now_ns: it is handed out once it is the
 * oldest and linger_ns has passed (UDP: so that duplicate replies and late
 * retransmissions still find it). */
void txn_mark_done(struct txn_table *t, struct ns_txn *x, int64_t now_ns, int64_t linger_ns);
/* The call can no longer be matched (its XID now names another call); it is
 * handed out in order as it stands. */
void txn_forget(struct txn_table *t, struct ns_txn *x);
/* Hand out what is ready; give up calls older than timeout_ns (all if < 0). */
void txn_flush(struct txn_table *t, int64_t now_ns, int64_t timeout_ns);
uint64_t txn_evicted(const struct txn_table *t);
uint32_t txn_outstanding(const struct txn_table *t);

#endif
