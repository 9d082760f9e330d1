/* The analyzer object: creation, the frame loop, time, settle/finish, and
 * the public result accessors. The stages themselves are in transport.c
 * (frames to RPC messages) and emit.c (RPC events to the front end). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer_int.h"
#include "analyzer_tuning.h"
#include "stats_int.h"

#define DEFAULT_MEMCAP (512ull << 20)
#define MIN_MEMCAP (1ull << 20)
#define DEFAULT_CALL_TIMEOUT (120ll * 1000000000ll)

/* The fields of struct ns_config in API version 2 end here: a caller's
 * struct must be at least this big. */
#define CONFIG_V2_SIZE (offsetof(struct ns_config, txn_order) + sizeof(uint8_t))

const char *ns_version(void) { return "0.1.0"; }
uint32_t ns_api_version(void) { return NS_API_VERSION; }
uint32_t ns_api_oldest(void) { return NS_API_OLDEST; }

bool ns_linktype_supported(int linktype) { return net_linktype_supported(linktype); }

static void set_err(char *err, size_t n, const char *msg)
{
    if (err && n) snprintf(err, n, "%s", msg);
}

static bool config_ok(const struct ns_config *in, struct ns_config *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!in) {
        struct ns_config def = NS_CONFIG_INIT;
        *out = def;
    } else {
        if (in->api_version < NS_API_OLDEST || in->api_version > NS_API_VERSION) {
            char m[128];
            snprintf(m, sizeof m, "nfsscope core serves API versions %d to %d, the caller was built for version %u",
                     NS_API_OLDEST, NS_API_VERSION, in->api_version);
            set_err(err, errlen, m);
            return false;
        }
        if (in->size < CONFIG_V2_SIZE) {
            set_err(err, errlen, "struct ns_config too small: initialise it with NS_CONFIG_INIT");
            return false;
        }
        /* an older front end's config is shorter: what it does not know
         * stays 0, the default */
        memcpy(out, in, in->size < sizeof *out ? in->size : sizeof *out);
    }
    if (out->memcap && out->memcap < MIN_MEMCAP) {
        set_err(err, errlen, "memory cap below 1 MiB");
        return false;
    }
    if (out->call_timeout_ns < 0 || out->udp_timeo_ns < 0 || out->storm_window_ns < 0 ||
        out->grace_period_ns < 0 || out->rto_factor < 0) {
        set_err(err, errlen, "negative time or factor in the configuration");
        return false;
    }
    if (out->txn_order > NS_ORDER_COMPLETION) {
        set_err(err, errlen, "unknown transaction order");
        return false;
    }
    if (!out->memcap) out->memcap = DEFAULT_MEMCAP;
    if (!out->call_timeout_ns) out->call_timeout_ns = DEFAULT_CALL_TIMEOUT;
    return true;
}

/* The key of the tables' hashes (ns_config.hash_seed), else one made from
 * where this analyzer's memory and the library's code lie: address space
 * layout randomisation makes it differ from run to run with no system call
 * (the core does no I/O). Results never depend on it. */
static uint64_t hash_seed(const struct ns_analyzer *a)
{
    if (a->cfg.hash_seed) return a->cfg.hash_seed;
    uint64_t h = (uint64_t)(uintptr_t)a ^ ((uint64_t)(uintptr_t)&hash_seed << 32) ^ (uint64_t)(uintptr_t)a->flows;
    h ^= h >> 31;
    h *= 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
    return h ? h : 1;
}

/* The counters of ns_stats that other stages keep (TCP reassembly, record
 * marking, the RPC stage's tables, IP fragments, the memory cap), copied in
 * at the end of every call that moves the analysis on, so that reading the
 * statistics is only reading (nfsscope.h, "Lifetimes"). A few stores per
 * frame; the dropped connections' sum only when one was dropped. */
