/* The page's charts over time and per session (html_int.h). Figures from
 * the public views and the display model; shapes over time from the series. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html_int.h"
#include "html_units.h"
#include "nfsscope/view.h"

#define STORM_COLOR "#d62728"

double page_x(const struct page *p, int64_t ts) { return (double)(ts - p->first_ns) / 1e9; }
double page_bucket_x(const struct page *p, unsigned i) { return page_x(p, p->s->t0 + (int64_t)i * p->s->width); }
double page_bucket_w(const struct page *p) { return (double)p->s->width / 1e9; }
void page_interval(const struct page *p, char *buf, size_t n) { html_fmt_duration(buf, n, p->s->width); }

static bool ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

static bool storm_like(const char *kind) { return ends_with(kind, "_STORM") || strcmp(kind, "GRACE_STUCK") == 0; }

void html_finding_chart(const struct page *p, const struct ns_finding *fd, char *buf, size_t n)
{
    if (storm_like(fd->kind)) { snprintf(buf, n, "errors"); return; }
    if (fd->has_session)
        for (unsigned i = 0; i < p->s->nsess; i++)
            if (memcmp(p->s->sess[i].id, fd->sessionid, NS_SESSIONID_LEN) == 0) {
                char hex[2 * NS_SESSIONID_LEN + 1];
                ns_hex_str(fd->sessionid, NS_SESSIONID_LEN, hex, sizeof hex);
                snprintf(buf, n, "session-%s", hex);
                return;
            }
    for (unsigned k = 0; k < fd->nconns; k++) {
        const struct ns_conn *c = ns_analyzer_conn(p->a, fd->conns[k]);
        if (!c || c->transport != NS_TRANSPORT_UDP) continue;
        size_t np = ns_analyzer_udp_pair_count(p->a);
        for (size_t i = 0; i < np && i < SERIES_PAIRS; i++) {
            const struct ns_udp_pair *u = ns_analyzer_udp_pair(p->a, i);
            if (memcmp(&u->client, &c->client.addr, sizeof u->client) == 0 &&
                memcmp(&u->server, &c->server, sizeof u->server) == 0) {
                snprintf(buf, n, "udp-%zu", i);
                return;
            }
        }
    }
    snprintf(buf, n, "findings-timeline");
}

/* Each finding's time span as a band (storms) or a mark; c NULL: only
 * counts them. */
static size_t finding_bands(struct chart *c, const struct page *p, const uint8_t *session, bool storms_only)
{
    const struct ns_finding *const *all;
    size_t n = page_findings(p, &all, NULL), shown = 0; /* those the page lists */
    for (size_t i = 0; i < n && shown < 8; i++) {
        const struct ns_finding *fd = all[i];
        if (storms_only && !storm_like(fd->kind)) continue;
        if (session && !(fd->has_session && memcmp(fd->sessionid, session, NS_SESSIONID_LEN) == 0)) continue;
        shown++;
        if (!c) continue;
        char label[NS_FINDING_KIND_MAX + 16];
        snprintf(label, sizeof label, "%s #%" PRIu32, fd->kind, fd->id);
        chart_band(c, page_x(p, fd->first_ts_ns), page_x(p, fd->last_ts_ns),
                   storm_like(fd->kind) ? STORM_COLOR : "#ff7f0e", label);
    }
    return shown;
}

