/* What the per-file, per-user and per-client tables count for each row:
 * transactions, bytes, errors, time spent, and a small latency histogram
 * (4 buckets per power of two of microseconds: a percentile read from it is
 * within 19% of the exact value, clamped to the row's min and max). */
#ifndef NFSSCOPE_WHO_STATS_H
#define NFSSCOPE_WHO_STATS_H
#include <stdbool.h>
#include <stdint.h>

#include "nfsscope/txn.h"

#define WHO_HIST 128

struct who_stats {
    uint64_t calls;        /* transactions */
    uint64_t bytes;        /* call + reply RPC message bytes */
    uint64_t errors;       /* replies that failed: RPC not accepted or not SUCCESS, or an NFS/MOUNT status not OK */
    uint64_t read_bytes, write_bytes; /* READ / READ_PLUS data returned, WRITE bytes the server wrote */
    uint64_t time_ns;      /* sum of latencies */
    uint64_t answered;     /* transactions with a latency */
    uint64_t min_ns, max_ns;
    uint32_t hist[WHO_HIST];
};

/* Whether a transaction counts as an error (the same rule for every table). */
bool who_txn_error(const struct ns_txn *t);
/* Bytes of data a READ returned / a WRITE wrote (0 for other operations). */
void who_txn_io(const struct ns_txn *t, uint64_t *read, uint64_t *write);
/* What one transaction adds to every row it counts in, worked out once. */
struct who_sample {
    uint64_t bytes, read, write, lat_ns;
    bool error, answered;
    uint8_t bucket;
};
void who_sample_of(struct who_sample *x, const struct ns_txn *t);
void who_stats_add(struct who_stats *s, const struct who_sample *x);
/* Percentile p (0..1) of the latencies in microseconds; 0 without any. */
uint64_t who_stats_pct_us(const struct who_stats *s, double p);

#endif