static void stats_sync(struct ns_analyzer *a)
{
    struct ns_stats *st = &a->st;
    st->tcp_segments = a->tcp_st.segments;
    st->tcp_out_of_order = a->tcp_st.out_of_order;
    st->tcp_retransmitted = a->tcp_st.retransmitted;
    st->tcp_gaps = a->tcp_st.gaps;
    st->tcp_gap_bytes = a->tcp_st.gap_bytes;
    st->tcp_truncated_bytes = a->tcp_st.truncated_bytes;
    st->tcp_resyncs = a->rec_st.resyncs;
    st->tcp_syn_ignored = a->tcp_st.syn_ignored;
    st->tcp_rst_ignored = a->tcp_st.rst_ignored;
    st->records_bad_mark = a->rec_st.bad_marks;
    st->evicted_ooo_bytes = a->tcp_st.evicted_ooo_bytes + a->rec_st.dropped_bytes;
    st->evicted_pending_calls = rpc_stage_evicted_calls(a->rpc);
    st->evicted_conn_messages = rpc_stage_conns_over_cap(a->rpc);
    uint64_t dropped = rpc_stage_conns_dropped(a->rpc);
    if (dropped != st->evicted_conns) {
        st->evicted_conns = dropped;
        st->evicted_conns_sum = *rpc_stage_conns_dropped_sum(a->rpc);
    }
    st->evicted_fragments = a->frags_dropped + ipfrag_evicted(a->frags); /* dropped + trains evicted */
    st->peak_memory = a->mc.peak;
}

ns_analyzer *analyzer_new_tuned(const struct ns_config *cfg, const struct analyzer_tuning *t, char *err,
                                size_t errlen)
{
    set_err(err, errlen, "");
    struct ns_config c;
    if (!config_ok(cfg, &c, err, errlen)) return NULL;
    struct ns_analyzer *a = calloc(1, sizeof *a);
    if (!a) {
        set_err(err, errlen, "out of memory");
        return NULL;
    }
    struct analyzer_tuning tu = {0};
    if (t) tu = *t;
    a->cfg = c;
    a->probe_budget = tu.probe_budget ? tu.probe_budget : PROBE_BUDGET;
    memcap_init(&a->mc, a->cfg.memcap);
    a->flows = flow_table_new(&a->mc, tu.flow_buckets, tu.flow_slots, transport_on_flow_evict, a);
    a->frags = ipfrag_new(&a->mc, transport_on_datagram, a);
    bool an_ok = analysis_init(&a->an, &a->mc, &a->cfg);
    struct rpc_sink sink;
    if (an_ok) {
        emit_wire(a, &sink);
        a->rpc = rpc_stage_new(&a->mc, &a->st, &sink, a->cfg.call_timeout_ns);
    }
    if (!a->flows || !a->frags || !an_ok || !a->rpc) {
        set_err(err, errlen, "out of memory (or the memory cap is too small for the tables)");
        ns_analyzer_free(a);
        return NULL;
    }
    uint64_t seed = hash_seed(a);
    flow_table_set_seed(a->flows, seed);
    rpc_stage_set_hash_seed(a->rpc, seed);
    a->st.evicted_conns_sum = *rpc_stage_conns_dropped_sum(a->rpc); /* what "none dropped" looks like */
    stats_sync(a);
    return a;
}

ns_analyzer *ns_analyzer_new(const struct ns_config *cfg, char *err, size_t errlen)
{
    return analyzer_new_tuned(cfg, NULL, err, errlen);
}

void ns_analyzer_free(ns_analyzer *a)
{
    if (!a) return;
    if (a->flows) transport_release_all(a);
    flow_table_free(a->flows);
    ipfrag_free(a->frags);
    rpc_stage_free(a->rpc);
    analysis_free(&a->an);
    stats_free(&a->st, &a->mc);
    free(a);
}

void ns_analyzer_on_txn(ns_analyzer *a, ns_txn_fn fn, void *ctx)
{
    a->txn_fn = fn;
    a->txn_ctx = ctx;
}

void ns_analyzer_on_event(ns_analyzer *a, ns_event_fn fn, void *ctx)
{
    a->event_fn = fn;
    a->event_ctx = ctx;
}

/* ---- time ----
 * Time never goes backwards inside the analyzer, and one bad timestamp
 * must not move it: a frame stamped a year late would otherwise freeze the
 * clock (every later latency 0, no housekeeping), one stamped in 1970 would
 * be taken as happening now and say nothing. A frame is in line when it is
 * at most TS_BACK_MAX before the frame in line before it (reordering across
 * NIC queues: counted, taken at the clock's time) and at most TS_FWD_MAX
 * after the clock (a pause of an idle mount). Any other frame is analysed
 * at the clock's time and held as a candidate new time (a streaming
 * analyzer cannot look ahead): when the next TS_CONFIRM frames agree with
 * it, the capture's clock did jump (a long pause, files joined, a clock
 * stepped) and the analysis follows: forward, the clock moves; backward,
 * frame times are shifted so that time goes on from the clock (latencies
 * within each part stay right). A frame in line first makes the
 * candidate's frames outliers: counted, left out of the capture's span. */