void chart_session_slots(struct page *p, const struct ns_session_view *v, const struct series_session *ss)
{
    const struct series *s = p->s;
    char hex[2 * NS_SESSIONID_LEN + 1], id[64], title[160];
    ns_hex_str(ss->id, NS_SESSIONID_LEN, hex, sizeof hex);
    snprintf(id, sizeof id, "session-%s", hex);
    snprintf(title, sizeof title, "Session %s: requests outstanding against the slots granted", hex);
    unsigned n = s->nbuckets;
    double *x = calloc(n + 1, sizeof *x), *out = calloc(n + 1, sizeof *out), *gr = calloc(n + 1, sizeof *gr);
    if (!x || !out || !gr) { free(x); free(out); free(gr); return; }
    double o = 0, g = -1, ymax = 1;
    for (unsigned i = 0; i < n; i++) {
        const struct series_sess_pt *pt = &ss->pt[i];
        if (pt->calls || pt->out_max || pt->granted) o = pt->out_max;
        if (pt->granted) g = pt->granted;
        x[i] = page_bucket_x(p, i);
        out[i] = o;
        gr[i] = g;
        if (o > ymax) ymax = o;
        if (g > ymax) ymax = g;
    }
    x[n] = page_bucket_x(p, n);
    out[n] = out[n ? n - 1 : 0];
    gr[n] = gr[n ? n - 1 : 0];
    uint32_t requested = v && v->has_requested ? v->fore_requested.maxrequests : 0;
    if (requested > ymax) ymax = requested;
    if (v)
        for (uint32_t i = 0; i < v->nhistory; i++)
            if (v->history[i].target_highest_slotid + 1.0 > ymax) ymax = v->history[i].target_highest_slotid + 1.0;
    struct chart c;
    chart_begin(&c, p->f, id, title, 0);
    c.yint = true;
    double top = ymax * 1.1; /* room above the lines for the findings' labels */
    if (finding_bands(NULL, p, ss->id, false)) top = ymax * chart_band_headroom(&c);
    chart_axes(&c, 0, p->span_s, 0, top, false, "time since the capture start (s)", "requests / slots");
    finding_bands(&c, p, ss->id, false);
    chart_line(&c, x, out, (int)n + 1, svg_color(0), false, true, "series outstanding");
    chart_legend(&c, svg_color(0), "outstanding (max per interval)", false);
    chart_line(&c, x, gr, (int)n + 1, svg_color(2), false, true, "series granted");
    if (gr[n] > 0) chart_legend(&c, svg_color(2), "granted slots", false); /* no reply seen: no line */
    if (v && v->nhistory) {
        double hx[NS_SLOT_HISTORY + 1], hy[NS_SLOT_HISTORY + 1];
        for (uint32_t i = 0; i < v->nhistory; i++) {
            hx[i] = page_x(p, v->history[i].ts_ns);
            hy[i] = v->history[i].target_highest_slotid + 1.0;
        }
        hx[v->nhistory] = p->span_s;
        hy[v->nhistory] = hy[v->nhistory - 1];
        chart_line(&c, hx, hy, (int)v->nhistory + 1, svg_color(3), true, true, "series target");
        chart_legend(&c, svg_color(3), "target_highest_slotid + 1", true);
    }
    if (requested) {
        double rx[2] = {0, p->span_s}, ry[2] = {requested, requested};
        chart_line(&c, rx, ry, 2, svg_color(4), true, false, "series requested");
        chart_legend(&c, svg_color(4), "slots requested", true);
    }
    char cap[320] = "";
    if (v)
        snprintf(cap, sizeof cap,
                 "Asked for %" PRIu32 " slots, granted %" PRIu32 " now; at most %" PRIu32
                 " requests outstanding; every granted slot busy %.1f%% of the session's time (%" PRIu64 " calls).",
                 requested, v->granted_slots, v->max_outstanding, 100.0 * v->saturated_fraction, v->saturated_calls);
    chart_end(&c, v ? cap : "The session was evicted from the analyzer's tables (memory cap).");
    free(x); free(out); free(gr);
}

