/* What the analysis keeps per transaction besides what front ends read
 * (nfsscope/txn.h): the UDP retransmit-timer state (udp_timing.c) and
 * whether the pipeline has handed the transaction out (emit.c). Every
 * transaction lives in a txn_slot of the transaction table (txn_table.c),
 * so this part is found from the public pointer; code that makes a
 * transaction of its own (unit tests) makes a txn_slot. */
#ifndef NFSSCOPE_TXN_INTERNAL_H
#define NFSSCOPE_TXN_INTERNAL_H
#include <stdbool.h>
#include <stdint.h>

#include "nfsscope/txn.h"

struct txn_internal {
    int64_t udp_timeout_ns;  /* timeout a Linux client arms at the last send */
    int64_t udp_cycle_ns;    /* start of the current major-timeout cycle */
    int64_t udp_prev_gap_ns; /* gap before the last resend (0: none) */
    uint16_t udp_retries;    /* resends in the current cycle */
    uint8_t udp_timer;       /* timer class (enum ns_udp_timer) */
    bool udp_spurious;       /* a resend was found unnecessary */
    bool delivered;          /* already handed to the transaction callback (completion order) */
    /* the call's credential (rpc_stage.c), for the per-user table */
    uint8_t cred;            /* enum txn_cred */
    uint8_t gss_handle_len;
    uint8_t gss_handle[16];  /* RPCSEC_GSS context handle (first 16 bytes) */
    uint32_t uid, gid;       /* AUTH_SYS */
    /* the file the transaction is about (analysis/who): a record of the
     * per-file table, index + 1 (0: none) and its generation */
    uint32_t who_file, who_file_gen;
};

enum txn_cred { TXN_CRED_UNKNOWN = 0, TXN_CRED_SYS, TXN_CRED_GSS, TXN_CRED_OTHER };

struct txn_slot {
    struct ns_txn txn; /* first: the slot is found from the transaction */
    struct txn_internal in;
};

static inline struct txn_internal *txn_internal(struct ns_txn *t)
{
    return &((struct txn_slot *)(void *)t)->in;
}

static inline const struct txn_internal *txn_internal_const(const struct ns_txn *t)
{
    return &((const struct txn_slot *)(const void *)t)->in;
}
#endif
