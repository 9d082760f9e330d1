/* Time series and metric counters from the analyzer's events (series.h). */
#include "series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nfsscope/view.h"

#define START_WIDTH_NS 1000ll /* 1 us: doubles as the capture grows */

const double series_prom_le[SERIES_PROM_BUCKETS] = {
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
    0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
};
static const int64_t prom_le_ns[SERIES_PROM_BUCKETS] = {
    50000, 100000, 250000, 500000, 1000000, 2500000, 5000000, 10000000, 25000000, 50000000,
    100000000, 250000000, 500000000, 1000000000, 2500000000, 5000000000, 10000000000, 30000000000, 60000000000,
};

double series_lat_bin_upper_ns(unsigned i) { return 1024.0 * pow(2.0, (double)(i + 1) / 2.0); }

/* Bin of a latency: half-octaves from 1.024 us (bin 0 holds everything
 * below 1.45 us), in integers: the event path does no floating point. */
static unsigned lat_bin(int64_t ns)
{
    if (ns < 1448) return 0;
    uint64_t v = (uint64_t)ns;
    int l = 63 - __builtin_clzll(v);                     /* floor(log2 v) */
    uint64_t m = l >= 16 ? v >> (l - 16) : v << (16 - l); /* v's top bits, in [2^16, 2^17) */
    int b = 2 * l + (m >= 92682) - 20;                    /* floor(2 log2(v / 1024)); 92682 = 2^16 sqrt 2 */
    return b >= SERIES_LAT_BINS - 1 ? SERIES_LAT_BINS - 1 : (unsigned)b;
}

double series_lat_quantile_ns(const uint32_t *hist, const int64_t *edge, double q)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < SERIES_LAT_BINS; i++) n += hist[i];
    if (!n) return -1;
    uint64_t rank = (uint64_t)ceil(q * (double)n), seen = 0;
    if (rank < 1) rank = 1;
    for (unsigned i = 0; i < SERIES_LAT_BINS; i++) {
        seen += hist[i];
        if (seen < rank) continue;
        if (i == 0) return edge ? (double)edge[0] : 1024.0;
        if (i == SERIES_LAT_BINS - 1 && edge) return (double)edge[1];
        return sqrt(series_lat_bin_upper_ns(i) * series_lat_bin_upper_ns(i - 1));
    }
    return series_lat_bin_upper_ns(SERIES_LAT_BINS - 1);
}

struct series *series_new(ns_analyzer *a)
{
    struct series *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->ops = calloc(SERIES_OPS, sizeof *s->ops);
    s->keys = calloc(SERIES_CALL_KEYS, sizeof *s->keys);
    if (!s->ops || !s->keys) { series_free(s); return NULL; }
    s->a = a;
    s->width = START_WIDTH_NS;
    s->lat[SERIES_LAT_OPS].op = "other";
    ns_analyzer_on_event(a, series_on_event, s);
    return s;
}

void series_free(struct series *s)
{
    if (!s) return;
    free(s->ops);
    free(s->keys);
    free(s);
}

