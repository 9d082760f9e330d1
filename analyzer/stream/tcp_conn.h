/* The TCP connection policy: what a TCP flow's segments mean for its
 * connection around the reassembler (tcp_reasm.h) and record marking
 * (rpc_record.h). The transport (pipeline/transport.c) asks these questions
 * and does the rest (flow lookup, the RPC stage's connection record):
 *  - how a connection starts: its records in sync from the first byte only
 *    after a SYN on a port known to carry RPC, else each direction searches
 *    for a record boundary (a capture that starts mid-stream);
 *  - port reuse: when a SYN starts a new connection on the addresses and
 *    ports of an old one;
 *  - which RSTs end the connection (RFC 5961 3.2) and which late segments
 *    an ended one still takes;
 *  - how long a connection is searched for RPC: off the RPC ports a budget
 *    of data bytes each way, then it is given up as not RPC; on an RPC port
 *    (NFS, portmap, mountd, --rpc-port) for its whole life;
 *  - its segments before it is known to carry RPC, counted here and handed
 *    to its connection record when it becomes known.
 * Its state (struct tcp_conn, in struct flow) is written here only. */
#ifndef NFSSCOPE_TCP_CONN_H
#define NFSSCOPE_TCP_CONN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rpc_record.h"
#include "tcp_reasm.h"

struct flow;

/* A connection's policy state; all zero in a new flow (tcp_conn_start
 * starts it). Sized to fit what was padding: struct flow must not grow (a
 * flood of connections under a memory cap holds as many as it did). */
struct tcp_conn {
    int64_t closed_ts;        /* when it ended (tcp_conn_release) */
    uint64_t early_bytes[2];  /* payload bytes of the early segments, by sending side */
    uint32_t early_frames;    /* segments before the connection was known to carry RPC */
    uint32_t probe_bytes[2];  /* data bytes searched for RPC, by sending side (at most the budget) */
    uint16_t early_retrans, early_ooo; /* ... of them retransmitted, out of order (saturating) */
    bool mid_stream;          /* picked up without its SYN */
    bool rpc_port;            /* on a port known to carry RPC: searched for its whole life */
    bool not_rpc;             /* given up: no RPC within the budget; nothing more is looked at */
    bool released;            /* ended and its buffers given back (a late segment continuing a stream
                               * may grow them again) */
};

/* A TCP connection off the RPC ports is searched for RPC records this many
 * data bytes each way (8,454,144), more than the longest record, then given
 * up; on an RPC port it is never given up. (The analyzer's default budget.) */
#define TCP_CONN_PROBE_BUDGET (REC_MAX_FRAGMENT + (64u << 10))

/* A closed connection still takes segments continuing either side's stream
 * this long after it ended: the capture put them after the RST or FIN,
 * though they were sent before it (a multi-queue NIC). */
#define TCP_CONN_LINGER (5ll * 1000000000ll)

/* Is port a TCP port known to carry RPC: NFS (2049), portmap/rpcbind (111),
 * mountd (20048), or one of more[0..n) (ns_config.rpc_ports; 0: unused)? */
bool tcp_conn_rpc_port(uint16_t port, const uint16_t *more, size_t n);

/* Start a new flow's connection (or a new connection on a reused flow).
 * syn: it began with its SYN; rpc_port: either port carries RPC
 * (tcp_conn_rpc_port). Its records are in sync from the first byte only
 * after a SYN on an RPC port. */
void tcp_conn_start(struct flow *f, bool syn, bool rpc_port);

/* Port reuse: does this segment, sent by side, start a new connection on
 * the flow's addresses and ports? A SYN without ACK after the old
 * connection ended, or with an initial sequence number other than the one
 * that side's SYN had which is no stale copy of bytes already delivered
 * (tcp_reasm_syn_stale). A repeated SYN is the same connection. */
bool tcp_conn_reused(const struct flow *f, int side, uint8_t flags, uint32_t seq);

/* Forget the old connection of a reused flow: reassembly, record marking
 * and this policy's state cleared, the flow open again; tcp_conn_start
 * follows. The caller has given back their buffers first (tcp_reasm_release,
 * rec_release) and had the RPC stage forget its part. */
void tcp_conn_restart(struct flow *f);

/* Does the reassembler take this segment (seq, wire payload bytes, TCP
 * flags) sent by side at now? Not once the connection was given up as not
 * RPC; after it ended only a segment continuing either stream within
 * TCP_CONN_LINGER (no SYN, no RST). */
bool tcp_conn_takes(const struct flow *f, int side, uint32_t seq, uint32_t wire, uint8_t flags, int64_t now);

/* An RST sent by side with this sequence number: true when it ends the
 * connection (f->closed set): at the next expected byte, just after a FIN,
 * at the end of what is queued, or when nothing is known of the stream
 * (tcp_reasm_rst_acceptable, RFC 5961 3.2). Else it is counted in
 * st->rst_ignored and ignored, its payload too. */
bool tcp_conn_rst(struct flow *f, int side, uint32_t seq, struct tcp_reasm_stats *st);

/* Data bytes delivered in direction dir: true to go on searching them for
 * RPC. A connection known to carry RPC or on an RPC port is never given up;
 * another, once more than budget bytes were searched in one direction, is
 * given up (false, not_rpc set: the caller gives back its buffers). A
 * budget above UINT32_MAX counts as UINT32_MAX. */
bool tcp_conn_probe(struct flow *f, int dir, uint32_t len, uint64_t budget);

/* Do bytes skipped looking for a record count as unsynced
 * (ns_stats.tcp_bytes_unsynced)? Once the connection is known to carry RPC
 * or is on an RPC port; a connection given up counts as not RPC instead. */
bool tcp_conn_counts_unsynced(const struct flow *f);

/* A segment of a connection not yet known to carry RPC: wire payload bytes
 * sent by side, then what the reassembler counted of it. */
void tcp_conn_count_early(struct tcp_conn *c, int side, uint32_t wire);
void tcp_conn_count_early_tcp(struct tcp_conn *c, uint64_t retrans, uint64_t ooo);

/* What tcp_conn_count_early counted, handed once to the connection record
 * when the connection becomes known (and cleared). */
struct tcp_conn_early {
    uint32_t frames;
    uint16_t retrans, ooo;
    uint64_t bytes[2];        /* by sending side */
};
struct tcp_conn_early tcp_conn_take_early(struct tcp_conn *c);

/* After a segment: has the connection ended (an accepted RST, or a FIN
 * each way)? Sets f->closed. */
bool tcp_conn_ended(struct flow *f);

/* The ended connection gives its buffers back (the caller does, after
 * handing over what waits): true the first time, when the caller tells the
 * RPC stage the flow is gone; now dates the end for tcp_conn_takes. */
bool tcp_conn_release(struct flow *f, int64_t now);

#endif