#define TS_BACK_MAX (1000000000ll)               /* 1 s */
#define TS_FWD_MAX (15ll * 60 * 1000000000ll)    /* 15 minutes: past the 10 idle minutes a flow is kept */
#define TS_CONFIRM 2u

/* t within [ref - TS_BACK_MAX, fwd_ref + TS_FWD_MAX], without overflow */
static bool ts_near(int64_t t, int64_t ref, int64_t fwd_ref)
{
    int64_t d;
    if (__builtin_sub_overflow(t, ref, &d) || d < -TS_BACK_MAX) return false;
    if (__builtin_sub_overflow(t, fwd_ref, &d) || d > TS_FWD_MAX) return false;
    return true;
}

static void span_add(struct ns_stats *st, int64_t t)
{
    if (t < st->first_ts_ns) st->first_ts_ns = t;
    if (t > st->last_ts_ns) st->last_ts_ns = t;
}

/* The candidate's frames were outliers after all. */
static void ts_drop_candidate(struct ns_analyzer *a)
{
    a->st.frames_ts_outliers += a->ts.cand_n;
    a->ts.cand_n = 0;
}

/* The next TS_CONFIRM frames agreed with the candidate: the clock follows. */
static void ts_jump(struct ns_analyzer *a)
{
    struct ns_stats *st = &a->st;
    int64_t to = a->ts.cand_last;
    if (a->ts.initial && a->ts.regime <= TS_CONFIRM) {
        /* The capture's first frames were the outliers: the span starts
         * here (the clock may go back: only those few frames saw it). */
        st->frames_ts_outliers += a->ts.regime;
        st->first_ts_ns = a->ts.cand_first;
        st->last_ts_ns = to;
        a->now = to;
    } else if (to < a->now) {
        /* from here on, time goes on from the clock */
        int64_t d, off;
        if (__builtin_sub_overflow(a->now, to, &d) || __builtin_add_overflow(a->ts.off, d, &off)) {
            ts_drop_candidate(a); /* no clock is that far: outliers */
            return;
        }
        a->ts.off = off;
        to = a->now;
    } else {
        a->now = to;
    }
    span_add(st, a->now);
    a->ts.last = to;
    a->ts.regime = a->ts.cand_n;
    a->ts.cand_n = 0;
    a->ts.initial = false;
}

/* The time at which a frame stamped ts_ns is analysed. */
static int64_t frame_time(struct ns_analyzer *a, int64_t ts_ns)
{
    struct ns_stats *st = &a->st;
    int64_t t;
    if (__builtin_add_overflow(ts_ns, a->ts.off, &t)) t = ts_ns < 0 ? INT64_MIN : INT64_MAX;
    if (st->frames == 1) {
        st->first_ts_ns = st->last_ts_ns = a->now = a->last_expire = a->ts.last = t;
        a->ts.regime = 1;
        a->ts.initial = true;
        return t;
    }
    if (ts_near(t, a->ts.last, a->now)) {
        if (a->ts.cand_n) ts_drop_candidate(a);
        a->ts.regime++;
        if (t < a->ts.last) st->frames_ts_backwards++; /* reordered: taken at the clock's time */
        else a->ts.last = t;
        if (t > a->now) a->now = t;
        span_add(st, a->now);
        return a->now;
    }
    if (a->ts.cand_n && ts_near(t, a->ts.cand_last, a->ts.cand_last)) {
        if (t > a->ts.cand_last) a->ts.cand_last = t;
        if (++a->ts.cand_n > TS_CONFIRM) ts_jump(a);
    } else {
        ts_drop_candidate(a);
        a->ts.cand_n = 1;
        a->ts.cand_first = a->ts.cand_last = t;
    }
    return a->now;
}

void ns_analyzer_feed(ns_analyzer *a, const struct ns_frame *fr)
{
    if (a->finished) return;
    struct ns_stats *st = &a->st;
    st->frames++;
    st->bytes += fr->len;
    frame_time(a, fr->ts_ns);
    a->frame = fr->number;
    if (fr->caplen < fr->len) st->frames_truncated++;
    transport_frame(a, fr->linktype, fr->data, fr->caplen, fr->len);
    transport_housekeeping(a, false);
    stats_sync(a);
}

