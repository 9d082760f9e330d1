/* nfsscope core: feed it frames, get RPC transactions, per-frame events,
 * findings and statistics.
 *
 * The core never prints, never reads files, never looks at the wall clock.
 * Front ends (the nfsscope program, the TUI, the Wireshark plugin) own I/O.
 * All functions are single-threaded per analyzer.
 *
 * Life of an analyzer: new -> feed* (with tick and settle whenever a front
 * end wants to show the state so far) -> finish -> read results -> free.
 * Results are complete at every moment for what does not depend on the end
 * of input; finish adds what does (calls never answered, end-only rules). */
#ifndef NFSSCOPE_NFSSCOPE_H
#define NFSSCOPE_NFSSCOPE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/events.h"
#include "nfsscope/findings.h"
#include "nfsscope/names.h"
#include "nfsscope/session.h"
#include "nfsscope/stats.h"
#include "nfsscope/txn.h"

/* Everything declared here is the library's public ABI (the rest is hidden). */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_analyzer ns_analyzer;

/* API versions. NS_API_VERSION grows by one with every release of this
 * API that adds something; NS_API_OLDEST is the oldest version whose front
 * ends this library still serves (the versions in between are one "major":
 * raising NS_API_OLDEST is the incompatible change). The rules that make
 * additions compatible:
 *  - A front end built against version N (NS_CONFIG_INIT records N) works
 *    with any library whose range NS_API_OLDEST..NS_API_VERSION holds N;
 *    ns_analyzer_new refuses it otherwise, with the reason (a newer front
 *    end would read fields an older library never fills).
 *  - A struct the library hands out by pointer (ns_stats, ns_txn,
 *    ns_finding, ns_event, ns_session_view, ns_client_view, ns_udp_pair,
 *    ...) grows only at its end: a front end reads the prefix it knows.
 *  - struct ns_config, which the front end hands in, is read up to its
 *    .size: fields past it take their defaults.
 *  - A type the library lays out in arrays or inside another public struct
 *    (ns_slot_view, ns_slot_change, ns_session_conn, ns_conn, ns_latency,
 *    ns_op_row, ns_status_row, ns_mem_pool, ns_loss_row, ...) and the
 *    length of any fixed array in a public struct never change: a new
 *    field there means a new type and a new accessor.
 * tests/api/frontend_compat.c holds the library to this: a front end built
 * against version 4's headers (kept in tests/api/v4/) must read the same
 * results as the same source built against these. */
#define NS_API_VERSION 8 /* 3: COMPOUND operations past 64 (ns_txn_op), ns_txn.ops_more; 4: ns_stats.flows_retired_idle; 5: production-capture counters (ns_stats.tcp_flows_not_rpc ...); 6: a range of versions served (NS_API_OLDEST), ns_api_version, ns_config.hash_seed; 7: ns_session_view.back_channel, .status_flags; 8: ns_txn.state4, ns_client_view.delegations, .lease, ns_config.lease_time_ns, ns_session_stats.delegations_evicted */
#define NS_API_OLDEST 4 /* version 3 moved fields of ns_txn (the COMPOUND operation lists) */

enum ns_txn_order {
    NS_ORDER_CALL = 0,       /* transactions handed out in call order (the txn log) */
    NS_ORDER_COMPLETION = 1, /* handed out as soon as answered or given up */
};

