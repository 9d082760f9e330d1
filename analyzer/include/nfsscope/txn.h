/* One RPC transaction: a call and its reply (either may be missing). */
#ifndef NFSSCOPE_TXN_H
#define NFSSCOPE_TXN_H
#include <stdbool.h>
#include <stdint.h>

#include "nfsscope/nfs_types.h"

/* Everything declared here is the library's public ABI (the rest is hidden). */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

enum ns_txn_kind {
    NS_TXN_OTHER = 0, /* an RPC program we only name */
    NS_TXN_NFS3,
    NS_TXN_NFS4,      /* COMPOUND (and NULL) of program 100003 version 4 */
    NS_TXN_NFS4_CB,   /* CB_COMPOUND / CB_NULL on the backchannel */
    NS_TXN_MOUNT,
};

enum ns_reply_stat { NS_REPLY_NONE = 0, NS_REPLY_ACCEPTED, NS_REPLY_DENIED };

/* RPC accept_stat (RFC 5531) when accepted; reject_stat when denied. */
enum ns_rpc_status {
    NS_RPC_SUCCESS = 0, NS_RPC_PROG_UNAVAIL = 1, NS_RPC_PROG_MISMATCH = 2,
    NS_RPC_PROC_UNAVAIL = 3, NS_RPC_GARBAGE_ARGS = 4, NS_RPC_SYSTEM_ERR = 5,
    NS_RPC_RPC_MISMATCH = 100, NS_RPC_AUTH_ERROR = 101,
};

#define NS_TXN_SENDS_KEPT 8 /* transmission times kept per call */

enum ns_gss_service { NS_GSS_NONE_SET = 0, NS_GSS_SVC_NONE = 1, NS_GSS_SVC_INTEGRITY = 2, NS_GSS_SVC_PRIVACY = 3 };

struct ns_txn {
    uint64_t id;            /* 1-based, in order of first sight (call, or orphan reply); never reused */
    uint64_t call_frame;    /* 1-based; 0 = call not seen */
    uint64_t reply_frame;   /* 0 = no reply */
    int64_t call_ts_ns;     /* packet time of the first transmission */
    int64_t last_send_ts_ns;
    int64_t reply_ts_ns;
    uint32_t conn_id;       /* 1-based connection id (c1 = 1) */
    uint32_t xid, prog, vers, proc;
    uint32_t auth_flavor;
    uint8_t gss_service;    /* enum ns_gss_service (RPCSEC_GSS data calls) */
    uint8_t gss_proc;       /* RPCSEC_GSS control procedure (0 = DATA) */
    uint8_t kind;           /* enum ns_txn_kind */
    uint8_t reply_stat;     /* enum ns_reply_stat */
    uint32_t rpc_status;    /* enum ns_rpc_status, valid with a reply */
    bool backchannel;       /* call sent by the server side */
    bool call_truncated;    /* decoder hit bytes that were not captured */
    bool reply_truncated;
    bool call_undecoded;    /* arguments not walked to their end (invalid, unknown op, encrypted) */
    bool reply_undecoded;
    bool has_status;
    uint32_t status;        /* NFS status (nfsstat3/nfsstat4) or MOUNT status */
    uint32_t call_bytes, reply_bytes; /* RPC message length on the wire */
    uint16_t sends;         /* transmissions of the call */
    uint16_t dup_replies;
    /* the first NS_TXN_SENDS_KEPT transmissions (min(sends, NS_TXN_SENDS_KEPT) set) */
    int64_t send_ts_ns[NS_TXN_SENDS_KEPT];
    uint64_t send_frame[NS_TXN_SENDS_KEPT];
    int64_t prev_send_ts_ns; /* the transmission before the last one (sends >= 2) */
    /* Up to API version 5 the analysis's own per-transaction state (UDP
     * timers, handed out or not) was here; it lives outside this struct
     * now. The bytes stay so that what follows keeps its offset. */
    uint64_t reserved_[4];
    union {
        struct { struct nfs4_call call; struct nfs4_reply reply; } v4;
        struct { struct nfs3_call call; struct nfs3_reply reply; } v3;
    } u;
    /* Added after API version 2's first release (at the end: the layout above stays).
     * A call whose header was cut by the snapshot length: prog, vers and proc
     * are known only when set here (its reply is still matched by XID), the
     * credential's flavor (auth_flavor) only with auth_known (API version 3). */
    bool call_header_cut;
    bool prog_known, vers_known, proc_known, auth_known;
    /* NFSv4: operations named from the reply's results because the call's
     * bytes that held them were not captured (the last ops_from_reply of
     * u.v4.call.op[]), so ops and op_status have the same length. */
    uint16_t ops_from_reply;
    /* API version 3: COMPOUND operations past NS_OPS_INLINE (NULL: none).
     * Valid while the analyzer lives; a copy of the transaction kept after
     * its callback reads only the inline part (the block is reused). */
    const struct ns_ops_more *ops_more;
    /* API version 5: how a call left the analyzer without its reply
     * (enum ns_txn_verdict; 0 with a reply), and the late reply of a call
     * that was handed out while still waiting because memory ran short. */
    uint8_t verdict;
    bool late_reply;         /* this reply's call was handed out before as NS_VERDICT_EVICTED_WAITING
                              * (transaction evicted_txn_id): call_frame, call_ts_ns, prog, vers, proc are
                              * what was kept of it, its arguments are not (call_undecoded) */
    int64_t waited_ns;       /* NS_VERDICT_EVICTED_WAITING: how long the call had waited, from its first send */
    uint64_t evicted_txn_id; /* late_reply: the transaction handed out when the call was evicted */
    /* API version 8: NFSv4 delegation and lease facts of the call and reply. */
    struct nfs4_state_facts state4;
};

