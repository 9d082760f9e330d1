/* nfsscope core: feed it frames, get RPC transactions and statistics.
 *
 * The core never prints, never reads files, never looks at the wall clock.
 * Front ends (the nfsscope program, the TUI, the Wireshark plugin) own I/O.
 * All functions are single-threaded per analyzer. */
#ifndef NFSSCOPE_NFSSCOPE_H
#define NFSSCOPE_NFSSCOPE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/findings.h"
#include "nfsscope/names.h"
#include "nfsscope/session.h"
#include "nfsscope/stats.h"
#include "nfsscope/txn.h"

typedef struct ns_analyzer ns_analyzer;

struct ns_config {
    uint64_t memcap;            /* bytes for all tables together; 0 = default (512 MiB) */
    int64_t call_timeout_ns;    /* unanswered calls are given up after this; 0 = default (120 s) */
    double rto_factor;          /* RTO_INFLATED: UDP resend gap > factor x RTO; 0 = default (8) */
    int64_t udp_timeo_ns;       /* UDP client's initial/fixed retransmit timeout; 0 = default (1.1 s) */
    uint32_t udp_retrans;       /* UDP resends before a major timeout; 0 = default (3) */
    uint32_t storm_count;       /* errors of one kind on one session/client that make a storm; 0 = default (20) */
    int64_t storm_window_ns;    /* ... within this window; 0 = default (10 s) */
    int64_t grace_period_ns;    /* NFS4ERR_GRACE longer than this is GRACE_STUCK; 0 = default (90 s) */
};

/* One captured frame. data holds caplen bytes; len is the length on the wire. */
struct ns_frame {
    uint64_t number;            /* 1-based frame number */
    int64_t ts_ns;              /* packet time, nanoseconds since the epoch */
    uint32_t caplen, len;
    int linktype;               /* DLT_* / LINKTYPE_* value */
    const uint8_t *data;
};

/* Called for each transaction, in call order, once it is complete (reply
 * seen, call given up, or end of input). The pointer is valid only during
 * the call. */
typedef void (*ns_txn_fn)(void *ctx, const struct ns_txn *t);

/* Returns a new analyzer, or NULL (out of memory). cfg may be NULL. */
ns_analyzer *ns_analyzer_new(const struct ns_config *cfg);
void ns_analyzer_free(ns_analyzer *a);
void ns_analyzer_on_txn(ns_analyzer *a, ns_txn_fn fn, void *ctx);

/* true if the link type can be decoded. */
bool ns_linktype_supported(int linktype);

/* Analyse one frame. Frames must come in capture order. */
void ns_analyzer_feed(ns_analyzer *a, const struct ns_frame *f);
/* End of input: flush reassembly, emit every pending transaction. */
void ns_analyzer_finish(ns_analyzer *a);

/* Results (valid until the analyzer is freed; updated by feed/finish). */
const struct ns_stats *ns_analyzer_stats(const ns_analyzer *a);
/* Connections that carried RPC, by id (1..n). NULL if id is out of range. */
size_t ns_analyzer_conn_count(const ns_analyzer *a);
const struct ns_conn *ns_analyzer_conn(const ns_analyzer *a, uint32_t id);

/* Findings sorted by severity (highest first), then first time, then kind.
 * The array is valid until the next call into the analyzer. */
size_t ns_analyzer_findings(ns_analyzer *a, const struct ns_finding *const **out);
uint64_t ns_analyzer_findings_dropped(const ns_analyzer *a);

/* "10.0.0.1:2049" / "[fd00::1]:2049" into buf (>= NS_ENDPOINT_STRLEN bytes). */
#define NS_ENDPOINT_STRLEN 56
void ns_endpoint_str(const struct ns_endpoint *e, char *buf, size_t n);

#endif
