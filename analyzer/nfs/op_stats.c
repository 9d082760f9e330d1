/* The Operations table's rules for front ends (nfsscope/stats.h), the same
 * the RPC stage counts the whole capture with (op_stats.h). */
#include "nfs_dispatch.h"
#include "op_stats.h"

/* Over a transaction's life: its call's operations and those only its reply
 * named (a call cut short) in-cpd, once; a late reply's were counted with
 * its call, handed out before it. */
void ns_stats_add_txn_ops(struct ns_stats *st, const struct ns_txn *t)
{
    if (!t->call_frame) return; /* an orphan reply: no operation known */
    if (!t->late_reply) op_stats_in_compound(st, NULL, t, 0, ns_txn_nops(t));
    if (t->reply_frame) op_stats_reply(st, NULL, t, nfs_txn_opkey(t));
}

void ns_stats_free_ops(struct ns_stats *st) { stats_free(st, NULL); }
