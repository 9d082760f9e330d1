/* Time series for the HTML charts and counters for the metrics, collected
 * from the analyzer's public per-frame events (nfsscope/events.h).
 *
 * Bounded whatever the capture: SERIES_BUCKETS time buckets shared by every
 * series; when the capture outgrows them, neighbouring buckets are merged
 * and the bucket width doubles (the screen's resolution is all a chart
 * needs). Sessions, statuses, operations and UDP pairs each have a cap;
 * what comes beyond it is counted in the "dropped" counters (charts) or
 * folded into "other" (metrics). Packet times only: the same capture gives
 * the same series. */
#ifndef NFSSCOPE_OUTPUT_SERIES_H
#define NFSSCOPE_OUTPUT_SERIES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/nfsscope.h"

#define SERIES_BUCKETS 240
#define SERIES_SESSIONS 8      /* sessions charted */
#define SERIES_STATUSES 8      /* error statuses charted, the rest as "other" */
#define SERIES_OPS 12          /* operations with latency over time */
#define SERIES_PAIRS 4         /* UDP client/server pairs charted */
#define SERIES_LAT_BINS 48     /* half-octave latency bins from 1 us */

/* Metrics caps (labels beyond them are folded into "other"). */
#define SERIES_CALL_KEYS 512   /* (server, program, version, op) */
#define SERIES_SERVERS 32
#define SERIES_REPLY_STATUS 64
#define SERIES_LAT_OPS 64
#define SERIES_PROM_BUCKETS 19 /* 50 us .. 60 s, and +Inf */

struct series_sess_pt { uint32_t out_max, granted, calls; };
struct series_pair_pt {
    uint32_t rtt_n, resends, major;
    int64_t rtt_min, rtt_max, rtt_sum, srtt, rto; /* srtt/rto: the last in the bucket (0 none) */
};

struct series_session {
    uint8_t id[NS_SESSIONID_LEN];
    struct series_sess_pt pt[SERIES_BUCKETS];
};

struct series_pair {
    struct ns_addr client;
    struct ns_endpoint server;
    uint64_t major_seen;       /* the pair's major timeouts at the last resend */
    uint64_t resends, major;
    struct series_pair_pt pt[SERIES_BUCKETS];
};

struct series_op {
    uint32_t key;              /* nfsscope/stats.h operation key */
    uint64_t replies;
    uint32_t hist[SERIES_BUCKETS][SERIES_LAT_BINS];
    /* The open bins' extremes per bucket: the least latency in the first
     * bin (everything under 1.45 us, 0 included) and the largest in the
     * last (everything from 12.1 s): a chart draws them where they are, not
     * in the middle of a bin that has no end. */
    int64_t edge[SERIES_BUCKETS][2];
};

struct series_call_key {       /* metrics: calls by server, program, version, op */
    bool used;
    uint16_t server;           /* index in servers; SERIES_SERVERS: other */
    uint32_t prog, vers;
    const char *op;            /* static name */
    uint64_t calls;
};

struct series_latency {        /* metrics: a Prometheus histogram by op */
    const char *op;
    uint64_t count, sum_ns;
    uint64_t le[SERIES_PROM_BUCKETS]; /* per bucket (not cumulative): the count up to le, above the one before */
};

#define SERIES_CONN_CACHE 256
struct series_conn_cache { uint32_t conn_id; uint16_t server; };

struct series {
    ns_analyzer *a;
    struct series_conn_cache conn_cache[SERIES_CONN_CACHE];
    /* the shared time axis */
    bool started;
    int64_t t0, width;         /* first event time; bucket width, ns */
    uint32_t nbuckets;         /* buckets used (the last one holds the newest event) */
    uint64_t calls[SERIES_BUCKETS], replies[SERIES_BUCKETS];
    /* per session: outstanding against granted */
    uint32_t nsess;
    uint64_t sessions_dropped;
    struct series_session sess[SERIES_SESSIONS];
    /* errors over time by status (index SERIES_STATUSES: the others) */
    uint32_t nstatus;
    const char *status_name[SERIES_STATUSES];
    uint64_t status_total[SERIES_STATUSES + 1];
    uint32_t errors[SERIES_BUCKETS][SERIES_STATUSES + 1];
    /* latency over time by operation */
    uint32_t nops;
    uint64_t ops_dropped;
    struct series_op *ops;     /* SERIES_OPS entries */
    /* UDP */
    uint32_t npairs;
    uint64_t pairs_dropped;
    struct series_pair pair[SERIES_PAIRS];
    /* metrics counters */
    uint32_t nservers;
    struct ns_endpoint server[SERIES_SERVERS];
    struct series_call_key *keys; /* hash table, SERIES_CALL_KEYS entries */
    uint32_t nkeys;
    uint64_t calls_other;      /* calls whose key did not fit */
    uint32_t nreply_status;
    struct { const char *name; uint64_t count; } reply_status[SERIES_REPLY_STATUS + 1];
    uint32_t nlat;
    struct series_latency lat[SERIES_LAT_OPS + 1]; /* the last: "other" */
    uint64_t udp_resends;
    /* index + 1 by operation key (0: not yet seen) */
    uint8_t op_index[NS_OPKEY_MAX], lat_index[NS_OPKEY_MAX];
    uint32_t last_sess;        /* cache of the last session's index */
};

/* Listens to a's events from now on. NULL when out of memory. */
struct series *series_new(ns_analyzer *a);
void series_free(struct series *s);
/* The event callback (ns_event_fn), for a front end that listens itself
 * and passes events on. */
void series_on_event(void *ctx, const struct ns_event *ev);

/* Upper bound of half-octave latency bin i, ns (the bins of the charts, from 1.024 us). */
double series_lat_bin_upper_ns(unsigned i);
/* Quantile q of a bin histogram, ns: the geometric middle of its bin, or in
 * the first or last bin the extreme edge[0] or edge[1] holds (NULL: 1024 ns
 * and the last bin's upper bound); -1 if empty. */
double series_lat_quantile_ns(const uint32_t *hist, const int64_t *edge, double q);
/* Upper bounds of the Prometheus latency buckets, seconds. */
extern const double series_prom_le[SERIES_PROM_BUCKETS];

#endif