/* Bucket i takes buckets 2i and 2i+1: the width doubles. */
static void halve(struct series *s)
{
    for (unsigned i = 0; i < SERIES_BUCKETS / 2; i++) {
        unsigned a = 2 * i, b = a + 1;
        s->calls[i] = s->calls[a] + s->calls[b];
        s->replies[i] = s->replies[a] + s->replies[b];
        for (unsigned k = 0; k <= SERIES_STATUSES; k++) s->errors[i][k] = s->errors[a][k] + s->errors[b][k];
        for (unsigned j = 0; j < s->nsess; j++) {
            struct series_sess_pt *p = s->sess[j].pt, m = p[a];
            if (p[b].out_max > m.out_max) m.out_max = p[b].out_max;
            if (p[b].granted) m.granted = p[b].granted;
            m.calls += p[b].calls;
            p[i] = m;
        }
        for (unsigned j = 0; j < s->nops; j++) {
            struct series_op *o = &s->ops[j];
            const unsigned top = SERIES_LAT_BINS - 1;
            int64_t lo = !o->hist[b][0] || (o->hist[a][0] && o->edge[a][0] < o->edge[b][0]) ? o->edge[a][0] : o->edge[b][0];
            int64_t hi = !o->hist[b][top] || (o->hist[a][top] && o->edge[a][1] > o->edge[b][1]) ? o->edge[a][1] : o->edge[b][1];
            for (unsigned k = 0; k < SERIES_LAT_BINS; k++) o->hist[i][k] = o->hist[a][k] + o->hist[b][k];
            o->edge[i][0] = lo;
            o->edge[i][1] = hi;
        }
        for (unsigned j = 0; j < s->npairs; j++) {
            struct series_pair_pt *p = s->pair[j].pt, m = p[a];
            const struct series_pair_pt *q = &p[b];
            if (q->rtt_n) {
                if (!m.rtt_n || q->rtt_min < m.rtt_min) m.rtt_min = q->rtt_min;
                if (!m.rtt_n || q->rtt_max > m.rtt_max) m.rtt_max = q->rtt_max;
                m.rtt_n += q->rtt_n;
                m.rtt_sum += q->rtt_sum;
            }
            m.resends += q->resends;
            m.major += q->major;
            if (q->srtt) m.srtt = q->srtt;
            if (q->rto) m.rto = q->rto;
            p[i] = m;
        }
    }
    size_t half = SERIES_BUCKETS / 2;
    memset(s->calls + half, 0, half * sizeof s->calls[0]);
    memset(s->replies + half, 0, half * sizeof s->replies[0]);
    memset(s->errors[half], 0, half * sizeof s->errors[0]);
    for (unsigned j = 0; j < s->nsess; j++) memset(&s->sess[j].pt[half], 0, half * sizeof s->sess[j].pt[0]);
    for (unsigned j = 0; j < s->nops; j++) {
        memset(s->ops[j].hist[half], 0, half * sizeof s->ops[j].hist[0]);
        memset(s->ops[j].edge[half], 0, half * sizeof s->ops[j].edge[0]);
    }
    for (unsigned j = 0; j < s->npairs; j++) memset(&s->pair[j].pt[half], 0, half * sizeof s->pair[j].pt[0]);
    s->width *= 2;
    s->nbuckets = (s->nbuckets + 1) / 2;
}

static unsigned bucket(struct series *s, int64_t ts)
{
    if (!s->started) { s->started = true; s->t0 = ts; }
    if (ts < s->t0) ts = s->t0;
    int64_t i;
    while ((i = (ts - s->t0) / s->width) >= SERIES_BUCKETS) halve(s);
    if ((uint32_t)i + 1 > s->nbuckets) s->nbuckets = (uint32_t)i + 1;
    return (unsigned)i;
}

static struct series_session *session(struct series *s, const uint8_t *id)
{
    if (s->last_sess < s->nsess && memcmp(s->sess[s->last_sess].id, id, NS_SESSIONID_LEN) == 0)
        return &s->sess[s->last_sess];
    for (unsigned i = 0; i < s->nsess; i++)
        if (memcmp(s->sess[i].id, id, NS_SESSIONID_LEN) == 0) { s->last_sess = i; return &s->sess[i]; }
    if (s->nsess == SERIES_SESSIONS) { s->sessions_dropped++; return NULL; }
    struct series_session *x = &s->sess[s->last_sess = s->nsess++];
    memcpy(x->id, id, NS_SESSIONID_LEN);
    return x;
}

static void slot_facts(struct series *s, const struct ns_event *ev, unsigned b, bool call)
{
    struct series_session *x = session(s, ev->sessionid);
    if (!x) return;
    struct series_sess_pt *p = &x->pt[b];
    if (ev->outstanding > p->out_max) p->out_max = ev->outstanding;
    if (ev->granted) p->granted = ev->granted;
    if (call) p->calls++;
}

/* The operation's name as the report's operations table names it. */
static const char *op_name(const struct ns_txn *t, uint32_t key)
{
    return key < NS_OPKEY_MAX ? ns_op_key_name(key) : ns_txn_proc_name(t);
}

