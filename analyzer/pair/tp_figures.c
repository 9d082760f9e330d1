/* The two-point figures once both captures are in (see tp_int.h): the
 * offset line, what is in one capture only and why, frames lost between
 * the points, the split per operation / connection / client, findings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfsscope/names.h"
#include "tp_int.h"

#define MIN_SPLIT 5             /* split transactions an operation needs for a time finding */
#define MIN_CLIENT_NS 1000000   /* ... and a client-seen median of at least 1 ms */
#define NETWORK_SHARE 0.5       /* network median >= half the client-seen median */
#define SERVER_SHARE 0.8        /* server median >= 80% of the client-seen median */

/* Rounding without libm (the core archive links none). */
static int64_t round_ns(double x) { return (int64_t)(x < 0 ? x - 0.5 : x + 0.5); }
static int64_t floor_ns(double x) { int64_t i = (int64_t)x; return (double)i > x ? i - 1 : i; }
static int64_t ceil_ns(double x) { int64_t i = (int64_t)x; return (double)i < x ? i + 1 : i; }

/* ---- the offset line ---- */

static int by_call(const void *x, const void *y)
{
    const struct tp_cli_txn *a = *(struct tp_cli_txn *const *)x, *b = *(struct tp_cli_txn *const *)y;
    return a->call_c < b->call_c ? -1 : a->call_c > b->call_c;
}

/* Bounds of the first n matched transactions (in call order). */
static void bounds_of(struct tp_cli_txn *const *m, size_t n, int64_t t0, struct tp_bound *lo, size_t *nlo,
                      struct tp_bound *hi, size_t *nhi)
{
    *nlo = *nhi = 0;
    for (size_t i = 0; i < n; i++) {
        hi[(*nhi)++] = (struct tp_bound){(double)(m[i]->call_c - t0), (double)(m[i]->call_s - m[i]->call_c)};
        if (m[i]->reply_c && m[i]->reply_s)
            lo[(*nlo)++] = (struct tp_bound){(double)(m[i]->reply_c - t0), (double)(m[i]->reply_s - m[i]->reply_c)};
    }
}

static void offset_line(struct ns_two_point *tp)
{
    struct ns_tp_result *r = &tp->r;
    size_t n = 0;
    for (size_t i = 0; i < tp->ncli; i++) n += tp->cli[i].matched;
    if (!n) return;
    struct tp_cli_txn **m = malloc(n * sizeof *m);
    struct tp_bound *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
    if (!m || !lo || !hi) goto out;
    n = 0;
    for (size_t i = 0; i < tp->ncli; i++)
        if (tp->cli[i].matched) m[n++] = &tp->cli[i];
    qsort(m, n, sizeof *m, by_call);
    int64_t t0 = tp->first[NS_TP_CLIENT];
    size_t nlo, nhi;
    bounds_of(m, n, t0, lo, &nlo, hi, &nhi);
    tp_offset_estimate(lo, nlo, hi, nhi, NS_TP_DRIFT_MAX_PPM * 1e-6, &tp->off);
    const struct tp_offset *o = &tp->off;
    if (o->feasible) {
        r->offset_known = true;
        r->offset_ns = round_ns(o->a);
        r->offset_lo_ns = floor_ns(o->a_lo);
        r->offset_hi_ns = ceil_ns(o->a_hi);
        r->drift_ppm = o->b * 1e6;
        r->drift_lo_ppm = o->b_lo * 1e6;
        r->drift_hi_ppm = o->b_hi * 1e6;
        r->drift_lo_open = o->b_lo_open;
        r->drift_hi_open = o->b_hi_open;
    } else if (o->estimated) {
        /* the first transaction that no line fits with those before it */
        r->clock_jump = true;
        size_t good = 1, bad = n; /* the first `good` fit; the first `bad` do not */
        while (bad - good > 1) {
            size_t mid = good + (bad - good) / 2;
            struct tp_offset p;
            bounds_of(m, mid, t0, lo, &nlo, hi, &nhi);
            tp_offset_estimate(lo, nlo, hi, nhi, NS_TP_DRIFT_MAX_PPM * 1e-6, &p);
            if (p.feasible || !p.estimated) good = mid;
            else bad = mid;
        }
        r->jump_at_ns = m[bad - 1]->call_c;
    }
out:
    free(m);
    free(lo);
    free(hi);
}

