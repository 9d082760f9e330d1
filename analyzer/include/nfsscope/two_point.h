/* Two captures of the same traffic, one at or near the client and one at or
 * near the server (nfsscope -r CLIENT --peer SERVER, doc/two-points.md):
 * where the time goes (client-seen latency = server time + network time) and
 * where frames are lost between the two points.
 *
 * Each capture is analysed by an analyzer of its own, exactly as alone; this
 * joiner is handed both captures' frames (for their TCP segments) and both
 * analyzers' transactions, and matches them by connection (the 4-tuple),
 * direction and XID.
 *
 * Order of use: every frame and transaction of the SERVER side first (the
 * server capture analysed to its end), then the client side's: each client
 * transaction is matched as it is handed in, so its split is known at once
 * (the transaction log). Then ns_two_point_finish, then the result.
 *
 * Clock offset = server clock - client clock, estimated from causality alone
 * (a call is received after it is sent, a reply too), as a line a + b*t over
 * the client capture's time (b: the drift). Memory is bounded (memcap):
 * segments or transactions past it are not recorded and are counted. */
#ifndef NFSSCOPE_TWO_POINT_H
#define NFSSCOPE_TWO_POINT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/nfsscope.h"

#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_two_point ns_two_point;

enum ns_tp_side { NS_TP_CLIENT = 0, NS_TP_SERVER = 1 };

/* memcap: bytes for the joiner's tables (0: 64 MiB). NULL: out of memory. */
ns_two_point *ns_two_point_new(uint64_t memcap);
void ns_two_point_free(ns_two_point *tp);

/* One frame of a side's capture (its TCP segment, if any, is recorded). */
void ns_two_point_frame(ns_two_point *tp, enum ns_tp_side side, const struct ns_frame *f);

/* A client transaction's split, when its call was seen in both captures. */
struct ns_tp_split {
    bool matched;          /* the call is in the server capture too */
    bool has_split;        /* and both captures hold the reply */
    int64_t client_ns;     /* reply_c - call_c (the client's clock) */
    int64_t server_ns;     /* reply_s - call_s (the server's clock) */
    int64_t network_ns;    /* client_ns - server_ns: independent of the clock offset */
};

/* A transaction of a side's analyzer and its connection (ns_analyzer_conn;
 * NULL: not matched). Client side: matched now, *out filled (may be NULL). */
void ns_two_point_txn(ns_two_point *tp, enum ns_tp_side side, const struct ns_txn *t, const struct ns_conn *c,
                      struct ns_tp_split *out);

/* Both sides are in: estimate the offset, count what is only on one side,
 * frames lost between, figures per operation / connection / client,
 * findings. Idempotent. */
void ns_two_point_finish(ns_two_point *tp);

/* Exact nearest-rank percentiles of signed durations. */
struct ns_tp_latency {
    uint64_t count;
    int64_t p50_ns, p99_ns;
};

/* A row of figures: an operation (op_key, nfsscope/stats.h; UINT32_MAX for
 * other programs: prog, vers, proc), a connection (client and server
 * endpoints) or a client (client.addr). */
struct ns_tp_row {
    uint32_t op_key;
    uint32_t prog, vers, proc;         /* operations of other programs (MOUNT, portmap ...) */
    struct ns_endpoint client, server;
    uint64_t count;                    /* matched calls */
    struct ns_tp_latency client_lat, server_lat, network_lat; /* of those with both replies */
    uint64_t lost_to_server, lost_to_client; /* connections and clients only */
};

/* What is in one capture only. frames: TCP segments (by connection,
 * direction, sequence number and length, each occurrence counted) not in
 * the other capture; calls: calls not in the other capture. */
struct ns_tp_only {
    uint64_t frames, calls;
    uint64_t frames_outside_span, calls_outside_span; /* sent outside the other capture's time span */
    uint64_t frames_lost_between;  /* sent by this side's endpoint, never seen at the other: lost between the points */
    uint64_t frames_unexplained, calls_unexplained;
};

#define NS_TP_KIND_MAX 32
#define NS_TP_MSG_MAX 384
struct ns_tp_finding {
    char kind[NS_TP_KIND_MAX];  /* TWO_POINT_NETWORK_TIME, TWO_POINT_SERVER_TIME, TWO_POINT_LOSS, TWO_POINT_CLOCK_JUMP */
    uint8_t severity;           /* enum ns_severity */
    uint32_t op_key;            /* the operation (UINT32_MAX: none, or another program's procedure) */
    uint32_t prog, vers, proc;  /* op_key UINT32_MAX and prog != 0: that program's procedure */
    char message[NS_TP_MSG_MAX];
};

struct ns_tp_result {
    int64_t client_first_ns, client_last_ns;   /* each capture's span, its own clock */
    int64_t server_first_ns, server_last_ns;
    uint64_t client_calls, server_calls;        /* calls each analyzer handed out */
    uint64_t matched_calls;                     /* calls seen in both captures */
    uint64_t split_calls;                       /* ... with the reply in both */
    /* offset = server clock - client clock at the client capture's first
     * frame; drift in parts per million (offset(t) = offset + drift * t) */
    bool offset_known;          /* a line fits every matched transaction */
    bool clock_jump;            /* transactions matched, yet no line fits them all */
    int64_t jump_at_ns;         /* clock_jump: client time of the first transaction no line fits with those before */
    int64_t offset_ns, offset_lo_ns, offset_hi_ns;
    double drift_ppm, drift_lo_ppm, drift_hi_ppm;
    bool drift_lo_open, drift_hi_open; /* the bound is the search's edge (+-NS_TP_DRIFT_MAX_PPM): not known */
    struct ns_tp_only only_client, only_server;
    uint64_t lost_to_server, lost_to_client;    /* frames lost between the points, by direction */
    uint64_t delayed_calls;     /* client transactions outstanding on a connection when one of its frames was lost */
    uint64_t headers_cut[2];    /* frames of each side whose TCP header was not captured (snaplen): not compared */
    uint64_t not_recorded_segments, not_recorded_txns; /* past the memory cap */
    uint64_t memory_peak;
    size_t nops, nconns, nclients, nfindings;
    const struct ns_tp_row *ops;      /* by operation name */
    const struct ns_tp_row *conns;    /* by client, then server endpoint */
    const struct ns_tp_row *clients;  /* by address */
    const struct ns_tp_finding *findings; /* by severity, then kind, then operation */
};
#define NS_TP_DRIFT_MAX_PPM 2000.0

/* After ns_two_point_finish; valid until ns_two_point_free. */
const struct ns_tp_result *ns_two_point_result(const ns_two_point *tp);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
