/* The charts' series and the metrics' counters (analyzer/output/series.c,
 * metrics_text.c) fed synthetic events: bounded whatever the capture length
 * (buckets merge, the width doubles, nothing is lost), caps on sessions,
 * latency bins and Prometheus buckets where the bounds say, error statuses
 * counted, label values escaped. Expected values are worked out by hand
 * from the events below. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "output.h"
#include "series.h"

#define SEC 1000000000ll

static struct ns_txn nfs3(uint32_t proc, int64_t call_ts, int64_t lat, uint32_t status)
{
    struct ns_txn t;
    memset(&t, 0, sizeof t);
    t.kind = NS_TXN_NFS3;
    t.prog = 100003;
    t.vers = 3;
    t.proc = proc;
    t.call_frame = 1;
    t.reply_frame = 2;
    t.call_ts_ns = call_ts;
    t.reply_ts_ns = call_ts + lat;
    t.reply_stat = NS_REPLY_ACCEPTED;
    t.has_status = true;
    t.status = status;
    return t;
}

static void reply_event(struct series *s, const struct ns_txn *t)
{
    struct ns_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = NS_EV_REPLY;
    ev.ts_ns = t->reply_ts_ns;
    ev.txn = t;
    series_on_event(s, &ev);
}

/* 100000 calls over an hour, on 20 sessions: 8 charted, bounded buckets. */
static void test_bounds(ns_analyzer *a)
{
    struct series *s = series_new(a);
    CHECK(s != NULL);
    if (!s) return;
    const int64_t t0 = 1700000000 * SEC;
    const int n = 100000;
    uint64_t dropped = 0;
    for (int i = 0; i < n; i++) {
        struct ns_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = NS_EV_CALL;
        ev.ts_ns = t0 + (int64_t)i * (3600 * SEC / n);
        ev.has_slot = true;
        ev.sessionid[0] = (uint8_t)(i % 20);
        ev.outstanding = (uint32_t)(i % 50);
        ev.granted = 10;
        if (i % 20 >= SERIES_SESSIONS) dropped++;
        series_on_event(s, &ev);
    }
    uint64_t calls = 0;
    for (unsigned i = 0; i < SERIES_BUCKETS; i++) calls += s->calls[i];
    CHECK_EQ_U(calls, n);                         /* merging loses nothing */
    CHECK(s->nbuckets <= SERIES_BUCKETS && s->nbuckets > SERIES_BUCKETS / 2);
    /* 1 us doubled until 240 buckets hold 3600 s: 2^24 us = 16.8 s (240 x 8.4 s < 3600 s <= 240 x 16.8 s) */
    CHECK_EQ_U(s->width, 1000ll << 24);
    CHECK_EQ_U(s->nsess, SERIES_SESSIONS);
    CHECK_EQ_U(s->sessions_dropped, dropped);
    uint32_t out_max = 0, granted = 0;
    for (unsigned i = 0; i < s->nbuckets; i++) {
        if (s->sess[3].pt[i].out_max > out_max) out_max = s->sess[3].pt[i].out_max;
        if (s->sess[3].pt[i].granted) granted = s->sess[3].pt[i].granted;
    }
    CHECK_EQ_U(out_max, 43);  /* session 3 sees i % 50 for i = 3, 23, 43, 63 (13) ...: 43 is the largest */
    CHECK_EQ_U(granted, 10);
    CHECK_EQ_U(s->calls_other, n); /* no connection behind these calls: folded, not lost */
    series_free(s);
}

