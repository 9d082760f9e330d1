/* Counters and summaries the core keeps while it runs. */
#ifndef NFSSCOPE_STATS_H
#define NFSSCOPE_STATS_H
#include <stdbool.h>
#include <stdint.h>

/* Everything declared here is the library's public ABI (the rest is hidden). */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

struct ns_addr {
    uint8_t family;   /* 4 or 6 */
    uint8_t a[16];    /* IPv4 in the first 4 bytes */
};

struct ns_endpoint {
    struct ns_addr addr;
    uint16_t port;
};

enum ns_transport { NS_TRANSPORT_TCP = 6, NS_TRANSPORT_UDP = 17 };

/* A connection that carried RPC. */
struct ns_conn {
    uint32_t id;
    uint8_t transport;           /* enum ns_transport */
    struct ns_endpoint client, server;
    int64_t first_ts_ns, last_ts_ns;
    uint64_t frames;
    uint64_t calls, replies, backchannel_calls;
    uint64_t bytes_to_server, bytes_to_client; /* transport payload on the wire */
    uint64_t missing_bytes;      /* payload not captured (snaplen) or lost (gaps) */
    uint32_t gaps, resyncs;
    uint32_t nfs_versions;       /* NS_VERS_BIT set */
    bool mid_stream;             /* picked up without its handshake */
    bool closed;                 /* FIN or RST seen */
};

/* API version 6: a TCP connection's segments beyond what ns_conn holds (a
 * type of its own: ns_conn sits inside ns_stats and never grows), from its
 * first segment; kept saturating at 2^32-1 retransmitted and 65,535 out of
 * order. */
struct ns_conn_tcp {
    uint64_t retransmitted; /* segments whose bytes had all been seen (as tshark's tcp.analysis.retransmission) */
    uint64_t out_of_order;  /* segments ahead of a hole that a later segment filled */
};

/* Bit for an NFS version in ns_conn.nfs_versions / ns_stats.nfs_versions. */
#define NS_VERS_BIT(vers, minor) (1u << ((vers) == 4 ? 4 + ((minor) > 7 ? 7 : (minor)) : ((vers) & 3)))

/* Latency summary, microseconds. Percentiles come from a log histogram with
 * 1/64-octave buckets: the nearest-rank bucket's midpoint, kept within
 * [min, max], so within about 1%; mean, min and max are exact. */
#define NS_LAT_SUB 64
#define NS_LAT_BUCKETS (42 * NS_LAT_SUB)
struct ns_latency {
    uint64_t count;
    uint64_t sum_ns;
    uint64_t min_ns, max_ns;
    uint32_t bucket[NS_LAT_BUCKETS];
};
uint64_t ns_latency_percentile_ns(const struct ns_latency *l, double p);
/* Count one latency; public so a front end can keep its own histograms
 * (per session, the screen) with the same buckets as the report. */
void ns_latency_add(struct ns_latency *l, uint64_t ns);

/* Operation key: for NFSv4 the opcode (COMPOUND ops), callback opcodes +1000,
 * NFSv3 procedures +2000, NFSv4 procedures NULL/COMPOUND themselves are not
 * ops. See ns_op_key_name(). */
#define NS_OPKEY_V4(op) ((uint32_t)(op) < 999u ? (uint32_t)(op) : 999u) /* 999: ILLEGAL and beyond */
#define NS_OPKEY_CB(op) (1000u + (uint32_t)(op))
#define NS_OPKEY_V3(proc) (2000u + (uint32_t)(proc))
#define NS_OPKEY_V4NULL 3000
#define NS_OPKEY_CBNULL 3001
#define NS_OPKEY_MAX 3002
const char *ns_op_key_name(uint32_t key);

struct ns_op_stats {
    uint64_t count;             /* RPCs whose main operation (or procedure) this is */
    uint64_t in_compounds;      /* occurrences inside NFSv4 COMPOUNDs */
    uint64_t errors;            /* replies with a status other than OK */
    uint64_t replies;
    struct ns_latency latency;  /* of the RPC that carried the op */
};

#define NS_STATUS_SLOTS 128
struct ns_status_count {
    uint32_t status;
    uint8_t vers;               /* 3 or 4 */
    uint64_t count;
};