/* Client time -> server time and back, on the estimated line. */
static int64_t to_server(const struct ns_two_point *tp, int64_t c)
{
    double t = (double)(c - tp->first[NS_TP_CLIENT]);
    return c + round_ns(tp->off.a + tp->off.b * t);
}

static int64_t to_client(const struct ns_two_point *tp, int64_t s)
{
    /* s = c + a + b (c - t0)  =>  c - t0 = (s - t0 - a) / (1 + b) */
    int64_t t0 = tp->first[NS_TP_CLIENT];
    return t0 + round_ns(((double)(s - t0) - tp->off.a) / (1 + tp->off.b));
}

/* Was a frame or call sent at time t (side `side`'s clock) inside the other
 * capture's span, away from its ends by tp->edge_ns (a frame sent just
 * before the other capture stopped arrives after it)? Unknown offset: taken
 * as inside (the caller says why not). */
static bool in_other_span(const struct ns_two_point *tp, int side, int64_t t)
{
    if (!tp->r.offset_known) return true;
    int other = !side;
    int64_t u = side == NS_TP_CLIENT ? to_server(tp, t) : to_client(tp, t);
    return u >= tp->first[other] + tp->edge_ns && u <= tp->last[other] - tp->edge_ns;
}

static int cmp_i64(const void *x, const void *y);

/* The edge: the offset's uncertainty, 1 ms, and the median network time
 * (a round trip: twice what a frame not held up by loss spends on its way;
 * not a high percentile, which holds retransmission delays and would hide
 * every loss near the ends of a short capture). */
static void edge_of(struct ns_two_point *tp)
{
    const struct ns_tp_result *r = &tp->r;
    tp->edge_ns = 1000000 + (r->offset_known ? r->offset_hi_ns - r->offset_lo_ns : 0);
    size_t n = 0;
    for (size_t i = 0; i < tp->ncli; i++) n += tp->cli[i].has_split;
    int64_t *v = n ? malloc(n * sizeof *v) : NULL;
    if (!v) return;
    n = 0;
    for (size_t i = 0; i < tp->ncli; i++)
        if (tp->cli[i].has_split) v[n++] = tp->cli[i].client_ns - tp->cli[i].server_ns;
    qsort(v, n, sizeof *v, cmp_i64);
    int64_t p50 = v[(n + 1) / 2 - 1];
    if (p50 > 0) tp->edge_ns += p50;
    free(v);
}

/* ---- calls and frames in one capture only ---- */

static void calls_alone(struct ns_two_point *tp)
{
    struct ns_tp_result *r = &tp->r;
    for (size_t i = 0; i < tp->ncli; i++) {
        const struct tp_cli_txn *c = &tp->cli[i];
        if (c->matched) { r->matched_calls++; r->split_calls += c->has_split; continue; }
        r->only_client.calls++;
        if (!in_other_span(tp, NS_TP_CLIENT, c->call_c)) r->only_client.calls_outside_span++;
        else r->only_client.calls_unexplained++;
    }
    for (size_t i = 0; i < tp->srv.n; i++) {
        const struct tp_srv_txn *s = tp_table_at(&tp->srv, i);
        if (s->matched) continue;
        r->only_server.calls++;
        if (!in_other_span(tp, NS_TP_SERVER, s->call_ns)) r->only_server.calls_outside_span++;
        else r->only_server.calls_unexplained++;
    }
}

static void note_loss(struct ns_two_point *tp, uint32_t flow, int64_t t_c)
{
    if (!tp_grow(&tp->mem, (void **)&tp->loss, sizeof *tp->loss, tp->nloss, &tp->loss_cap)) return;
    tp->loss[tp->nloss++] = (struct tp_loss){flow, t_c};
}

/* n occurrences of segment s in side's capture only. */
static void frames_alone(struct ns_two_point *tp, const struct tp_seg *s, int side, uint64_t n)
{
    struct ns_tp_only *o = side == NS_TP_CLIENT ? &tp->r.only_client : &tp->r.only_server;
    o->frames += n;
    struct tp_flow *f = tp_table_at(&tp->flows, s->flow);
    /* sent by this side's own endpoint: the client's frames leave the client
     * capture toward the server (dir of the flow's client end) */
    bool sender_here = f->server >= 0 && (side == NS_TP_CLIENT ? s->dir != f->server : s->dir == f->server);
    if (!in_other_span(tp, side, s->ts[side])) o->frames_outside_span += n;
    else if (tp->r.offset_known && sender_here) {
        o->frames_lost_between += n;
        f->lost[side] += n;
        int64_t t_c = side == NS_TP_CLIENT ? s->ts[side] : to_client(tp, s->ts[side]);
        for (uint64_t k = 0; k < n; k++) note_loss(tp, s->flow, t_c);
    } else {
        o->frames_unexplained += n;
    }
}

