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

typedef struct ns_analyzer ns_analyzer;

/* Version of this API; a front end built against another one is refused by
 * ns_analyzer_new (the Wireshark plugin checks what it links against). */
#define NS_API_VERSION 4 /* 3: COMPOUND operations past 64 (ns_txn_op), ns_txn.ops_more; 4: ns_stats.flows_retired_idle */

enum ns_txn_order {
    NS_ORDER_CALL = 0,       /* transactions handed out in call order (the txn log) */
    NS_ORDER_COMPLETION = 1, /* handed out as soon as answered or given up */
};

/* Start from NS_CONFIG_INIT; 0 in any other field takes the default. */
struct ns_config {
    uint32_t size;              /* sizeof(struct ns_config) as the caller knows it */
    uint32_t api_version;       /* NS_API_VERSION as the caller knows it */
    uint64_t memcap;            /* bytes for all tables together; 0 = default (512 MiB) */
    int64_t call_timeout_ns;    /* unanswered calls are given up after this; 0 = default (120 s) */
    double rto_factor;          /* RTO_INFLATED: UDP resend gap > factor x RTO; 0 = default (8) */
    int64_t udp_timeo_ns;       /* UDP client's initial/fixed retransmit timeout; 0 = default (1.1 s) */
    uint32_t udp_retrans;       /* UDP resends before a major timeout; 0 = default (3) */
    uint32_t storm_count;       /* errors of one kind on one session/client that make a storm; 0 = default (20) */
    int64_t storm_window_ns;    /* ... within this window; 0 = default (10 s) */
    int64_t grace_period_ns;    /* NFS4ERR_GRACE longer than this is GRACE_STUCK; 0 = default (90 s) */
    uint8_t txn_order;          /* enum ns_txn_order */
};
#define NS_CONFIG_INIT {.size = sizeof(struct ns_config), .api_version = NS_API_VERSION}

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
 * handed out exactly once. The pointer is valid only during the call. */
typedef void (*ns_txn_fn)(void *ctx, const struct ns_txn *t);

/* A new analyzer, or NULL with a one-line reason in err (err may be NULL;
 * errlen bytes, NS_ERRBUF_SIZE is enough). cfg may be NULL (defaults). */
#define NS_ERRBUF_SIZE 256
ns_analyzer *ns_analyzer_new(const struct ns_config *cfg, char *err, size_t errlen);
void ns_analyzer_free(ns_analyzer *a);
/* "0.1.0": the version of the core library itself. */
const char *ns_version(void);
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

/* Results: valid until the analyzer is freed, updated by feed/tick/settle/finish. */
/* Counters; the derived ones (TCP, evictions, memory) are brought up to date by this call. */
const struct ns_stats *ns_analyzer_stats(ns_analyzer *a);

/* Connections that carried RPC, by id (1..n, in order of first appearance;
 * ids are never reused). A record lives while its flow lives; once the
 * connection is closed (FIN/RST, or its flow evicted) and none of its calls
 * is outstanding it is kept as a closed-connection summary, and the oldest
 * closed ones are dropped past 4096 closed or when the memory cap needs
 * room (counted in ns_stats.evicted_conns, their figures added up in
 * evicted_conns_sum).
 * A record never moves: the pointer stays valid until the record is dropped,
 * during a later feed, tick or finish; NULL if id is out of range or
 * dropped, so look the id up again to know the record still lives. */
size_t ns_analyzer_conn_count(const ns_analyzer *a);
const struct ns_conn *ns_analyzer_conn(const ns_analyzer *a, uint32_t id);
/* Requests sent and not yet answered or given up. */
uint32_t ns_analyzer_outstanding_calls(const ns_analyzer *a);

/* Findings sorted by severity (highest first), then first time, then kind.
 * The array is valid until the next call into the analyzer. */
size_t ns_analyzer_findings(ns_analyzer *a, const struct ns_finding *const **out);
uint64_t ns_analyzer_findings_dropped(const ns_analyzer *a);
/* A finding by its id (stable for the analyzer's life), or NULL. */
const struct ns_finding *ns_analyzer_finding(const ns_analyzer *a, uint32_t id);
/* Generation of the newest finding change (0: none). Findings changed after
 * generation gen, by id; the array is valid until the next call into the
 * analyzer. A screen keeps the generation it last showed and asks for what
 * changed since. */
uint64_t ns_analyzer_findings_generation(const ns_analyzer *a);
size_t ns_analyzer_findings_changed(ns_analyzer *a, uint64_t gen, const struct ns_finding *const **out);

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

#pragma GCC visibility pop

#endif
