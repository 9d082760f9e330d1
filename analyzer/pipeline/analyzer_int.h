/* The analyzer object (private to pipeline/): it owns every stage and wires
 * them: frames -> net -> stream -> rpc stage -> analysis, and the results
 * out to the front end's callbacks. The stages never see this struct. */
#ifndef NFSSCOPE_ANALYZER_INT_H
#define NFSSCOPE_ANALYZER_INT_H
#include "analysis.h"
#include "flow.h"
#include "ipfrag.h"
#include "memcap.h"
#include "nfsscope/nfsscope.h"
#include "rpc_record.h"
#include "rpc_stage.h"
#include "tcp_conn.h"
#include "tcp_reasm.h"

/* The default of analyzer_tuning.probe_budget (stream/tcp_conn.h); a flow
 * given up is counted in ns_stats.tcp_flows_not_rpc. */
#define PROBE_BUDGET TCP_CONN_PROBE_BUDGET

/* Capture duplicates: an IP packet seen again within DUP_FRAMES frames and
 * DUP_WINDOW_NS is the same packet captured twice. Linux never resends an
 * RPC over UDP that fast (its minimum RTO is far larger), and a TCP segment
 * resent that fast carries nothing new. Compared: a 64-bit fingerprint of
 * the addresses, protocol, IPv4 ID, fragment fields, length and the first
 * DUP_PREFIX bytes after the IP header: TCP's ports, sequence, ack, flags,
 * window and checksum (which covers the rest); UDP's header, checksum
 * included, and the RPC XID and message type. A frame costs a few dozen
 * instructions. */
#define DUP_FRAMES 8
#define DUP_PREFIX 24
#define DUP_WINDOW_NS 1000000ll

struct ns_analyzer {
    struct ns_config cfg;
    struct memcap mc;
    struct ns_stats st;
    struct tcp_reasm_stats tcp_st;
    struct rec_stats rec_st;
    struct flow_table *flows;
    struct ipfrag_table *frags;
    struct rpc_stage *rpc;
    struct analysis an;
    ns_txn_fn txn_fn;
    void *txn_ctx;
    ns_event_fn event_fn;
    void *event_ctx;
    uint64_t frags_dropped;  /* IP fragments refused (invalid or over the cap) */
    uint64_t probe_budget;   /* PROBE_BUDGET unless tuned (analyzer_tuning.h) */
    /* the frame being processed (or the last tick): the clock */
    uint64_t frame;
    int64_t now;
    /* The frame and time of the TCP bytes being handed to record marking
     * (transport.c on_tcp_bytes; bytes that waited in the reassembler's
     * queue keep their own), NULL otherwise: a finding raised at that frame
     * is dated by it (emit.c on_finding, which is told only a frame). */
    const struct rpc_at *delivering;
    int64_t last_expire;
    bool finished;
    /* Frame timestamps (analyzer.c frame_time): a frame far out of line
     * with the clock is analysed at the clock's time and held as a
     * candidate new time; the clock moves to it when the next frames agree. */
    struct {
        int64_t off;         /* added to frame timestamps: the capture's clock stepped back */
        int64_t last;        /* time of the last frame in line (ticks not included) */
        int64_t cand_first, cand_last; /* the candidate new time's frames */
        uint32_t cand_n;     /* frames agreeing with the candidate (0: none) */
        uint32_t regime;     /* frames in line with the clock since it was set */
        bool initial;        /* the clock is still the first frame's */
    } ts;
    /* The last IP packets seen (transport.c is_capture_dup): one seen again
     * within a few frames and a millisecond was captured twice (tcpdump -i
     * any, a mirror port), not sent twice. */
    struct dup_seen {
        int64_t ts;
        uint64_t print;  /* fingerprint; 0: unused */
    } dup[DUP_FRAMES];
    uint32_t dup_next;
};

/* transport.c: one decoded frame (or tick) through the transport stages. */
void transport_frame(struct ns_analyzer *a, int linktype, const uint8_t *data, uint32_t caplen, uint32_t len);
void transport_housekeeping(struct ns_analyzer *a, bool force);
/* End of input: hand every flow's waiting bytes to the RPC stage. */
void transport_flush_all(struct ns_analyzer *a);
void transport_release_all(struct ns_analyzer *a);
/* A reassembled (or given up) fragmented datagram. */
void transport_on_datagram(void *ctx, const struct ipfrag_done *d);
void transport_on_flow_evict(void *ctx, struct flow *f);

/* emit.c: the RPC stage's sink and the analyzers' listeners, turned into
 * transactions and events for the front end. */
void emit_wire(struct ns_analyzer *a, struct rpc_sink *sink);

#endif