static void frames_compare(struct ns_two_point *tp)
{
    for (size_t i = 0; i < tp->segs.n; i++) {
        const struct tp_seg *s = tp_table_at(&tp->segs, i);
        if (s->count[0] > s->count[1]) frames_alone(tp, s, NS_TP_CLIENT, s->count[0] - s->count[1]);
        else if (s->count[1] > s->count[0]) frames_alone(tp, s, NS_TP_SERVER, s->count[1] - s->count[0]);
    }
    tp->r.lost_to_server = tp->r.only_client.frames_lost_between;
    tp->r.lost_to_client = tp->r.only_server.frames_lost_between;
}

static int by_loss(const void *x, const void *y)
{
    const struct tp_loss *a = x, *b = y;
    if (a->flow != b->flow) return a->flow < b->flow ? -1 : 1;
    return a->t_c < b->t_c ? -1 : a->t_c > b->t_c;
}

/* A client transaction was delayed by a loss on its connection while it
 * was outstanding (its bytes, or those before them, waited for the
 * retransmission). */
static void delayed(struct ns_two_point *tp)
{
    if (!tp->nloss) return;
    qsort(tp->loss, tp->nloss, sizeof *tp->loss, by_loss);
    for (size_t i = 0; i < tp->ncli; i++) {
        const struct tp_cli_txn *c = &tp->cli[i];
        size_t l = 0, h = tp->nloss; /* first loss >= (flow, call_c) */
        while (l < h) {
            size_t m = l + (h - l) / 2;
            const struct tp_loss *x = &tp->loss[m];
            if (x->flow < c->flow || (x->flow == c->flow && x->t_c < c->call_c)) l = m + 1;
            else h = m;
        }
        if (l < tp->nloss && tp->loss[l].flow == c->flow && (!c->reply_c || tp->loss[l].t_c <= c->reply_c))
            tp->r.delayed_calls++;
    }
}

/* ---- rows ---- */

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

/* Nearest rank: the ceil(p n)-th smallest. */
static void lat_of(int64_t *v, size_t n, struct ns_tp_latency *l)
{
    l->count = n;
    if (!n) return;
    qsort(v, n, sizeof *v, cmp_i64);
    size_t r50 = (n + 1) / 2, r99 = (99 * n + 99) / 100; /* ceil(0.5 n), ceil(0.99 n) */
    l->p50_ns = v[r50 - 1];
    l->p99_ns = v[r99 - 1];
}

typedef bool (*same_fn)(const struct ns_two_point *tp, const struct tp_cli_txn *a, const struct tp_cli_txn *b);

/* One row from the matched transactions m[0..n) (one group). */
static void row_of(struct tp_cli_txn *const *m, size_t n, int64_t *buf, struct ns_tp_row *row)
{
    row->count = n;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) if (m[i]->has_split) buf[k++] = m[i]->client_ns;
    lat_of(buf, k, &row->client_lat);
    k = 0;
    for (size_t i = 0; i < n; i++) if (m[i]->has_split) buf[k++] = m[i]->server_ns;
    lat_of(buf, k, &row->server_lat);
    k = 0;
    for (size_t i = 0; i < n; i++) if (m[i]->has_split) buf[k++] = m[i]->client_ns - m[i]->server_ns;
    lat_of(buf, k, &row->network_lat);
}

typedef int (*key_cmp_fn)(const struct ns_two_point *, const struct tp_cli_txn *, const struct tp_cli_txn *);

/* By key, then call time (a total order: the same output every run);
 * a merge sort, as qsort takes no context. */
static int by_key(const struct ns_two_point *tp, key_cmp_fn cmp, const struct tp_cli_txn *a,
                  const struct tp_cli_txn *b)
{
    int c = cmp(tp, a, b);
    if (c) return c;
    return a->call_c < b->call_c ? -1 : a->call_c > b->call_c;
}