void chart_session_conns(struct page *p, const struct ns_session_view *v)
{
    if (!v->nconns) return;
    char hex[2 * NS_SESSIONID_LEN + 1], id[64], title[160];
    ns_hex_str(v->sessionid, NS_SESSIONID_LEN, hex, sizeof hex);
    snprintf(id, sizeof id, "conns-%s", hex);
    snprintf(title, sizeof title, "Session %s: share of calls and bytes per connection", hex);
    uint32_t n = v->nconns < NS_SESSION_CONNS ? v->nconns : NS_SESSION_CONNS;
    struct ns_session_conn_totals tot;
    ns_session_conn_totals(v, &tot);
    if (!tot.calls && !tot.bytes) {
        snprintf(title, sizeof title, "Session %s: no calls or bytes on its connections in this capture.", hex);
        chart_none(p->f, id, title);
        return;
    }
    struct chart c;
    chart_begin(&c, p->f, id, title, SVG_TOP + SVG_BOTTOM + 40 * (int)(n < 2 ? 2 : n));
    c.ycat = true;
    chart_axes(&c, 0, 100, 0, n, false, "share of the session's calls and bytes (%)", "connection");
    for (uint32_t i = 0; i < n; i++) {
        const struct ns_session_conn *sc = &v->conns[i];
        char name[NS_CONN_NAME_LEN], tip[200];
        ns_conn_name(sc->conn_id, name, sizeof name);
        double pc = ns_percent((double)sc->calls, (double)tot.calls), pb = ns_percent((double)sc->bytes, (double)tot.bytes);
        double top = n - i - 0.15;
        snprintf(tip, sizeof tip, "%s: %.1f%% of calls (%" PRIu64 "), %s", name, pc, sc->calls, ns_bind_method_phrase(sc->method));
        chart_rect(&c, 0, pc, top - 0.35, top, svg_color(0), tip);
        snprintf(tip, sizeof tip, "%s: %.1f%% of bytes (%" PRIu64 ")", name, pb, sc->bytes);
        chart_rect(&c, 0, pb, top - 0.7, top - 0.35, svg_color(1), tip);
        fprintf(p->f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", SVG_LEFT - 4,
                chart_y(&c, top - 0.35) + 4, name);
        double wide = pc > pb ? pc : pb; /* the text inside long bars, after short ones */
        fprintf(p->f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\"%s>%.1f%% calls, %.1f%% bytes, %s</text>\n",
                wide > 55 ? chart_x(&c, 0) + 6 : chart_x(&c, wide) + 4, chart_y(&c, top - 0.35) + 4,
                wide > 55 ? " style=\"fill:#fff\"" : "", pc, pb, ns_bind_method_phrase(sc->method));
    }
    chart_legend(&c, svg_color(0), "calls", false);
    chart_legend(&c, svg_color(1), "bytes (call + reply)", false);
    char cap[200];
    snprintf(cap, sizeof cap, "%" PRIu64 " calls and %" PRIu64 " bytes over %" PRIu32 " connection(s)%s.", tot.calls,
             tot.bytes, v->nconns, v->nconnect ? "; nconnect: several connections between one client and server address" : "");
    chart_end(&c, cap);
}

/* Status colours leave out red, the storms' colour. */
static const char *status_color(unsigned k) { return svg_color(k ? k + 1 : 0); }

void chart_errors(struct page *p)
{
    const struct series *s = p->s;
    unsigned n = s->nbuckets, ns = s->nstatus + (s->status_total[SERIES_STATUSES] ? 1 : 0);
    double ymax = 1;
    for (unsigned i = 0; i < n; i++) {
        double t = 0;
        for (unsigned k = 0; k <= SERIES_STATUSES; k++) t += s->errors[i][k];
        if (t > ymax) ymax = t;
    }
    if (!ns && !finding_bands(NULL, p, NULL, true)) {
        chart_none(p->f, "errors", ns_analyzer_stats(p->a)->rpc_replies
                                       ? "No error replies in this capture: every reply's RPC status is SUCCESS and its NFS status OK."
                                       : "No error replies in this capture: no reply at all.");
        return;
    }
    struct chart c;
    char ylabel[80], w[32];
    page_interval(p, w, sizeof w);
    snprintf(ylabel, sizeof ylabel, "error replies per %s", w);
    chart_begin(&c, p->f, "errors", "Error replies over time, by status (storms shaded)", 0);
    c.yint = true;
    double top = ymax * 1.1; /* room above the bars for the storms' labels */
    if (finding_bands(NULL, p, NULL, true)) top = ymax * chart_band_headroom(&c);
    chart_axes(&c, 0, p->span_s, 0, top, false, "time since the capture start (s)", ylabel);
    size_t storms = finding_bands(&c, p, NULL, true);
    for (unsigned i = 0; i < n; i++) {
        double y = 0, x0 = page_bucket_x(p, i), x1 = x0 + page_bucket_w(p);
        for (unsigned k = 0; k <= SERIES_STATUSES; k++) {
            if (!s->errors[i][k]) continue;
            char tip[120];
            snprintf(tip, sizeof tip, "%s: %" PRIu32 " at %.3f s", k < SERIES_STATUSES ? s->status_name[k] : "other",
                     s->errors[i][k], x0);
            chart_rect(&c, x0, x1, y, y + s->errors[i][k], status_color(k), tip);
            y += s->errors[i][k];
        }
    }
    for (unsigned k = 0; k < ns; k++) {
        char label[96];
        snprintf(label, sizeof label, "%s (%" PRIu64 ")", k < s->nstatus ? s->status_name[k] : "other",
                 s->status_total[k < s->nstatus ? k : SERIES_STATUSES]);
        chart_legend(&c, status_color(k < s->nstatus ? k : SERIES_STATUSES), label, false);
    }
    if (storms) chart_legend(&c, STORM_COLOR, "storm / GRACE_STUCK span", false); /* only what is drawn */
    chart_end(&c, ns ? "Replies whose NFS status is not OK (or whose RPC status is not SUCCESS)."
                     : "No error replies in this capture; the shaded spans are the findings'.");
}

