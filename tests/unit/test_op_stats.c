/* The Operations table's rules (nfs/op_stats.c) on hand-made transactions,
 * through ns_stats_add_txn_ops, the entry front ends count with: the main
 * operation of a COMPOUND (README "What it prints": the first that is not
 * SEQUENCE, PUTFH, GETFH, SAVEFH/RESTOREFH or GETATTR, else its GETATTR),
 * in-cpd once per operation, a late reply's operations not counted again,
 * errors, latency and NFS status of answered calls only. */
#include <string.h>

#include "check.h"
#include "nfsscope/stats.h"
#include "nfsscope/txn.h"

#define MS 1000000ll

static struct ns_txn compound(uint8_t kind, const uint16_t *ops, uint16_t n, bool answered, uint32_t status)
{
    struct ns_txn t;
    memset(&t, 0, sizeof t);
    t.kind = kind;
    t.prog = kind == NS_TXN_NFS4_CB ? 0x40000000 : 100003;
    t.vers = kind == NS_TXN_NFS4_CB ? 1 : 4;
    t.proc = 1;
    t.call_frame = 1;
    t.call_ts_ns = 10 * MS;
    memcpy(t.u.v4.call.op, ops, n * sizeof *ops);
    t.u.v4.call.nops = n;
    if (answered) {
        t.reply_frame = 2;
        t.reply_ts_ns = 13 * MS;
        t.reply_stat = NS_REPLY_ACCEPTED;
        t.has_status = true;
        t.status = status;
    }
    return t;
}

static uint64_t count(const struct ns_stats *st, uint32_t key) { return st->ops[key] ? st->ops[key]->count : 0; }
static uint64_t in_cpd(const struct ns_stats *st, uint32_t key)
{
    return st->ops[key] ? st->ops[key]->in_compounds : 0;
}

static void test_main_operation(void)
{
    struct ns_stats st;
    memset(&st, 0, sizeof st);
    /* SEQUENCE PUTFH READ GETATTR: READ is the main one */
    static const uint16_t read[] = {53, 22, 25, 9};
    struct ns_txn t = compound(NS_TXN_NFS4, read, 4, true, 0);
    ns_stats_add_txn_ops(&st, &t);
    CHECK_EQ_U(ns_txn_op_key(&t), 25);
    CHECK_EQ_U(count(&st, 25), 1);
    CHECK_EQ_U(st.ops[25]->replies, 1);
    CHECK_EQ_U(st.ops[25]->latency.count, 1);
    CHECK_EQ_U(st.ops[25]->latency.sum_ns, 3 * MS);
    CHECK_EQ_U(count(&st, 53) + count(&st, 22) + count(&st, 9), 0);
    CHECK_EQ_U(in_cpd(&st, 53), 1);
    CHECK_EQ_U(in_cpd(&st, 22), 1);
    CHECK_EQ_U(in_cpd(&st, 25), 1);
    CHECK_EQ_U(in_cpd(&st, 9), 1);
    /* SEQUENCE PUTFH GETATTR: only bookkeeping and GETATTR, GETATTR is */
    static const uint16_t getattr[] = {53, 22, 9};
    t = compound(NS_TXN_NFS4, getattr, 3, true, 0);
    ns_stats_add_txn_ops(&st, &t);
    CHECK_EQ_U(count(&st, 9), 1);
    CHECK_EQ_U(in_cpd(&st, 9), 2);
    /* CB_SEQUENCE CB_RECALL on the backchannel: keys of the callback program */
    static const uint16_t recall[] = {11, 4};
    t = compound(NS_TXN_NFS4_CB, recall, 2, true, 0);
    ns_stats_add_txn_ops(&st, &t);
    CHECK_EQ_U(count(&st, NS_OPKEY_CB(4)), 1);
    CHECK_EQ_U(in_cpd(&st, NS_OPKEY_CB(11)), 1);
    CHECK_EQ_U(count(&st, 4), 0);
    ns_stats_free_ops(&st);
    for (uint32_t k = 0; k < NS_OPKEY_MAX; k++) CHECK(!st.ops[k]);
}

static void test_unanswered_and_late(void)
{
    struct ns_stats st;
    memset(&st, 0, sizeof st);
    /* an unanswered call: its operations in-cpd, no count, no status */
    static const uint16_t open[] = {53, 22, 18, 10};
    struct ns_txn t = compound(NS_TXN_NFS4, open, 4, false, 0);
    t.verdict = NS_VERDICT_EVICTED_WAITING;
    ns_stats_add_txn_ops(&st, &t);
    CHECK_EQ_U(in_cpd(&st, 18), 1);
    CHECK_EQ_U(count(&st, 18), 0);
    CHECK_EQ_U(st.nstatus, 0);
    /* its late reply: named operations not counted again, the call counted once, with its error */
    t = compound(NS_TXN_NFS4, open, 4, true, 2 /* NFS4ERR_NOENT */);
    t.late_reply = true;
    ns_stats_add_txn_ops(&st, &t);
    CHECK_EQ_U(in_cpd(&st, 18), 1);
    CHECK_EQ_U(in_cpd(&st, 53), 1);
    CHECK_EQ_U(count(&st, 18), 1);
    CHECK_EQ_U(st.ops[18]->errors, 1);
    CHECK_EQ_U(st.nstatus, 1);
    CHECK_EQ_U(st.status[0].vers, 4);
    CHECK_EQ_U(st.status[0].status, 2);
    /* an orphan reply: no operation known, nothing counted */
    struct ns_txn o;
    memset(&o, 0, sizeof o);
    o.kind = NS_TXN_OTHER;
    o.reply_frame = 5;
    o.has_status = true;
    ns_stats_add_txn_ops(&st, &o);
    CHECK_EQ_U(st.nstatus, 1);
    ns_stats_free_ops(&st);
}

static void test_nfs3(void)
{
    struct ns_stats st;
    memset(&st, 0, sizeof st);
    struct ns_txn t;
    memset(&t, 0, sizeof t);
    t.kind = NS_TXN_NFS3;
    t.prog = 100003;
    t.vers = 3;
    t.proc = 3; /* LOOKUP */
    t.call_frame = 1;
    t.reply_frame = 2;
    t.call_ts_ns = 5 * MS;
    t.reply_ts_ns = 4 * MS; /* dated before its call: latency 0, not negative */
    t.has_status = true;
    t.status = 2; /* NFS3ERR_NOENT */
    ns_stats_add_txn_ops(&st, &t);
    CHECK_EQ_U(count(&st, NS_OPKEY_V3(3)), 1);
    CHECK_EQ_U(st.ops[NS_OPKEY_V3(3)]->errors, 1);
    CHECK_EQ_U(st.ops[NS_OPKEY_V3(3)]->latency.max_ns, 0);
    CHECK_EQ_U(st.nstatus, 1);
    CHECK_EQ_U(st.status[0].vers, 3);
    ns_stats_free_ops(&st);
}

int main(void)
{
    test_main_operation();
    test_unanswered_and_late();
    test_nfs3();
    return check_done("test_op_stats");
}