static void msort(const struct ns_two_point *tp, key_cmp_fn cmp, struct tp_cli_txn **m, struct tp_cli_txn **tmp,
                  size_t n)
{
    if (n < 2) return;
    size_t h = n / 2;
    msort(tp, cmp, m, tmp, h);
    msort(tp, cmp, m + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = by_key(tp, cmp, m[j], m[i]) < 0 ? m[j++] : m[i++];
    while (i < h) tmp[k++] = m[i++];
    while (j < n) tmp[k++] = m[j++];
    memcpy(m, tmp, n * sizeof *m);
}

static const char *op_name(const struct tp_cli_txn *a)
{
    if (a->op_key != UINT32_MAX) return ns_op_key_name(a->op_key);
    const char *p = ns_rpc_proc_name(a->prog, a->vers, a->proc);
    return p ? p : "";
}

#define CMP(x, y) do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)

/* NFS operations first, by name then key; then other programs' procedures. */
static int op_cmp(const struct ns_two_point *tp, const struct tp_cli_txn *a, const struct tp_cli_txn *b)
{
    (void)tp;
    CMP(a->op_key == UINT32_MAX, b->op_key == UINT32_MAX);
    if (a->op_key == UINT32_MAX) CMP(a->prog, b->prog);
    int c = strcmp(op_name(a), op_name(b));
    if (c) return c;
    CMP(a->op_key, b->op_key);
    CMP(a->vers, b->vers);
    CMP(a->proc, b->proc);
    return 0;
}

static int ep_order(const struct ns_endpoint *x, const struct ns_endpoint *y, bool port)
{
    if (x->addr.family != y->addr.family) return x->addr.family < y->addr.family ? -1 : 1;
    int c = memcmp(x->addr.a, y->addr.a, x->addr.family == 6 ? 16 : 4);
    if (c || !port) return c;
    return (x->port > y->port) - (x->port < y->port);
}

static void ends(const struct ns_two_point *tp, uint32_t flow, struct ns_endpoint *cli, struct ns_endpoint *srv)
{
    const struct tp_flow *f = tp_table_at(&tp->flows, flow);
    *cli = f->server == 0 ? f->b : f->a;
    *srv = f->server == 0 ? f->a : f->b;
}

static int conn_cmp(const struct ns_two_point *tp, const struct tp_cli_txn *a, const struct tp_cli_txn *b)
{
    struct ns_endpoint ca, sa, cb, sb;
    ends(tp, a->flow, &ca, &sa);
    ends(tp, b->flow, &cb, &sb);
    int c = ep_order(&ca, &cb, true);
    return c ? c : ep_order(&sa, &sb, true);
}

static int client_cmp(const struct ns_two_point *tp, const struct tp_cli_txn *a, const struct tp_cli_txn *b)
{
    struct ns_endpoint ca, sa, cb, sb;
    ends(tp, a->flow, &ca, &sa);
    ends(tp, b->flow, &cb, &sb);
    return ep_order(&ca, &cb, false);
}

enum row_kind { ROW_OP, ROW_CONN, ROW_CLIENT };

static size_t rows(struct ns_two_point *tp, enum row_kind kind, struct ns_tp_row **out)
{
    size_t n = 0;
    for (size_t i = 0; i < tp->ncli; i++) n += tp->cli[i].matched && tp->cli[i].flow != UINT32_MAX;
    *out = NULL;
    if (!n) return 0;
    struct tp_cli_txn **m = malloc(n * sizeof *m), **tmp = malloc(n * sizeof *tmp);
    int64_t *buf = malloc(n * sizeof *buf);
    struct ns_tp_row *r = calloc(n, sizeof *r);
    if (!m || !tmp || !buf || !r) { free(m); free(tmp); free(buf); free(r); return 0; }
    n = 0;
    for (size_t i = 0; i < tp->ncli; i++)
        if (tp->cli[i].matched && tp->cli[i].flow != UINT32_MAX) m[n++] = &tp->cli[i];
    key_cmp_fn cmp = kind == ROW_OP ? op_cmp : kind == ROW_CONN ? conn_cmp : client_cmp;
    msort(tp, cmp, m, tmp, n);
    size_t nr = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && !cmp(tp, m[i], m[j])) j++;
        struct ns_tp_row *row = &r[nr++];
        row_of(m + i, j - i, buf, row);
        row->op_key = kind == ROW_OP ? m[i]->op_key : UINT32_MAX;
        if (kind == ROW_OP) {
            row->prog = m[i]->prog;
            row->vers = m[i]->vers;
            row->proc = m[i]->proc;
        }
        if (kind != ROW_OP) {
            ends(tp, m[i]->flow, &row->client, &row->server);
            if (kind == ROW_CLIENT) row->server = (struct ns_endpoint){0};
        }
        i = j;
    }
    free(m);
    free(tmp);
    free(buf);
    *out = r;
    return nr;
}