/* Each latency lands in the half-octave bin whose bounds hold it. */
static void test_latency_bins(ns_analyzer *a)
{
    static const int64_t lat[] = {1, 999, 1000, 1024, 1447, 1448, 1449, 2048, 2896, 2897, 50000, 999999, 1000000,
                                  123456789, 60 * SEC, 3600 * SEC};
    for (size_t k = 0; k < sizeof lat / sizeof lat[0]; k++) {
        struct series *s = series_new(a);
        if (!s) { CHECK(0); return; }
        struct ns_txn t = nfs3(6, 10 * SEC, lat[k], 0);
        reply_event(s, &t);
        CHECK_EQ_U(s->nops, 1);
        int bin = -1;
        for (unsigned b = 0; b < SERIES_LAT_BINS; b++)
            if (s->ops[0].hist[0][b]) bin = (int)b;
        CHECK(bin >= 0);
        double lo = bin > 0 ? series_lat_bin_upper_ns((unsigned)bin - 1) : 0, hi = series_lat_bin_upper_ns((unsigned)bin);
        if (bin == SERIES_LAT_BINS - 1) hi = INFINITY;
        if (!((double)lat[k] >= lo - 1 && (double)lat[k] < hi + 1))
            fprintf(stderr, "latency %lld ns in bin %d [%g, %g)\n", (long long)lat[k], bin, lo, hi);
        CHECK((double)lat[k] >= lo - 1 && (double)lat[k] < hi + 1);
        series_free(s);
    }
}

/* Prometheus buckets: a latency equal to a bound counts in it (le = less or equal). */
static void test_prometheus(ns_analyzer *a)
{
    struct series *s = series_new(a);
    if (!s) { CHECK(0); return; }
    static const int64_t lat[] = {50000, 50001, 1000000, 60 * SEC, 61 * SEC};
    for (size_t k = 0; k < 5; k++) {
        struct ns_txn t = nfs3(6, 10 * SEC, lat[k], k == 4 ? 2 : 0); /* the last: NFS3ERR_NOENT */
        reply_event(s, &t);
    }
    CHECK_EQ_U(s->nstatus, 1);
    CHECK_EQ_S(s->status_name[0], "NFS3ERR_NOENT");
    CHECK_EQ_U(s->status_total[0], 1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct out_capture oc = {.source = "a \"quoted\\ name\"\n"};
    CHECK(metrics_write(f, a, s, &oc) == 0);
    fclose(f);
    CHECK(strstr(buf, "nfsscope_rpc_latency_seconds_bucket{op=\"READ\",le=\"5e-05\"} 1\n") != NULL);
    CHECK(strstr(buf, "nfsscope_rpc_latency_seconds_bucket{op=\"READ\",le=\"0.0001\"} 2\n") != NULL);
    CHECK(strstr(buf, "nfsscope_rpc_latency_seconds_bucket{op=\"READ\",le=\"0.001\"} 3\n") != NULL);
    CHECK(strstr(buf, "nfsscope_rpc_latency_seconds_bucket{op=\"READ\",le=\"30\"} 3\n") != NULL);
    CHECK(strstr(buf, "nfsscope_rpc_latency_seconds_bucket{op=\"READ\",le=\"60\"} 4\n") != NULL);
    CHECK(strstr(buf, "nfsscope_rpc_latency_seconds_bucket{op=\"READ\",le=\"+Inf\"} 5\n") != NULL);
    CHECK(strstr(buf, "nfsscope_rpc_latency_seconds_count{op=\"READ\"} 5\n") != NULL);
    CHECK(strstr(buf, "nfsscope_rpc_replies_total{status=\"NFS3ERR_NOENT\"} 1\n") != NULL);
    CHECK(strstr(buf, "nfsscope_rpc_replies_total{status=\"NFS3_OK\"} 4\n") != NULL);
    CHECK(strstr(buf, "source=\"a \\\"quoted\\\\ name\\\"\\n\"") != NULL); /* escaped as the format says */
    free(buf);
    series_free(s);
}

int main(void)
{
    ns_analyzer *a = ns_analyzer_new(NULL, NULL, 0);
    CHECK(a != NULL);
    if (!a) return check_done("test_series");
    test_bounds(a);
    test_latency_bins(a);
    test_prometheus(a);
    ns_analyzer_free(a);
    return check_done("test_series");
}
