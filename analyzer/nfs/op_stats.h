/* The rules of the Operations table, in one place: which key a transaction
 * counts under (its main operation, nfs_txn_opkey), what counts "in-cpd",
 * what a matched reply adds. The RPC stage applies them to the whole capture
 * as calls and replies arrive; ns_stats_add_txn_ops (nfsscope/stats.h)
 * applies them to a transaction at a time for front ends that count the
 * transactions of their choosing (the narrowed report), so both agree.
 * Inline: the RPC stage runs them for every call and reply. */
#ifndef NFSSCOPE_OP_STATS_H
#define NFSSCOPE_OP_STATS_H
#include <stdint.h>

#include "memcap.h"
#include "nfsscope/stats.h"
#include "nfsscope/txn.h"
#include "stats_int.h"

/* In-cpd: operations [from, to) of t's COMPOUND or CB_COMPOUND (nothing for
 * other kinds), each under its own key. Rows come from mc's cap (NULL: no
 * cap). */
static inline void op_stats_in_compound(struct ns_stats *st, struct memcap *mc, const struct ns_txn *t,
                                        uint32_t from, uint32_t to)
{
    if (t->kind != NS_TXN_NFS4 && t->kind != NS_TXN_NFS4_CB) return;
    bool cb = t->kind == NS_TXN_NFS4_CB;
    for (uint32_t i = from; i < to; i++) {
        uint32_t op = ns_txn_op(t, i);
        struct ns_op_stats *o = stats_op(st, mc, cb ? NS_OPKEY_CB(op) : NS_OPKEY_V4(op));
        if (o) o->in_compounds++;
    }
}

/* A reply matched to its call (t->call_frame set): count, replies, errors and
 * latency under key (UINT32_MAX: no row), and its NFS status. */
static inline void op_stats_reply(struct ns_stats *st, struct memcap *mc, const struct ns_txn *t, uint32_t key)
{
    struct ns_op_stats *o = key == UINT32_MAX ? NULL : stats_op(st, mc, key);
    if (o) {
        o->count++;
        o->replies++;
        if (t->has_status && t->status != 0) o->errors++;
        int64_t lat = t->reply_ts_ns - t->call_ts_ns;
        ns_latency_add(&o->latency, lat > 0 ? (uint64_t)lat : 0);
    }
    if (t->has_status && (t->kind == NS_TXN_NFS3 || t->kind == NS_TXN_NFS4 || t->kind == NS_TXN_NFS4_CB))
        stats_status(st, t->kind == NS_TXN_NFS3 ? 3 : 4, t->status);
}

#endif