/* Frames lost between the points, per connection and per client. */
static void row_losses(struct ns_two_point *tp)
{
    for (size_t i = 0; i < tp->flows.n; i++) {
        const struct tp_flow *f = tp_table_at(&tp->flows, i);
        if (f->server < 0 || (!f->lost[0] && !f->lost[1])) continue;
        struct ns_endpoint cli, srv;
        ends(tp, (uint32_t)i, &cli, &srv);
        for (size_t k = 0; k < tp->r.nconns; k++)
            if (!ep_order(&tp->conns[k].client, &cli, true) && !ep_order(&tp->conns[k].server, &srv, true)) {
                tp->conns[k].lost_to_server += f->lost[NS_TP_CLIENT];
                tp->conns[k].lost_to_client += f->lost[NS_TP_SERVER];
            }
        for (size_t k = 0; k < tp->r.nclients; k++)
            if (!ep_order(&tp->clients[k].client, &cli, false)) {
                tp->clients[k].lost_to_server += f->lost[NS_TP_CLIENT];
                tp->clients[k].lost_to_client += f->lost[NS_TP_SERVER];
            }
    }
}

/* ---- findings ---- */

static void dur(char *b, size_t n, int64_t ns)
{
    double v = (double)ns;
    if (llabs(ns) >= 1000000000) snprintf(b, n, "%.2f s", v / 1e9);
    else if (llabs(ns) >= 1000000) snprintf(b, n, "%.2f ms", v / 1e6);
    else snprintf(b, n, "%.0f us", v / 1e3);
}

static struct ns_tp_finding *finding(struct ns_two_point *tp, const char *kind, uint8_t sev, const struct ns_tp_row *op)
{
    if (!tp_grow(&tp->mem, (void **)&tp->findings, sizeof *tp->findings, tp->r.nfindings, &tp->findings_cap))
        return NULL;
    struct ns_tp_finding *f = &tp->findings[tp->r.nfindings++];
    memset(f, 0, sizeof *f);
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    f->severity = sev;
    f->op_key = op ? op->op_key : UINT32_MAX;
    if (op) {
        f->prog = op->prog;
        f->vers = op->vers;
        f->proc = op->proc;
    }
    return f;
}

static uint64_t sent_toward(const struct ns_two_point *tp, int side)
{
    uint64_t n = 0;
    for (size_t i = 0; i < tp->segs.n; i++) {
        const struct tp_seg *s = tp_table_at(&tp->segs, i);
        const struct tp_flow *f = tp_table_at(&tp->flows, s->flow);
        if (f->server < 0) continue;
        bool from_client = s->dir != f->server;
        if (from_client == (side == NS_TP_CLIENT)) n += s->count[side];
    }
    return n;
}

