/* The two-point joiner's state (nfsscope/two_point.h), shared by its files:
 * flows and segments (tp_segments.c), transactions and matching
 * (tp_match.c), the figures at the end (tp_figures.c). */
#ifndef NFSSCOPE_TP_INT_H
#define NFSSCOPE_TP_INT_H
#include <stdbool.h>
#include <stdint.h>

#include "nfsscope/two_point.h"
#include "tp_offset.h"
#include "tp_table.h"

/* A TCP connection, its endpoints in a fixed order (a < b): the same key in
 * both captures. */
struct tp_flow {
    struct ns_endpoint a, b;
    int8_t server;           /* -1 unknown; 0: a is the server, 1: b is */
    uint64_t lost[2];        /* frames lost between the points: [0] to the server, [1] to the client */
};

/* One TCP segment (by flow, direction, sequence number and payload length),
 * how many times each capture holds it, when each first saw it. */
struct tp_seg {
    uint32_t flow;
    uint32_t seq, len;
    uint8_t dir;             /* 0: sent by the flow's a, 1: by b */
    uint16_t count[2];       /* per side (saturating) */
    int64_t ts[2];           /* per side, 0: not seen */
};

/* A transaction of the server capture, waiting for its client twin. */
struct tp_srv_txn {
    uint32_t flow, xid;
    bool backchannel, matched;
    int64_t call_ns, reply_ns; /* reply 0: none */
    int64_t lat_ns;          /* the server analyzer's latency (ns_txn_latency_ns), -1: none */
};

/* A transaction of the client capture, with its server twin's times. */
struct tp_cli_txn {
    uint32_t flow, op_key;
    uint32_t prog, vers, proc; /* op_key UINT32_MAX: the program's procedure */
    bool matched, has_split;
    int64_t call_c, reply_c, call_s, reply_s; /* reply_c, reply_s 0: none */
    int64_t client_ns, server_ns; /* has_split: the latencies the two analyzers give */
};

/* A frame lost between the points, at the client's time. */
struct tp_loss {
    uint32_t flow;
    int64_t t_c;
};

struct ns_two_point {
    struct tp_mem mem;
    uint64_t seed;
    struct tp_table flows, segs, srv; /* of tp_flow, tp_seg, tp_srv_txn */
    struct tp_cli_txn *cli;
    size_t ncli, cli_cap;
    int64_t first[2], last[2];   /* each side's span */
    uint64_t calls[2];
    /* the running offset estimate that picks among calls sharing an XID */
    bool est_any;
    int64_t est_lo, est_hi;
    bool finished;
    int64_t edge_ns;             /* frames this near the other capture's ends count as outside it */
    struct ns_tp_result r;
    struct tp_offset off;
    /* the result's arrays */
    struct ns_tp_row *ops, *conns, *clients;
    struct ns_tp_finding *findings;
    size_t ops_cap, conns_cap, clients_cap, findings_cap;
    struct tp_loss *loss;
    size_t nloss, loss_cap;
};

/* tp_segments.c */
/* The flow of endpoints x, y (either order), added if new; -1 past the budget. */
long tp_flow_of(struct ns_two_point *tp, const struct ns_endpoint *x, const struct ns_endpoint *y);
/* Is x the flow's a? */
bool tp_flow_is_a(const struct tp_flow *f, const struct ns_endpoint *x);
void tp_segment_frame(struct ns_two_point *tp, int side, const struct ns_frame *f);

/* tp_match.c */
void tp_match_txn(struct ns_two_point *tp, int side, const struct ns_txn *t, const struct ns_conn *c,
                  struct ns_tp_split *out);

/* tp_figures.c */
void tp_figures(struct ns_two_point *tp);

#endif
