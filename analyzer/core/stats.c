/* Latency histograms, per-operation and per-status counters. */
#include "stats_int.h"

#include <stdlib.h>
#include <string.h>

#include "nfsscope/names.h"

#define SUB_BITS 6 /* NS_LAT_SUB == 64 */

static uint32_t bucket_of(uint64_t v)
{
    if (v < NS_LAT_SUB) return (uint32_t)v;
    unsigned e = 63u - (unsigned)__builtin_clzll(v); /* top bit */
    unsigned shift = e - SUB_BITS;
    uint64_t idx = (uint64_t)(shift + 1) * NS_LAT_SUB + ((v >> shift) - NS_LAT_SUB);
    return idx < NS_LAT_BUCKETS ? (uint32_t)idx : NS_LAT_BUCKETS - 1;
}

/* Lowest value of a bucket and its width. */
static void bucket_range(uint32_t b, uint64_t *lo, uint64_t *width)
{
    if (b < NS_LAT_SUB) { *lo = b; *width = 1; return; }
    unsigned shift = b / NS_LAT_SUB - 1;
    *lo = ((uint64_t)NS_LAT_SUB + b % NS_LAT_SUB) << shift;
    *width = (uint64_t)1 << shift;
}

void ns_latency_add(struct ns_latency *l, uint64_t ns)
{
    l->count++;
    l->sum_ns += ns;
    if (ns > l->max_ns) l->max_ns = ns;
    if (l->count == 1 || ns < l->min_ns) l->min_ns = ns;
    l->bucket[bucket_of(ns)]++;
}

uint64_t ns_latency_percentile_ns(const struct ns_latency *l, double p)
{
    if (!l->count) return 0;
    /* nearest rank: the smallest value with at least p of the samples at or below it */
    /* p in 1/10000 steps, integer arithmetic: no rounding surprises */
    uint64_t pp = (uint64_t)(p * 10000.0 + 0.5);
    uint64_t rank = (l->count * pp + 9999) / 10000;
    if (rank < 1) rank = 1;
    uint64_t seen = 0;
    for (uint32_t b = 0; b < NS_LAT_BUCKETS; b++) {
        seen += l->bucket[b];
        if (seen >= rank) {
            uint64_t lo, w;
            bucket_range(b, &lo, &w);
            uint64_t mid = lo + w / 2;
            if (b == NS_LAT_BUCKETS - 1) mid = l->max_ns; /* open-ended: no midpoint */
            if (mid < l->min_ns) mid = l->min_ns;
            return mid > l->max_ns ? l->max_ns : mid;
        }
    }
    return l->max_ns;
}

struct ns_op_stats *stats_op(struct ns_stats *st, struct memcap *mc, uint32_t key)
{
    if (key >= NS_OPKEY_MAX) return NULL;
    if (st->ops[key]) return st->ops[key];
    if (mc && !memcap_take(mc, MEM_FLOWS, sizeof *st->ops[key])) { st->evicted_op_stats++; return NULL; }
    st->ops[key] = calloc(1, sizeof *st->ops[key]);
    if (!st->ops[key] && mc) memcap_give(mc, MEM_FLOWS, sizeof *st->ops[key]);
    return st->ops[key];
}

void stats_free(struct ns_stats *st, struct memcap *mc)
{
    /* Most keys are never seen: skip them (a sanitizer's free(NULL) is not
     * free), a block of keys at a time (a fuzzer's coverage instrumentation
     * makes each of 3002 compares a call, for every input). */
    static const struct ns_op_stats *const none[64];
    for (uint32_t b = 0; b < NS_OPKEY_MAX; b += 64) {
        uint32_t n = NS_OPKEY_MAX - b < 64 ? NS_OPKEY_MAX - b : 64;
        if (!memcmp(&st->ops[b], none, n * sizeof none[0])) continue;
        for (uint32_t k = b; k < b + n; k++)
            if (st->ops[k]) {
                free(st->ops[k]);
                st->ops[k] = NULL;
                if (mc) memcap_give(mc, MEM_FLOWS, sizeof(struct ns_op_stats));
            }
    }
}

void stats_status(struct ns_stats *st, uint8_t vers, uint32_t status)
{
    for (uint32_t i = 0; i < st->nstatus; i++)
        if (st->status[i].status == status && st->status[i].vers == vers) { st->status[i].count++; return; }
    if (st->nstatus < NS_STATUS_SLOTS)
        st->status[st->nstatus++] = (struct ns_status_count){status, vers, 1};
}

const char *ns_op_key_name(uint32_t key)
{
    if (key == NS_OPKEY_V4NULL) return "NULL";
    if (key == NS_OPKEY_CBNULL) return "CB_NULL";
    if (key >= 2000 && key < 3000) return ns_nfs3_proc_name(key - 2000);
    if (key >= 1000 && key < 2000) return ns_nfs4_cb_op_name(key - 1000);
    if (key == 999) return "ILLEGAL";
    return ns_nfs4_op_name(key);
}