static void findings(struct ns_two_point *tp)
{
    const struct ns_tp_result *r = &tp->r;
    char a[32], b[32], c[32];
    struct ns_tp_finding *f;
    if (r->clock_jump && (f = finding(tp, "TWO_POINT_CLOCK_JUMP", NS_SEV_WARNING, NULL))) {
        snprintf(f->message, sizeof f->message,
                 "No clock offset line fits the %llu matched transactions: one capture's clock jumped (the first "
                 "that does not fit with those before it was called %.6f s into the client capture). Each "
                 "transaction's server and network time are still right (each is read on one clock); the offset "
                 "and what lies outside the other capture's span are not known.",
                 (unsigned long long)r->matched_calls, (double)(r->jump_at_ns - r->client_first_ns) / 1e9);
    }
    for (int side = 0; side < 2; side++) {
        uint64_t lost = side == NS_TP_CLIENT ? r->lost_to_server : r->lost_to_client;
        if (!lost || !(f = finding(tp, "TWO_POINT_LOSS", NS_SEV_WARNING, NULL))) continue;
        uint64_t sent = sent_toward(tp, side);
        snprintf(f->message, sizeof f->message,
                 "%llu of %llu frames the %s sent to the %s were lost between the two capture points (seen leaving "
                 "the %s capture, never in the %s capture); %llu transactions were outstanding on their "
                 "connections when they were lost and waited for TCP to retransmit.",
                 (unsigned long long)lost, (unsigned long long)sent, side ? "server" : "client",
                 side ? "client" : "server", side ? "server" : "client", side ? "client" : "server",
                 (unsigned long long)r->delayed_calls);
    }
    for (size_t i = 0; i < r->nops; i++) {
        const struct ns_tp_row *o = &tp->ops[i];
        const struct ns_tp_latency *cl = &o->client_lat;
        if (cl->count < MIN_SPLIT || cl->p50_ns < MIN_CLIENT_NS) continue;
        dur(a, sizeof a, cl->p50_ns);
        dur(b, sizeof b, o->network_lat.p50_ns);
        dur(c, sizeof c, o->server_lat.p50_ns);
        char op[96];
        if (o->op_key != UINT32_MAX) snprintf(op, sizeof op, "%s (NFSv%d)", ns_op_key_name(o->op_key),
                                              o->op_key >= 2000 && o->op_key < 3000 ? 3 : 4);
        else snprintf(op, sizeof op, "%s %s", ns_rpc_prog_name(o->prog),
                      ns_rpc_proc_name(o->prog, o->vers, o->proc) ? ns_rpc_proc_name(o->prog, o->vers, o->proc) : "?");
        if ((double)o->network_lat.p50_ns >= NETWORK_SHARE * (double)cl->p50_ns &&
            (f = finding(tp, "TWO_POINT_NETWORK_TIME", NS_SEV_WARNING, o)))
            snprintf(f->message, sizeof f->message,
                     "%s: of the %s the client waits (median of %llu), %s is spent between the two capture points "
                     "and %s in the server: look at the network path, not the server.",
                     op, a, (unsigned long long)cl->count, b, c);
        else if ((double)o->server_lat.p50_ns >= SERVER_SHARE * (double)cl->p50_ns &&
                 (f = finding(tp, "TWO_POINT_SERVER_TIME", NS_SEV_INFO, o)))
            snprintf(f->message, sizeof f->message,
                     "%s: of the %s the client waits (median of %llu), the server takes %s and the network %s: "
                     "the server is slow, the network is fine.",
                     op, a, (unsigned long long)cl->count, c, b);
    }
}

static int by_finding(const void *x, const void *y)
{
    const struct ns_tp_finding *a = x, *b = y;
    if (a->severity != b->severity) return a->severity > b->severity ? -1 : 1;
    int c = strcmp(a->kind, b->kind);
    if (c) return c;
    if (a->op_key != b->op_key) return a->op_key < b->op_key ? -1 : 1;
    if (a->prog != b->prog) return a->prog < b->prog ? -1 : 1;
    return strcmp(a->message, b->message);
}

void tp_figures(struct ns_two_point *tp)
{
    struct ns_tp_result *r = &tp->r;
    r->client_first_ns = tp->first[NS_TP_CLIENT];
    r->client_last_ns = tp->last[NS_TP_CLIENT];
    r->server_first_ns = tp->first[NS_TP_SERVER];
    r->server_last_ns = tp->last[NS_TP_SERVER];
    r->client_calls = tp->calls[NS_TP_CLIENT];
    r->server_calls = tp->calls[NS_TP_SERVER];
    offset_line(tp);
    edge_of(tp);
    calls_alone(tp);
    frames_compare(tp);
    delayed(tp);
    r->nops = rows(tp, ROW_OP, &tp->ops);
    r->nconns = rows(tp, ROW_CONN, &tp->conns);
    r->nclients = rows(tp, ROW_CLIENT, &tp->clients);
    row_losses(tp);
    findings(tp);
    if (r->nfindings) qsort(tp->findings, r->nfindings, sizeof *tp->findings, by_finding);
    r->ops = tp->ops;
    r->conns = tp->conns;
    r->clients = tp->clients;
    r->findings = tp->findings;
    r->memory_peak = tp->mem.peak;
}