static uint16_t server_lookup(struct series *s, const struct ns_conn *c)
{
    for (unsigned i = 0; i < s->nservers; i++)
        if (memcmp(&s->server[i], &c->server, sizeof c->server) == 0) return (uint16_t)i;
    if (s->nservers == SERIES_SERVERS) return SERIES_SERVERS;
    s->server[s->nservers] = c->server;
    return (uint16_t)s->nservers++;
}

/* A connection's server never changes: remembered by connection id. */
static uint16_t server_index(struct series *s, const struct ns_conn *c)
{
    struct series_conn_cache *k = &s->conn_cache[c->id % SERIES_CONN_CACHE];
    if (k->conn_id != c->id) *k = (struct series_conn_cache){c->id, server_lookup(s, c)};
    return k->server;
}

static void count_call(struct series *s, const struct ns_event *ev)
{
    const struct ns_txn *t = ev->txn;
    const struct ns_conn *c = ns_analyzer_conn(s->a, ev->conn_id);
    if (!t || !c) { s->calls_other++; return; }
    uint16_t srv = server_index(s, c);
    const char *op = op_name(t, ns_txn_op_key(t));
    uint32_t h = (uint32_t)((srv * 2654435761u) ^ (t->prog * 40503u) ^ (t->vers << 7) ^ (uint32_t)((uintptr_t)op >> 3));
    for (unsigned n = 0; n < SERIES_CALL_KEYS; n++) {
        struct series_call_key *k = &s->keys[(h + n) % SERIES_CALL_KEYS];
        if (k->used && k->server == srv && k->prog == t->prog && k->vers == t->vers && k->op == op) { k->calls++; return; }
        if (!k->used) {
            if (s->nkeys >= SERIES_CALL_KEYS * 3 / 4) break; /* keep probes short */
            *k = (struct series_call_key){true, srv, t->prog, t->vers, op, 1};
            s->nkeys++;
            return;
        }
    }
    s->calls_other++;
}

static void count_latency(struct series *s, const struct ns_txn *t, uint32_t key, int64_t lat)
{
    struct series_latency *l = NULL;
    if (key < NS_OPKEY_MAX && s->lat_index[key]) l = &s->lat[s->lat_index[key] - 1];
    const char *op = op_name(t, key);
    if (!l)
        for (unsigned i = 0; i < s->nlat; i++)
            if (s->lat[i].op == op) { l = &s->lat[i]; break; }
    if (!l && s->nlat < SERIES_LAT_OPS) {
        l = &s->lat[s->nlat++];
        l->op = op;
        if (key < NS_OPKEY_MAX) s->lat_index[key] = (uint8_t)s->nlat;
    }
    if (!l) l = &s->lat[SERIES_LAT_OPS];
    l->count++;
    l->sum_ns += (uint64_t)lat;
    unsigned i = 0;
    while (i < SERIES_PROM_BUCKETS && lat > prom_le_ns[i]) i++;
    if (i < SERIES_PROM_BUCKETS) l->le[i]++; /* per bucket; the writer makes them cumulative */
}

static void chart_latency(struct series *s, uint32_t key, unsigned b, int64_t lat)
{
    if (key >= NS_OPKEY_MAX) return;
    unsigned i = s->op_index[key];
    if (!i) {
        if (s->nops == SERIES_OPS) { s->ops_dropped++; return; }
        s->ops[s->nops].key = key;
        i = s->op_index[key] = (uint8_t)++s->nops;
    }
    struct series_op *o = &s->ops[i - 1];
    o->replies++;
    unsigned k = lat_bin(lat);
    if (k == 0 && (!o->hist[b][0] || lat < o->edge[b][0])) o->edge[b][0] = lat;
    if (k == SERIES_LAT_BINS - 1 && (!o->hist[b][k] || lat > o->edge[b][1])) o->edge[b][1] = lat;
    o->hist[b][k]++;
}