void chart_findings_timeline(struct page *p)
{
    const struct ns_finding *const *all;
    size_t left, n = page_findings(p, &all, &left);
    if (n > HTML_TIMELINE) n = HTML_TIMELINE;
    if (!n) {
        chart_none(p->f, "findings-timeline",
                   left ? "No findings of the minimum severity (--min-severity) or worse in this capture."
                        : "No findings in this capture.");
        return;
    }
    struct chart c;
    chart_begin(&c, p->f, "findings-timeline", "Findings over time (first to last occurrence)",
                SVG_TOP + SVG_BOTTOM + 20 * (int)n + 10);
    c.ycat = true;
    chart_axes(&c, 0, p->span_s, 0, (double)n, false, "time since the capture start (s)", "finding");
    for (size_t i = 0; i < n; i++) {
        const struct ns_finding *fd = all[i];
        double top = (double)(n - i) - 0.2;
        char tip[NS_FINDING_MSG_MAX + 64];
        snprintf(tip, sizeof tip, "%s #%" PRIu32 ": %s", fd->kind, fd->id, fd->message);
        const char *col = fd->severity >= NS_SEV_CRITICAL ? STORM_COLOR : fd->severity == NS_SEV_ERROR ? "#ff7f0e"
                          : fd->severity == NS_SEV_WARNING ? "#bcbd22" : "#7f7f7f";
        double x0 = page_x(p, fd->first_ts_ns), x1 = page_x(p, fd->last_ts_ns);
        if (chart_x(&c, x1) - chart_x(&c, x0) < 4) x1 = x0 + 4 * (c.x1 - c.x0) / (SVG_W - SVG_LEFT - SVG_RIGHT);
        fprintf(p->f, "<a href=\"#finding-%" PRIu32 "\">", fd->id);
        chart_rect(&c, x0, x1, top - 0.6, top, col, tip);
        fprintf(p->f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\">", SVG_W - SVG_RIGHT + 6, chart_y(&c, top - 0.3) + 4);
        html_text(p->f, fd->kind);
        fprintf(p->f, " #%" PRIu32 "</text></a>\n", fd->id);
    }
    chart_end(&c, "Each bar spans a finding's first to last occurrence; colour by severity; click for the finding.");
}

/* Operations charted: the most replies first (then by key). */
static size_t lat_ops(const struct series *s, const struct series_op **out)
{
    size_t n = 0;
    for (unsigned i = 0; i < s->nops; i++) out[n++] = &s->ops[i];
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && (out[j]->replies > out[j - 1]->replies ||
                                     (out[j]->replies == out[j - 1]->replies && out[j]->key < out[j - 1]->key)); j--) {
            const struct series_op *t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n < HTML_LAT_OPS ? n : HTML_LAT_OPS;
}