struct ns_stats {
    /* capture */
    uint64_t frames, bytes;
    int64_t first_ts_ns, last_ts_ns;
    uint64_t frames_undecodable;    /* link/IP layer could not be decoded */
    uint64_t frames_truncated;      /* caplen < len */
    uint64_t frames_not_ip, frames_other_transport;
    uint64_t ip_fragments, ip_datagrams_reassembled, ip_fragments_incomplete;
    /* rpc */
    uint64_t rpc_calls, rpc_replies, rpc_unmatched_calls, rpc_orphan_replies;
    uint64_t rpc_retransmissions, rpc_dup_replies, rpc_denied, rpc_not_success;
    uint64_t rpc_xid_reused;        /* an outstanding XID reused for a different call */
    uint64_t rpc_gss_privacy;       /* krb5p: arguments encrypted */
    uint64_t rpc_backchannel_calls;
    uint64_t rpc_calls_timed_out;   /* unanswered beyond the call timeout */
    uint64_t txns;
    /* decoding */
    uint64_t decode_truncated;      /* messages cut by snaplen or gaps */
    uint64_t decode_invalid;        /* messages that did not parse */
    uint64_t nfs4_unknown_ops;      /* compounds whose walk stopped at an unknown op */
    uint64_t records_bad_mark;      /* record marks rejected (resync) */
    /* tcp */
    uint64_t tcp_segments, tcp_out_of_order, tcp_retransmitted, tcp_gaps, tcp_gap_bytes;
    uint64_t tcp_truncated_bytes, tcp_resyncs;
    /* memory caps */
    uint64_t evicted_flows, evicted_pending_calls, evicted_ooo_bytes, evicted_fragments;
    uint64_t evicted_conn_messages; /* RPC messages dropped: no room to record their connection */
    uint64_t peak_memory;
    /* nfs */
    uint32_t nfs_versions;          /* NS_VERS_BIT set */
    struct ns_op_stats *ops[NS_OPKEY_MAX]; /* NULL until the op is seen */
    uint32_t nstatus;
    struct ns_status_count status[NS_STATUS_SLOTS];
    /* Added after API version 2's first release: at the end, so the fields
     * above keep their offsets. */
    uint64_t tcp_syn_ignored;       /* SYNs inside an established stream's bytes: no new connection */
    uint64_t tcp_rst_ignored;       /* RSTs off the next expected sequence (RFC 5961 3.2): flow kept */
    uint64_t rpc_calls_cut_by_end;  /* call records still incomplete when the capture ended */
    uint64_t nfs2_calls;            /* NFSv2 calls seen (not decoded) */
    uint64_t udp_not_rpc;           /* datagrams on an RPC port (2049, 111) that are not RPC */
    uint64_t evicted_op_stats;      /* operation keys whose counters the memory cap refused */
    /* API version 3 */
    /* Closed connections whose records were dropped (past 4096 closed, or
     * by the cap; oldest closed first; ns_analyzer_conn returns NULL for
     * their ids), and their figures added up: id 0, first_ts the earliest,
     * last_ts the latest. */
    uint64_t evicted_conns;
    struct ns_conn evicted_conns_sum;
    uint64_t nfs4_ops_cut;          /* COMPOUND calls/replies whose operation list was cut (past NS_MAX_OPS, or no block) */
    uint64_t nfs4_ops_refused;      /* overflow blocks for operations past NS_OPS_INLINE refused (pool full / memory cap) */
    /* API version 4 */
    /* Connections (flows that carried RPC) silent for 10 minutes of capture
     * time with no FIN seen, let go: their records stay as summaries
     * (bounded as closed ones); a later segment of the same ports starts a
     * new connection record. */
    uint64_t flows_retired_idle;
    /* API version 5: production captures (mid-stream starts, loss, damaged
     * frames). Every frame, byte, flow or call the analysis could not use
     * is counted by cause. */
    uint64_t tcp_flows_not_rpc;     /* TCP flows off the RPC ports given up as not RPC (no record in REC_MAX_FRAGMENT bytes) */
    uint64_t tcp_bytes_unsynced;    /* stream bytes skipped looking for a record boundary (mid-stream start, after a gap) */
    uint64_t rpc_msgs_lost;         /* RPC messages begun but dropped: a gap took their record mark or end */
    uint64_t frames_ip_len_clamped; /* IPv4 total length / IPv6 payload length beyond the frame: clamped to it */
    uint64_t frames_udp_len_bad;    /* UDP length field disagreeing with the IP payload: the shorter is used */
    uint64_t frames_ts_outliers;    /* timestamps far out of line with their neighbours: kept, the clock not moved */
    uint64_t frames_ts_backwards;   /* timestamps earlier than the frame before (reordered capture): kept */
    uint64_t rpc_calls_outstanding_evicted; /* calls still waiting when memory ran short (reported outstanding, with their age) */
    uint64_t rpc_late_replies;      /* replies to calls evicted while waiting (not orphans: matched by what was kept of the call) */
    uint64_t frames_duplicate;      /* IP packets captured twice in a row (-i any, a mirror port): the copy skipped */
};

/* API version 6. The Operations table's rules, for a front end that keeps
 * figures of its own over the transactions of its choosing (the narrowed
 * report): adds transaction t to st's ops[] and status[] as the analyzer
 * adds it to the whole capture's: count, replies, errors and latency under
 * its main operation (ns_txn_op_key) once answered; in_compounds for each
 * operation of a COMPOUND, once (a late reply's were counted with its call,
 * handed out before it); its NFS status. Over every transaction, st's
 * ops[] and status[] equal ns_analyzer_stats' (one exception: a late reply
 * counts under the main operation its results name, the analyzer under its
 * call's, which differ when the COMPOUND stopped early). Rows are allocated
 * on first use; ns_stats_free_ops frees them. */
struct ns_txn;
void ns_stats_add_txn_ops(struct ns_stats *st, const struct ns_txn *t);
void ns_stats_free_ops(struct ns_stats *st);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