static void count_status(struct series *s, const char *name, unsigned b, bool error)
{
    unsigned i;
    for (i = 0; i < s->nreply_status; i++)
        if (s->reply_status[i].name == name) break;
    if (i == s->nreply_status) {
        if (i < SERIES_REPLY_STATUS) { s->reply_status[i].name = name; s->nreply_status++; }
        else { i = SERIES_REPLY_STATUS; s->reply_status[i].name = "other"; }
    }
    s->reply_status[i].count++;
    if (!error) return;
    for (i = 0; i < s->nstatus; i++)
        if (s->status_name[i] == name) break;
    if (i == s->nstatus && s->nstatus < SERIES_STATUSES) s->status_name[s->nstatus++] = name;
    s->status_total[i]++;
    s->errors[b][i]++;
}

static void reply(struct series *s, const struct ns_event *ev, unsigned b)
{
    s->replies[b]++;
    const struct ns_txn *t = ev->txn;
    if (!t) return;
    const char *st = ns_txn_status_name(t);
    bool error;
    if (st) error = t->status != 0;
    else { st = ns_rpc_status_name(t->rpc_status); error = t->reply_stat == NS_REPLY_DENIED || t->rpc_status != NS_RPC_SUCCESS; }
    count_status(s, st, b, error);
    int64_t lat = ns_txn_latency_ns(t);
    if (lat < 0 || t->backchannel) return;
    uint32_t key = ns_txn_op_key(t);
    count_latency(s, t, key, lat);
    chart_latency(s, key, b, lat);
}

static struct series_pair *pair(struct series *s, uint32_t conn_id)
{
    const struct ns_conn *c = ns_analyzer_conn(s->a, conn_id);
    if (!c) return NULL;
    for (unsigned i = 0; i < s->npairs; i++)
        if (memcmp(&s->pair[i].client, &c->client.addr, sizeof c->client.addr) == 0 &&
            memcmp(&s->pair[i].server, &c->server, sizeof c->server) == 0)
            return &s->pair[i];
    if (s->npairs == SERIES_PAIRS) { s->pairs_dropped++; return NULL; }
    struct series_pair *p = &s->pair[s->npairs++];
    p->client = c->client.addr;
    p->server = c->server;
    return p;
}

static void udp(struct series *s, const struct ns_event *ev, unsigned b)
{
    struct series_pair *p = pair(s, ev->conn_id);
    if (!p) return;
    struct series_pair_pt *pt = &p->pt[b];
    if (ev->kind == NS_EV_REPLY && ev->rtt_ns >= 0) {
        if (!pt->rtt_n || ev->rtt_ns < pt->rtt_min) pt->rtt_min = ev->rtt_ns;
        if (!pt->rtt_n || ev->rtt_ns > pt->rtt_max) pt->rtt_max = ev->rtt_ns;
        pt->rtt_n++;
        pt->rtt_sum += ev->rtt_ns;
    }
    if (ev->srtt_ns) pt->srtt = ev->srtt_ns;
    if (ev->rto_ns) pt->rto = ev->rto_ns;
    if (ev->kind != NS_EV_RESEND) return;
    pt->resends++;
    p->resends++;
    s->udp_resends++;
    /* A major timeout is the pair's counter moving on this resend. */
    const struct ns_udp_pair *v = ns_analyzer_udp_pair_by_key(s->a, &p->client, &p->server);
    if (v && v->major_timeouts > p->major_seen) {
        pt->major += (uint32_t)(v->major_timeouts - p->major_seen);
        p->major += v->major_timeouts - p->major_seen;
        p->major_seen = v->major_timeouts;
    }
}

void series_on_event(void *ctx, const struct ns_event *ev)
{
    struct series *s = ctx;
    switch (ev->kind) {
    case NS_EV_CALL: case NS_EV_RESEND: case NS_EV_REPLY: case NS_EV_GIVEN_UP: break;
    default: return;
    }
    unsigned b = bucket(s, ev->ts_ns);
    if (ev->has_slot && !ev->backchannel) slot_facts(s, ev, b, ev->kind == NS_EV_CALL);
    if (ev->udp && (ev->kind == NS_EV_REPLY || ev->kind == NS_EV_RESEND)) udp(s, ev, b);
    if (ev->kind == NS_EV_CALL) { s->calls[b]++; count_call(s, ev); }
    else if (ev->kind == NS_EV_REPLY) reply(s, ev, b);
}