void ns_analyzer_tick(ns_analyzer *a, int64_t now_ns)
{
    /* The front end's clock is trusted; it reads the same clock as the
     * frames' timestamps, shifted as they are. */
    int64_t t;
    if (__builtin_add_overflow(now_ns, a->ts.off, &t)) return;
    if (a->finished || !a->st.frames || t <= a->now) return;
    a->now = t;
    /* the clock reached the candidate's time: its frames were right */
    if (a->ts.cand_n && ts_near(a->ts.cand_last, a->now, a->now)) {
        a->ts.cand_n = 0;
        a->ts.last = a->ts.cand_last;
        a->ts.initial = false;
    }
    transport_housekeeping(a, false);
    stats_sync(a);
}

static int64_t span_of(const struct ns_analyzer *a) { return a->st.last_ts_ns - a->st.first_ts_ns; }

void ns_analyzer_settle(ns_analyzer *a)
{
    if (a->finished) return;
    analysis_settle(&a->an, a->now, span_of(a));
    stats_sync(a);
}

void ns_analyzer_finish(ns_analyzer *a)
{
    if (a->finished) return;
    ts_drop_candidate(a); /* no frame came to confirm it */
    transport_flush_all(a);
    ipfrag_expire(a->frags, a->now, -1);
    rpc_stage_flush(a->rpc, a->now, -1);
    analysis_finish(&a->an, a->now, span_of(a));
    a->finished = true;
    stats_sync(a);
}

bool ns_analyzer_finished(const ns_analyzer *a) { return a->finished; }
int64_t ns_analyzer_now(const ns_analyzer *a) { return a->now; }

/* ---- results ---- */

size_t ns_analyzer_findings(const ns_analyzer *a, const struct ns_finding *const **out)
{
    return findings_sorted(a->an.findings, out);
}

uint64_t ns_analyzer_findings_dropped(const ns_analyzer *a) { return findings_dropped(a->an.findings); }

const struct ns_finding *ns_analyzer_finding(const ns_analyzer *a, uint32_t id)
{
    return findings_by_id(a->an.findings, id);
}

uint64_t ns_analyzer_findings_generation(const ns_analyzer *a) { return findings_generation(a->an.findings); }

size_t ns_analyzer_findings_changed(const ns_analyzer *a, uint64_t gen, const struct ns_finding *const **out)
{
    return findings_changed(a->an.findings, gen, out);
}

const struct ns_stats *ns_analyzer_stats(const ns_analyzer *a) { return &a->st; }

size_t ns_analyzer_conn_count(const ns_analyzer *a) { return rpc_stage_conn_count(a->rpc); }

const struct ns_conn *ns_analyzer_conn(const ns_analyzer *a, uint32_t id) { return rpc_stage_conn(a->rpc, id); }

bool ns_analyzer_conn_tcp(const ns_analyzer *a, uint32_t id, struct ns_conn_tcp *out)
{
    return rpc_stage_conn_tcp(a->rpc, id, out);
}

uint32_t ns_analyzer_outstanding_calls(const ns_analyzer *a) { return rpc_stage_outstanding(a->rpc); }

void ns_endpoint_str(const struct ns_endpoint *e, char *buf, size_t n)
{
    const uint8_t *b = e->addr.a;
    if (e->addr.family == 4) {
        snprintf(buf, n, "%u.%u.%u.%u:%u", b[0], b[1], b[2], b[3], e->port);
        return;
    }
    /* RFC 5952: lowercase, longest run of zero groups as "::" */
    uint16_t g[8];
    for (int i = 0; i < 8; i++) g[i] = (uint16_t)(b[2 * i] << 8 | b[2 * i + 1]);
    int best = -1, bestlen = 1;
    for (int i = 0; i < 8;) {
        int j = i;
        while (j < 8 && g[j] == 0) j++;
        if (j - i > bestlen) { best = i; bestlen = j - i; }
        i = j > i ? j : i + 1;
    }
    char s[48];
    size_t o = 0;
    for (int i = 0; i < 8; i++) {
        if (i == best) { o += (size_t)snprintf(s + o, sizeof s - o, "::"); i += bestlen - 1; continue; }
        if (o && s[o - 1] != ':') s[o++] = ':';
        o += (size_t)snprintf(s + o, sizeof s - o, "%x", g[i]);
    }
    s[o] = 0;
    snprintf(buf, n, "[%s]:%u", s, e->port);
}
