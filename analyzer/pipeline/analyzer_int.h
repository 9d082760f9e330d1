/* The analyzer object shared by the core's stages (private). */
#ifndef NFSSCOPE_ANALYZER_INT_H
#define NFSSCOPE_ANALYZER_INT_H
#include "finding_table.h"
#include "sess_model.h"
#include "flow.h"
#include "ipfrag.h"
#include "memcap.h"
#include "nfsscope/nfsscope.h"
#include "rpc_record.h"
#include "tcp_reasm.h"
#include "txn_table.h"
#include "udp_model.h"

struct ns_analyzer {
    struct ns_config cfg;
    struct memcap mc;
    struct ns_stats st;
    struct tcp_reasm_stats tcp_st;
    struct rec_stats rec_st;
    struct flow_table *flows;
    struct ipfrag_table *frags;
    struct txn_table *txns;
    struct findings *findings;
    struct sess_model *sessions; /* session_table.c */
    struct udp_timing *udp;  /* udp_timing.c */
    ns_txn_fn txn_fn;
    void *txn_ctx;
    /* connections, by id - 1 */
    struct ns_conn *conns;
    uint32_t nconns, conns_cap;
    uint64_t conns_over_cap;
    uint64_t frags_dropped;  /* IP fragments refused (invalid or over the cap) */
    /* the frame being processed */
    uint64_t frame;
    int64_t now;
    struct flow *cur_flow;   /* flow of the current TCP delivery */
    int64_t last_expire;
};

/* rpc_dispatch.c: one RPC message from a flow; side = sender's side index. */
void rpc_on_message(struct ns_analyzer *a, struct flow *f, int side, const struct ns_msg *m, bool truncated);
bool rpc_plausible(struct ns_analyzer *a, struct flow *f, int side, const uint8_t *p, uint32_t n, uint32_t len);

#endif
