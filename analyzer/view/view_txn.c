/* Names and figures of one transaction, as the txn log and the plugin show it. */
#include "nfsscope/view.h"

/* The callback program number is the client's choice (a transient one); any
 * number of that range names the NFSv4 callback procedures. */
#define PROG_CB_ANY 0x40000000u

bool ns_txn_is_compound(const struct ns_txn *t)
{
    return (t->kind == NS_TXN_NFS4 || t->kind == NS_TXN_NFS4_CB) && t->proc == 1;
}

const char *ns_txn_proc_name(const struct ns_txn *t)
{
    if (t->call_header_cut && !(t->prog_known && t->vers_known && t->proc_known)) return "UNKNOWN";
    return ns_rpc_proc_name(t->backchannel ? PROG_CB_ANY : t->prog, t->vers, t->proc);
}

const char *ns_txn_op_name(const struct ns_txn *t, uint16_t i)
{
    if (!ns_txn_is_compound(t) || i >= t->u.v4.call.nops) return "UNKNOWN";
    uint32_t op = ns_txn_op(t, i);
    return t->kind == NS_TXN_NFS4 ? ns_nfs4_op_name(op) : ns_nfs4_cb_op_name(op);
}

const char *ns_txn_status_name(const struct ns_txn *t)
{
    if (!t->has_status) return NULL;
    switch (t->kind) {
    case NS_TXN_NFS3: return ns_nfs3_status_name(t->status);
    case NS_TXN_NFS4: case NS_TXN_NFS4_CB: return ns_nfs4_status_name(t->status);
    case NS_TXN_MOUNT: /* v1/v2 status: an errno, as v3's, but not named MNT3 when OK */
        return t->vers < 3 && t->status == 0 ? "MNT_OK" : ns_mount3_status_name(t->status);
    default: return NULL;
    }
}

unsigned ns_txn_sends_kept(const struct ns_txn *t)
{
    if (!t->call_frame) return 0;
    return t->sends < NS_TXN_SENDS_KEPT ? t->sends : NS_TXN_SENDS_KEPT;
}

const char *ns_txn_verdict_name(uint8_t v)
{
    static const char *const n[NS_VERDICTS] = {
        [NS_VERDICT_TIMED_OUT] = "timed_out", [NS_VERDICT_UNANSWERED_AT_END] = "unanswered_at_end",
        [NS_VERDICT_SUPERSEDED] = "superseded", [NS_VERDICT_EVICTED_WAITING] = "evicted_waiting"};
    return v < NS_VERDICTS ? n[v] : NULL;
}