/* Start from NS_CONFIG_INIT; 0 in any other field takes the default. */
struct ns_config {
    uint32_t size;              /* sizeof(struct ns_config) as the caller knows it */
    uint32_t api_version;       /* NS_API_VERSION as the caller knows it (see "API versions") */
    uint64_t memcap;            /* bytes for all tables together; 0 = default (512 MiB) */
    int64_t call_timeout_ns;    /* unanswered calls are given up after this; 0 = default (120 s) */
    double rto_factor;          /* RTO_INFLATED: UDP resend gap > factor x RTO; 0 = default (8) */
    int64_t udp_timeo_ns;       /* UDP client's initial/fixed retransmit timeout; 0 = default (1.1 s) */
    uint32_t udp_retrans;       /* UDP resends before a major timeout; 0 = default (3) */
    uint32_t storm_count;       /* errors of one kind on one session/client that make a storm; 0 = default (20) */
    int64_t storm_window_ns;    /* ... within this window; 0 = default (10 s) */
    int64_t grace_period_ns;    /* NFS4ERR_GRACE longer than this is GRACE_STUCK; 0 = default (90 s) */
    uint8_t txn_order;          /* enum ns_txn_order */
    /* API version 5: TCP ports that carry RPC besides 2049, 111 and 20048
     * (NLM, NSM, a mountd elsewhere; 0 = unused). A flow on an RPC port is
     * never given up: picked up mid-stream, it is searched for a record for
     * as long as it lasts; a flow elsewhere is given up after more than the
     * longest record's bytes without one (ns_stats.tcp_flows_not_rpc). */
    uint16_t rpc_ports[16];
    /* API version 6: the key of the hashes that index tables by wire values
     * (flows by addresses and ports, outstanding calls by XID), so that
     * crafted traffic cannot choose which entries share a chain. 0: a key
     * made for each analyzer from where its memory lies (address
     * randomisation), different from run to run. Results never depend on
     * it, only speed; set one to time runs that must repeat exactly. */
    uint64_t hash_seed;
    /* API version 8: a client's lease time when no GETATTR reply told it
     * (fattr4 lease_time), for the delegation and lease rules; 0 = 90 s. */
    int64_t lease_time_ns;
};
#ifndef __cplusplus
#define NS_CONFIG_INIT {.size = sizeof(struct ns_config), .api_version = NS_API_VERSION}
#else
/* C++ has designated initializers only from C++20, and warns (-Wextra) of
 * the fields they leave out: the same value, made by a function. */
static inline struct ns_config ns_config_init_cxx(void)
{
    struct ns_config c = {};
    c.size = sizeof c;
    c.api_version = NS_API_VERSION;
    return c;
}
#define NS_CONFIG_INIT ns_config_init_cxx()
#endif

/* One captured frame. data holds caplen bytes; len is the length on the wire. */
struct ns_frame {
    uint64_t number;            /* 1-based frame number */
    int64_t ts_ns;              /* packet time, nanoseconds since the epoch */
    uint32_t caplen, len;
    int linktype;               /* DLT_* / LINKTYPE_* value */
    const uint8_t *data;
};

/* Called for each transaction once it is complete (reply seen, call given
 * up, or end of input), in the order cfg.txn_order asks. Each transaction is
 * handed out exactly once. The pointer is valid during the call only. */
typedef void (*ns_txn_fn)(void *ctx, const struct ns_txn *t);

/* A new analyzer, or NULL with a one-line reason in err (err may be NULL;
 * errlen bytes, NS_ERRBUF_SIZE is enough). cfg may be NULL (defaults). */
#define NS_ERRBUF_SIZE 256
ns_analyzer *ns_analyzer_new(const struct ns_config *cfg, char *err, size_t errlen);
void ns_analyzer_free(ns_analyzer *a);
/* "0.1.0": the version of the core library itself. */
const char *ns_version(void);
/* The API versions this library serves: NS_API_VERSION and NS_API_OLDEST
 * as it was built (for a front end that loads it at run time). */
uint32_t ns_api_version(void);
uint32_t ns_api_oldest(void);
void ns_analyzer_on_txn(ns_analyzer *a, ns_txn_fn fn, void *ctx);
/* Per-frame events while feeding (nfsscope/events.h); fn may be NULL. */
void ns_analyzer_on_event(ns_analyzer *a, ns_event_fn fn, void *ctx);

/* true if the link type can be decoded. */
bool ns_linktype_supported(int linktype);

/* Analyse one frame. Frames must come in capture order; a frame stamped
 * before the last one counts as happening at the same time. Ignored after
 * ns_analyzer_finish. */
void ns_analyzer_feed(ns_analyzer *a, const struct ns_frame *f);
/* Time passes with no frames (a live capture on an idle link): expire IP
 * fragments, give up calls beyond the call timeout, close idle flows, as a
 * frame at now_ns would. now_ns earlier than the last frame does nothing. */
void ns_analyzer_tick(ns_analyzer *a, int64_t now_ns);
/* Bring every finding and view up to date as of the last frame or tick,
 * without giving anything up: the live screen calls it every second; it is
 * idempotent and finish uses it too. */
void ns_analyzer_settle(ns_analyzer *a);
/* End of input: flush reassembly, give up every outstanding call, emit every
 * pending transaction, apply the end-only rules. Idempotent. */
