/* The analyzers fed by the RPC layer (sessions, UDP timing, ...): one place
 * that tells each of them what happened, in packet order. Each analyzer owns
 * its state; it reads transactions and connections, never the stream tables. */
#ifndef NFSSCOPE_ANALYSIS_H
#define NFSSCOPE_ANALYSIS_H
#include <stdbool.h>

#include "ipfrag.h"
#include "nfsscope/stats.h"
#include "nfsscope/txn.h"

struct ns_analyzer;

/* Create / free every analyzer (false: out of memory). */
bool analysis_init(struct ns_analyzer *a);
void analysis_free(struct ns_analyzer *a);
/* A call's first transmission, its arguments decoded. */
void analysis_on_call(struct ns_analyzer *a, struct ns_txn *t, const struct ns_conn *c);
/* The same XID sent again (t->sends already counts it; c is the connection it came on). */
void analysis_on_retransmit(struct ns_analyzer *a, struct ns_txn *t, const struct ns_conn *c);
/* A reply, its results decoded; dup: a reply after the first (t keeps the first). */
void analysis_on_reply(struct ns_analyzer *a, struct ns_txn *t, const struct ns_conn *c, bool dup);
/* A transaction is handed out (call order); given_up: never answered. */
void analysis_on_txn_done(struct ns_analyzer *a, const struct ns_txn *t, bool given_up);
/* An IP datagram that was fragmented, complete or given up. */
void analysis_on_fragmented(struct ns_analyzer *a, const struct ipfrag_done *d);
/* End of input (after every transaction was handed out). */
void analysis_finish(struct ns_analyzer *a);

#endif