/* p50 and p99 of operation k per interval (-1: no reply), in ms; the open
 * first and last bins at the least and largest latency they hold. */
static void lat_points(const struct page *p, const struct series_op *op, double *x, double *y50, double *y99)
{
    for (unsigned i = 0; i < p->s->nbuckets; i++) {
        x[i] = page_bucket_x(p, i) + page_bucket_w(p) / 2;
        double q = series_lat_quantile_ns(op->hist[i], op->edge[i], 0.5), r = series_lat_quantile_ns(op->hist[i], op->edge[i], 0.99);
        y50[i] = q >= 0 ? q / 1e6 : -1; /* 0: a reply in its call's microsecond, below the log axis */
        y99[i] = r >= 0 ? r / 1e6 : -1;
    }
}

void chart_latency(struct page *p)
{
    const struct series *s = p->s;
    const struct series_op *ops[SERIES_OPS];
    size_t nops = lat_ops(s, ops);
    if (!nops) { /* the histogram after it is left out too */
        chart_none(p->f, "latency", "No NFS call in this capture was answered: no latency to chart.");
        return;
    }
    unsigned n = s->nbuckets;
    double *x = calloc(n + 1, sizeof *x), *y50 = calloc((nops + 1) * (n + 1), sizeof *y50),
           *y99 = calloc((nops + 1) * (n + 1), sizeof *y99);
    if (!x || !y50 || !y99) { free(x); free(y50); free(y99); return; }
    double lo = 1e30, hi = 0;
    for (size_t k = 0; k < nops; k++) {
        double *a = y50 + k * n, *b = y99 + k * n;
        lat_points(p, ops[k], x, a, b);
        for (unsigned i = 0; i < n; i++) {
            if (a[i] > 0 && a[i] < lo) lo = a[i];
            if (b[i] > hi) hi = b[i];
        }
    }
    struct chart c;
    char xl[96], w[32];
    page_interval(p, w, sizeof w);
    snprintf(xl, sizeof xl, "time since the capture start (s); one point per %s", w);
    chart_begin(&c, p->f, "latency", "Latency over time by operation: p50 (solid) and p99 (dashed)", 0);
    c.yunit = "ms";
    chart_axes(&c, 0, p->span_s, hi > 0 ? lo : 0.01, hi > 0 ? hi : 1, true, xl, "latency (ms, log scale)");
    for (size_t k = 0; k < nops; k++) {
        const double *a = y50 + k * n, *b = y99 + k * n;
        const char *col = svg_color(k);
        /* Each line narrower than the one before: operations with the same
         * latencies (GETATTR, ACCESS, LOOKUP of one server) show as stripes
         * of a wider line instead of hiding under the last one drawn. */
        c.line_w = 2 + 1.5 * (double)(nops - 1 - k);
        chart_line(&c, x, a, (int)n, col, false, false, "series p50");
        chart_line(&c, x, b, (int)n, col, true, false, "series p99");
        for (unsigned i = 0; i < n; i++) { /* lone points show too: p50 a dot, p99 a ring */
            if (a[i] > 0 && (i == 0 || a[i - 1] < 0) && (i + 1 == n || a[i + 1] < 0)) chart_dot(&c, x[i], a[i], col, NULL);
            if (b[i] > 0 && (i == 0 || b[i - 1] < 0) && (i + 1 == n || b[i + 1] < 0)) chart_ring(&c, x[i], b[i], col);
        }
        char label[96];
        int len = snprintf(label, sizeof label, "%s (%" PRIu64 ")", ns_op_key_name(ops[k]->key), ops[k]->replies);
        for (size_t j = 0; j < k; j++) /* say so, or a reader looks for a line of its own */
            if (memcmp(a, y50 + j * n, n * sizeof *a) == 0 && memcmp(b, y99 + j * n, n * sizeof *b) == 0) {
                snprintf(label + len, sizeof label - (size_t)len, " = %s", ns_op_key_name(ops[j]->key));
                break;
            }
        chart_legend(&c, col, label, false);
    }
    c.line_w = 0;
    chart_end(&c, "Percentiles per interval from half-octave bins (within about 20%); the operations table gives the exact figures over the capture. An interval alone is a dot (p50) and a ring (p99). Lines drawn later are narrower, so equal ones show as stripes.");
    free(x); free(y50); free(y99);
}