/* Why a call was handed out without its reply (ns_txn.verdict). */
enum ns_txn_verdict {
    NS_VERDICT_NONE = 0,         /* answered (or an orphan reply) */
    NS_VERDICT_TIMED_OUT,        /* unanswered past the call timeout (its own age, from its last send) */
    NS_VERDICT_UNANSWERED_AT_END, /* still unanswered when the input ended */
    NS_VERDICT_SUPERSEDED,       /* its XID was reused for another call before a reply came */
    NS_VERDICT_EVICTED_WAITING,  /* still waiting when memory ran short: outstanding, not unanswered
                                  * (ns_txn.waited_ns; ns_stats.rpc_calls_outstanding_evicted) */
    NS_VERDICTS
};

/* Reply time minus call time; -1 without both. Never negative with both:
 * a reply whose bytes are dated before its call (a reordered capture, bytes
 * that waited for a gap) answered at once, 0. */
static inline int64_t ns_txn_latency_ns(const struct ns_txn *t)
{
    if (!t->call_frame || !t->reply_frame) return -1;
    return t->reply_ts_ns > t->call_ts_ns ? t->reply_ts_ns - t->call_ts_ns : 0;
}

/* The statistics' operation key of a transaction (nfsscope/stats.h): the
 * NFSv3 procedure, or the main operation of an NFSv4 COMPOUND, as the
 * operations table counts it (NULL procedures too); UINT32_MAX when it has
 * none (other programs, orphan replies). */
uint32_t ns_txn_op_key(const struct ns_txn *t);

/* The operations of an NFSv4 COMPOUND / CB_COMPOUND (any kind: 0 for
 * others): how many were recorded in the call / the reply, the i-th opcode of
 * the call, the i-th result's opcode and status. Use these, not the arrays:
 * past NS_OPS_INLINE they live in the overflow block. Out of range (or the
 * block already reused): UINT32_MAX / false. */
uint32_t ns_txn_nops(const struct ns_txn *t);
uint32_t ns_txn_op(const struct ns_txn *t, uint32_t i);
uint32_t ns_txn_nres(const struct ns_txn *t);
bool ns_txn_res(const struct ns_txn *t, uint32_t i, uint32_t *op, uint32_t *status);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