void ns_analyzer_finish(ns_analyzer *a);
bool ns_analyzer_finished(const ns_analyzer *a);
/* Time of the last frame or tick (0 before the first). */
int64_t ns_analyzer_now(const ns_analyzer *a);

/* Lifetimes: one rule for every pointer the library returns.
 *  - What a read call returns (stats, a connection, a finding or an array
 *    of findings, a session or client view and its slots, a UDP pair, the
 *    READ files) stays valid and unchanged until the next call that moves
 *    the analysis on: ns_analyzer_feed, _tick, _settle, _finish, _free.
 *  - Read calls (every other ns_analyzer_* call) never free, move or change
 *    what another read call returned, however many and in whatever order:
 *    a front end may hold the findings array while it looks up sessions.
 *  - What a callback is handed (a transaction, an event, its finding) is
 *    valid during the callback only.
 * To keep something longer, copy it (the structs are plain data) or keep
 * its id (connections, findings, sessions by ID, transactions: never
 * reused) and look it up again. tests/api/check_lifetimes.c holds the
 * library to this under ASan. */

/* Counters. Reading them computes nothing: the ones other stages keep
 * (TCP, evictions, peak memory) are copied in at the end of every feed,
 * tick, settle and finish, so a callback reading them during such a call
 * sees those as of the call before. */
const struct ns_stats *ns_analyzer_stats(const ns_analyzer *a);

/* Connections that carried RPC, by id (1..n, in order of first appearance;
 * ids are never reused). A record lives while its flow lives; once the
 * connection is closed (FIN/RST, or its flow evicted) and none of its calls
 * is outstanding it is kept as a closed-connection summary, and the oldest
 * closed ones are dropped past 4096 closed or when the memory cap needs
 * room (counted in ns_stats.evicted_conns, their figures added up in
 * evicted_conns_sum).
 * NULL if id is out of range or dropped: after feeding, look the id up
 * again to know the record still lives. */
size_t ns_analyzer_conn_count(const ns_analyzer *a);
const struct ns_conn *ns_analyzer_conn(const ns_analyzer *a, uint32_t id);
/* API version 6: a connection's TCP segment counts, copied into *out; false
 * (and zeros) if id is out of range or dropped. */
bool ns_analyzer_conn_tcp(const ns_analyzer *a, uint32_t id, struct ns_conn_tcp *out);
/* Requests sent and not yet answered or given up. */
uint32_t ns_analyzer_outstanding_calls(const ns_analyzer *a);

/* Findings sorted by severity (highest first), then first time, then kind. */
size_t ns_analyzer_findings(const ns_analyzer *a, const struct ns_finding *const **out);
uint64_t ns_analyzer_findings_dropped(const ns_analyzer *a);
/* A finding by its id (stable for the analyzer's life), or NULL. */
const struct ns_finding *ns_analyzer_finding(const ns_analyzer *a, uint32_t id);
/* Generation of the newest finding change (0: none). Findings changed after
 * generation gen, by id (an array of its own: the one ns_analyzer_findings
 * returned stays as it was). A screen keeps the generation it last showed
 * and asks for what changed since. */
uint64_t ns_analyzer_findings_generation(const ns_analyzer *a);
size_t ns_analyzer_findings_changed(const ns_analyzer *a, uint64_t gen, const struct ns_finding *const **out);

/* Memory by pool: bytes used now, the pool's cap, the peak, and the
 * evictions the cap forced (counted in the pool's own unit, see name). */
struct ns_mem_pool {
    const char *name;           /* "flows", "reassembly", "pending_calls", "ip_fragments", "sessions" */
    const char *evictions_unit; /* "flows", "bytes", "calls", "fragments", "entries" */
    uint64_t used, cap, peak;
    uint64_t evictions;
};
#define NS_MEM_POOLS 5
/* Fills up to n pools; returns NS_MEM_POOLS. */
size_t ns_analyzer_memory(const ns_analyzer *a, struct ns_mem_pool *out, size_t n);
uint64_t ns_analyzer_memory_total(const ns_analyzer *a, uint64_t *cap, uint64_t *peak);

/* "10.0.0.1:2049" / "[fd00::1]:2049" into buf (>= NS_ENDPOINT_STRLEN bytes). */
#define NS_ENDPOINT_STRLEN 56
void ns_endpoint_str(const struct ns_endpoint *e, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