void chart_latency_hist(struct page *p)
{
    const struct series *s = p->s;
    const struct series_op *ops[SERIES_OPS];
    size_t nops = lat_ops(s, ops);
    if (!nops) return; /* chart_latency said why */
    double ymax = 1, lo = 1e30, hi = 0;
    static uint64_t tot[SERIES_OPS][SERIES_LAT_BINS];
    enum { TOP = SERIES_LAT_BINS - 1 };
    int64_t least = -1, most = -1; /* in the open first and last bins, over the capture */
    double top_upper[SERIES_OPS];  /* the last bin drawn up to the largest latency it holds */
    memset(tot, 0, sizeof tot);
    for (size_t k = 0; k < nops; k++) {
        top_upper[k] = series_lat_bin_upper_ns(TOP) / 1e6;
        for (unsigned i = 0; i < s->nbuckets; i++) {
            const struct series_op *o = ops[k];
            for (unsigned b = 0; b < SERIES_LAT_BINS; b++) tot[k][b] += o->hist[i][b];
            if (o->hist[i][0] && (least < 0 || o->edge[i][0] < least)) least = o->edge[i][0];
            if (o->hist[i][TOP] && (most < 0 || o->edge[i][1] > most)) most = o->edge[i][1];
            if (o->hist[i][TOP] && o->edge[i][1] / 1e6 > top_upper[k]) top_upper[k] = (double)o->edge[i][1] / 1e6;
        }
    }
    for (size_t k = 0; k < nops; k++)
        for (unsigned b = 0; b < SERIES_LAT_BINS; b++)
            if (tot[k][b]) {
                if ((double)tot[k][b] > ymax) ymax = (double)tot[k][b];
                double u = b == TOP ? top_upper[k] : series_lat_bin_upper_ns(b) / 1e6;
                if (series_lat_bin_upper_ns(b) / 1e6 / 1.5 < lo) lo = series_lat_bin_upper_ns(b) / 1e6 / 1.5;
                if (u > hi) hi = u;
            }
    struct chart c;
    chart_begin(&c, p->f, "latency-hist", "Latency histogram by operation", 0);
    c.xlog = true;
    c.yint = true;
    chart_axes(&c, hi > 0 ? lo : 0.01, hi > 0 ? hi : 1, 0, ymax * 1.1, false, "latency (ms, log scale; half-octave bins)",
               "replies");
    for (size_t k = 0; k < nops; k++) {
        double x[2 * SERIES_LAT_BINS + 2], y[2 * SERIES_LAT_BINS + 2];
        int m = 0;
        for (unsigned b = 0; b < SERIES_LAT_BINS; b++) {
            if (!tot[k][b]) continue;
            double u = series_lat_bin_upper_ns(b) / 1e6, l = b ? series_lat_bin_upper_ns(b - 1) / 1e6 : u / 1.5;
            if (b == TOP) u = top_upper[k];
            x[m] = l; y[m++] = 0;
            x[m] = l; y[m++] = (double)tot[k][b];
            x[m] = u; y[m++] = (double)tot[k][b];
            x[m] = u; y[m++] = 0;
            if (m > 2 * SERIES_LAT_BINS - 4) break;
        }
        c.line_w = 2 + 1.5 * (double)(nops - 1 - k); /* equal outlines as stripes, as in chart_latency */
        chart_line(&c, x, y, m, svg_color(k), false, false, "series hist");
        chart_legend(&c, svg_color(k), ns_op_key_name(ops[k]->key), false);
    }
    c.line_w = 0;
    char cap[400];
    int len = snprintf(cap, sizeof cap, "Replies per latency bin, each operation's bins outlined in its colour (later ones narrower).");
    if (most >= 0 && len < (int)sizeof cap)
        len += snprintf(cap + len, sizeof cap - (size_t)len, " The last bin holds every reply from %.1f s and is drawn up to the slowest (%.3f s).",
                        series_lat_bin_upper_ns(TOP - 1) / 1e9, (double)most / 1e9);
    if (least >= 0 && least < series_lat_bin_upper_ns(0) / 1.5 && len < (int)sizeof cap)
        snprintf(cap + len, sizeof cap - (size_t)len, " The first bin holds every reply under %.2f \xc2\xb5s, the fastest %.3g \xc2\xb5s%s.",
                 series_lat_bin_upper_ns(0) / 1e3, (double)least / 1e3, least ? "" : " (a reply in its call's microsecond)");
    chart_end(&c, cap);
}

static const char *bytes_unit(double max, double *div)
{
    if (max >= 1 << 30) { *div = 1 << 30; return "GiB"; }
    if (max >= 1 << 20) { *div = 1 << 20; return "MiB"; }
    if (max >= 1 << 10) { *div = 1 << 10; return "KiB"; }
    *div = 1;
    return "bytes";
}

void chart_read_plus(struct page *p)
{
    const struct ns_read_file *const *files;
    size_t n = ns_analyzer_read_files(p->a, &files), shown = 0;
    const struct ns_read_file *f[HTML_FILES];
    double max = 1;
    for (size_t i = 0; i < n && shown < HTML_FILES; i++) {
        if (!files[i]->r.read_plus_replies) continue;
        f[shown++] = files[i];
        double t = (double)(files[i]->r.data_bytes + files[i]->r.hole_bytes);
        if (t > max) max = t;
    }
    if (!shown) return;
    double div;
    const char *unit = bytes_unit(max, &div);
    char xl[64];
    snprintf(xl, sizeof xl, "bytes returned (%s)", unit);
    struct chart c;
    chart_begin(&c, p->f, "read-plus", "READ_PLUS: data and hole bytes per file", SVG_TOP + SVG_BOTTOM + 22 * (int)shown + 10);
    c.ycat = true;
    chart_axes(&c, 0, max / div * 1.05, 0, (double)shown, false, xl, "file handle");
    for (size_t i = 0; i < shown; i++) {
        const struct ns_read_bytes *r = &f[i]->r;
        char fh[20], tip[160];
        ns_hex_str(f[i]->fh.data, f[i]->fh.len, fh, sizeof fh);
        double top = (double)(shown - i) - 0.2, d = (double)r->data_bytes / div, h = (double)r->hole_bytes / div;
        snprintf(tip, sizeof tip, "%s: %" PRIu64 " data bytes in %" PRIu64 " segments", fh, r->data_bytes, r->data_segments);
        chart_rect(&c, 0, d, top - 0.6, top, svg_color(0), tip);
        snprintf(tip, sizeof tip, "%s: %" PRIu64 " hole bytes in %" PRIu64 " segments", fh, r->hole_bytes, r->hole_segments);
        chart_rect(&c, d, d + h, top - 0.6, top, "#aaaaaa", tip);
        /* the handle on its bar (the margin left of the plot holds 10
         * characters, a handle 16 and more): after a short bar, inside a long one */
        double end = d + h, x1 = chart_x(&c, c.x1) - chart_x(&c, 0);
        bool inside = chart_x(&c, end) - chart_x(&c, 0) > 0.6 * x1;
        fprintf(p->f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\"%s>%s</text>\n",
                inside ? chart_x(&c, 0) + 6 : chart_x(&c, end) + 4, chart_y(&c, top - 0.3) + 4,
                inside ? " style=\"fill:#fff\"" : "", fh);
    }
    chart_legend(&c, svg_color(0), "data", false);
    chart_legend(&c, "#aaaaaa", "hole", false);
    char cap[120];
    snprintf(cap, sizeof cap, "%zu file(s) read with READ_PLUS%s.", shown, n > shown ? " (the first ones by handle)" : "");
    chart_end(&c, cap);
}
