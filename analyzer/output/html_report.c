/* The HTML post-mortem page (doc/html-report.md): one self-contained file,
 * no script, font or style from elsewhere; the report's sections in the
 * display model's order, each with its table and charts. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "html_int.h"
#include "latency_units.h"
#include "nfsscope/view.h"

static const char style[] =
    "body{font-family:sans-serif;margin:1.5em auto;max-width:1000px;color:#222}"
    "h1{font-size:1.5em}h2{border-bottom:2px solid #ccc;margin-top:2em}"
    "table{border-collapse:collapse;margin:.5em 0;font-size:.9em}"
    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#eee}"
    "nav a{margin-right:1em}figure{margin:1em 0}figcaption{font-size:.85em;color:#555}"
    "svg{max-width:100%;height:auto;font-size:11px}svg .title{font-size:14px;font-weight:bold}"
    "svg .plot{fill:#fff;stroke:#888}svg .grid{stroke:#e4e4e4}svg .tick{fill:#333}svg .axis{fill:#333;font-size:12px}"
    "svg .bandlabel{font-size:10px}svg .legend text{font-size:10px}"
    ".finding{border-left:6px solid #888;padding:.3em .8em;margin:.8em 0;background:#fafafa}"
    ".sev-critical{border-color:#d62728}.sev-error{border-color:#ff7f0e}.sev-warning{border-color:#bcbd22}"
    ".kind{font-weight:bold;font-family:monospace}code{font-size:.95em}"
    "@media print{nav{display:none}figure{break-inside:avoid}}";

static void td_u(FILE *f, uint64_t v) { fprintf(f, "<td class=\"n\">%" PRIu64 "</td>", v); }
static void td_s(FILE *f, const char *s)
{
    fputs("<td>", f);
    html_text(f, s);
    fputs("</td>", f);
}
static void th_row(FILE *f, const char *const *h)
{
    fputs("<table><tr>", f);
    for (; *h; h++) fprintf(f, "<th>%s</th>", *h);
    fputs("</tr>\n", f);
}
static void kv(FILE *f, const char *k, const char *v)
{
    fprintf(f, "<tr><th>%s</th>", k);
    td_s(f, v);
    fputs("</tr>\n", f);
}
static void kv_u(FILE *f, const char *k, uint64_t v)
{
    fprintf(f, "<tr><th>%s</th>", k);
    td_u(f, v);
    fputs("</tr>\n", f);
}
static void more(FILE *f, size_t n)
{
    if (n > HTML_TABLE_ROWS) fprintf(f, "<p>%zu more rows not shown (see the text or JSON report).</p>\n", n - HTML_TABLE_ROWS);
}

static void sec_capture(struct page *p, const struct out_capture *cap)
{
    FILE *f = p->f;
    const struct ns_stats *st = ns_analyzer_stats(p->a);
    char a[NS_TIME_STRLEN], b[NS_TIME_STRLEN], buf[256];
    fputs("<table>\n", f);
    kv(f, "source", cap->source ? cap->source : "");
    kv(f, "kind", cap->live ? "live capture" : "capture file");
    if (st->frames) {
        ns_time_str(st->first_ts_ns, a, sizeof a);
        ns_time_str(st->last_ts_ns, b, sizeof b);
        snprintf(buf, sizeof buf, "%s .. %s (%.6f s)", a, b, (double)ns_capture_span_ns(st) / 1e9);
        kv(f, "span", buf);
    }
    kv_u(f, "frames", st->frames);
    kv_u(f, "bytes on the wire", st->bytes);
    const char *v[10];
    size_t nv = ns_nfs_versions(st->nfs_versions, v, 10);
    buf[0] = 0;
    for (size_t i = 0; i < nv; i++) snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? " " : "", v[i]);
    kv(f, "NFS versions", nv ? buf : "none");
    if (cap->counters) {
        kv_u(f, "dropped by the kernel", cap->kernel_drops);
        kv_u(f, "dropped by the interface", cap->interface_drops);
    }
    if (cap->partial) kv(f, "PARTIAL", cap->partial);
    fputs("</table>\n", f);
}

static void sec_rpc(struct page *p)
{
    FILE *f = p->f;
    const struct ns_stats *st = ns_analyzer_stats(p->a);
    fputs("<table>\n", f);
    kv_u(f, "calls", st->rpc_calls);
    kv_u(f, "replies", st->rpc_replies);
    kv_u(f, "unmatched calls", st->rpc_unmatched_calls);
    kv_u(f, "orphan replies", st->rpc_orphan_replies);
    kv_u(f, "retransmitted calls", st->rpc_retransmissions);
    kv_u(f, "duplicate replies", st->rpc_dup_replies);
    kv_u(f, "denied", st->rpc_denied);
    kv_u(f, "not SUCCESS", st->rpc_not_success);
    kv_u(f, "backchannel calls", st->rpc_backchannel_calls);
    kv_u(f, "encrypted (krb5p)", st->rpc_gss_privacy);
    fputs("</table>\n", f);
}

static void sec_conns(struct page *p)
{
    FILE *f = p->f;
    size_t n = ns_analyzer_conn_count(p->a);
    static const char *const h[] = {"id", "transport", "client", "server", "calls", "replies", "bytes to server",
                                    "bytes to client", "missing bytes", NULL};
    th_row(f, h);
    size_t kept = 0; /* a closed connection whose record the memory cap dropped is not listed */
    for (uint32_t id = 1; id <= n; id++) {
        const struct ns_conn *c = ns_analyzer_conn(p->a, id);
        if (!c || ++kept > HTML_TABLE_ROWS) continue;
        char cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN], name[NS_CONN_NAME_LEN];
        ns_endpoint_str(&c->client, cl, sizeof cl);
        ns_endpoint_str(&c->server, sv, sizeof sv);
        fprintf(f, "<tr id=\"conn-%" PRIu32 "\">", id);
        td_s(f, ns_conn_name(c->id, name, sizeof name));
        td_s(f, ns_transport_name(c->transport));
        td_s(f, cl);
        td_s(f, sv);
        td_u(f, c->calls);
        td_u(f, c->replies);
        td_u(f, c->bytes_to_server);
        td_u(f, c->bytes_to_client);
        td_u(f, c->missing_bytes);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    more(f, kept);
}

/* Latency cells as the text report prints them: exact mean and max, the
 * histogram's percentiles to three digits, one unit for the table. */
static void td_lat(FILE *f, const struct ns_latency *lat, struct time_unit u)
{
    struct ns_latency_summary l;
    ns_latency_summarize(lat, &l);
    if (!l.count) { fputs("<td>-</td><td>-</td><td>-</td><td>-</td><td>-</td>", f); return; }
    char b[5][32];
    fmt_exact(b[0], sizeof b[0], (double)lat->sum_ns / (double)l.count, u);
    fmt_percentile_within(b[1], sizeof b[1], l.p50_ns, lat->min_ns, lat->max_ns, u);
    fmt_percentile_within(b[2], sizeof b[2], l.p95_ns, lat->min_ns, lat->max_ns, u);
    fmt_percentile_within(b[3], sizeof b[3], l.p99_ns, lat->min_ns, lat->max_ns, u);
    fmt_exact(b[4], sizeof b[4], (double)l.max_ns, u);
    for (int i = 0; i < 5; i++) fprintf(f, "<td class=\"n\">%s</td>", b[i]);
}

static void sec_ops(struct page *p)
{
    FILE *f = p->f;
    static struct ns_op_row rows[NS_OPKEY_MAX];
    size_t n = ns_op_rows(ns_analyzer_stats(p->a), rows, NS_OPKEY_MAX);
    uint64_t max = 0;
    for (size_t i = 0; i < n; i++)
        if (rows[i].s->latency.count && rows[i].s->latency.max_ns > max) max = rows[i].s->latency.max_ns;
    struct time_unit u = time_unit_for(max);
    /* as the text report: the sentence and the in-compounds column follow
     * the versions present (an NFSv3-only capture has no COMPOUND) */
    uint32_t vers = ns_analyzer_stats(p->a)->nfs_versions;
    bool v4 = (vers & ~(NS_VERS_BIT(2, 0) | NS_VERS_BIT(3, 0))) != 0;
    bool older = (vers & (NS_VERS_BIT(2, 0) | NS_VERS_BIT(3, 0))) != 0;
    fprintf(f, "<p>Latency in %s; %s.</p>\n", time_unit_symbol(u),
            !v4 ? "NFSv3 by procedure"
                : older ? "NFSv3 by procedure, NFSv4 by the main operation of the COMPOUND"
                        : "NFSv4 by the main operation of the COMPOUND");
    char mean[16];
    snprintf(mean, sizeof mean, "mean %s", time_unit_symbol(u));
    const char *const h4[] = {"operation", "count", "in compounds", "errors", mean, "p50", "p95", "p99", "max", NULL};
    const char *const h3[] = {"operation", "count", "errors", mean, "p50", "p95", "p99", "max", NULL};
    th_row(f, v4 ? h4 : h3);
    for (size_t i = 0; i < n; i++) {
        fputs("<tr>", f);
        td_s(f, rows[i].name);
        td_u(f, rows[i].s->count);
        if (v4) td_u(f, rows[i].s->in_compounds);
        td_u(f, rows[i].s->errors);
        td_lat(f, &rows[i].s->latency, u);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    chart_latency(p);
    chart_latency_hist(p);
}

static void sec_status(struct page *p)
{
    FILE *f = p->f;
    static struct ns_status_row rows[NS_STATUS_SLOTS];
    size_t n = ns_status_rows(ns_analyzer_stats(p->a), rows, NS_STATUS_SLOTS);
    static const char *const h[] = {"status", "replies", NULL};
    th_row(f, h);
    for (size_t i = 0; i < n; i++) {
        fputs("<tr>", f);
        td_s(f, rows[i].name);
        td_u(f, rows[i].count);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    chart_errors(p);
}

static void sec_clients(struct page *p)
{
    FILE *f = p->f;
    size_t n = ns_analyzer_client_count(p->a);
    static const char *const h[] = {"client ID", "EXCHANGE_ID", "state protection", "sessions", "connection",
                                    "GRACE replies", "RECLAIM_COMPLETE ok / failed", NULL};
    th_row(f, h);
    for (size_t i = 0; i < n && i < HTML_TABLE_ROWS; i++) {
        const struct ns_client_view *c = ns_analyzer_client(p->a, i);
        char buf[64], name[NS_CONN_NAME_LEN];
        snprintf(buf, sizeof buf, "%016" PRIx64, c->clientid);
        fputs("<tr>", f);
        td_s(f, buf);
        td_s(f, c->from_exchange_id ? "captured" : "not captured");
        td_s(f, ns_state_protect_name(c->sp_granted));
        td_u(f, c->sessions);
        td_s(f, ns_conn_name(c->conn_id, name, sizeof name));
        td_u(f, c->grace_replies);
        snprintf(buf, sizeof buf, "%" PRIu64 " / %" PRIu64, c->reclaim_complete_ok, c->reclaim_complete_failed);
        td_s(f, buf);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    more(f, n);
}

static void sec_sessions(struct page *p)
{
    FILE *f = p->f;
    size_t n = ns_analyzer_session_count(p->a);
    static const char *const h[] = {"session", "client ID", "slots asked", "slots granted (now)", "max outstanding",
                                    "saturated", "calls", "errors", "connections", "state", NULL};
    th_row(f, h);
    for (size_t i = 0; i < n && i < HTML_TABLE_ROWS; i++) {
        const struct ns_session_view *v = ns_analyzer_session(p->a, i);
        if (!v) continue;
        char hex[2 * NS_SESSIONID_LEN + 1], buf[64];
        ns_hex_str(v->sessionid, NS_SESSIONID_LEN, hex, sizeof hex);
        fprintf(f, "<tr id=\"sess-%s\"><td><code>%s</code></td>", hex, hex);
        snprintf(buf, sizeof buf, "%016" PRIx64, v->clientid);
        td_s(f, v->has_client ? buf : "-");
        if (v->has_requested) td_u(f, v->fore_requested.maxrequests); else td_s(f, "?");
        td_u(f, v->granted_slots);
        td_u(f, v->max_outstanding);
        snprintf(buf, sizeof buf, "%.1f%% of the time", 100.0 * v->saturated_fraction);
        td_s(f, buf);
        td_u(f, v->calls);
        td_u(f, v->errors);
        fputs("<td>", f);
        for (uint32_t k = 0; k < v->nconns && k < NS_SESSION_CONNS; k++) {
            char name[NS_CONN_NAME_LEN];
            fprintf(f, "%s%s (%s)", k ? ", " : "", ns_conn_name(v->conns[k].conn_id, name, sizeof name),
                    ns_channels_name(v->conns[k].fore, v->conns[k].back));
        }
        fputs("</td>", f);
        const char *state = ns_session_state_phrase(v); /* never created, lost, destroyed */
        td_s(f, state ? state : "-");
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    more(f, n);
    for (unsigned i = 0; i < p->s->nsess; i++) {
        const struct ns_session_view *v = ns_analyzer_session_by_id(p->a, p->s->sess[i].id);
        chart_session_slots(p, v, &p->s->sess[i]);
        if (v) chart_session_conns(p, v);
    }
    if (p->s->sessions_dropped)
        fprintf(f, "<p>Charts for the first %d sessions only.</p>\n", SERIES_SESSIONS);
}

static void ms_td(FILE *f, int64_t ns)
{
    if (ns < 0) fputs("<td>-</td>", f);
    else fprintf(f, "<td class=\"n\">%.3f</td>", (double)ns / 1e6);
}

static void sec_udp(struct page *p)
{
    FILE *f = p->f;
    size_t n = ns_analyzer_udp_pair_count(p->a);
    static const char *const h[] = {"client", "server", "calls", "retransmissions", "major timeouts", "loss rate",
                                    "RTT mean (ms)", "SRTT (ms)", "RTO (ms)", NULL};
    th_row(f, h);
    for (size_t i = 0; i < n && i < HTML_TABLE_ROWS; i++) {
        const struct ns_udp_pair *u = ns_analyzer_udp_pair(p->a, i);
        char cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN], buf[32];
        ns_addr_str(&u->client, cl, sizeof cl);
        ns_endpoint_str(&u->server, sv, sizeof sv);
        for (unsigned t = 0; t < NS_UDP_TIMERS; t++) {
            const struct ns_udp_class *c = &u->cls[t];
            if (!ns_udp_class_used(c)) continue;
            struct ns_udp_class_means m;
            ns_udp_class_means(c, &m);
            fputs("<tr>", f);
            td_s(f, cl);
            snprintf(buf, sizeof buf, "%s", ns_udp_timer_name(t));
            fputs("<td>", f);
            html_text(f, sv);
            fprintf(f, " (%s)</td>", buf);
            td_u(f, c->calls);
            td_u(f, c->retransmissions);
            td_u(f, c->major_timeouts);
            fprintf(f, "<td class=\"n\">%.1f%%</td>", 100.0 * ns_udp_loss_rate(c));
            ms_td(f, m.rtt_mean_ns);
            ms_td(f, t ? c->srtt_ns : -1);
            ms_td(f, c->rto_ns);
            fputs("</tr>\n", f);
        }
    }
    fputs("</table>\n", f);
    more(f, n);
    for (size_t i = 0; i < n && i < SERIES_PAIRS; i++) chart_udp_pair(p, i);
}

static void sec_read_plus(struct page *p)
{
    FILE *f = p->f;
    const struct ns_read_bytes *r = ns_analyzer_read_totals(p->a);
    fputs("<table>\n", f);
    kv_u(f, "READ_PLUS replies", r->read_plus_replies);
    kv_u(f, "data segments", r->data_segments);
    kv_u(f, "data bytes", r->data_bytes);
    kv_u(f, "hole segments", r->hole_segments);
    kv_u(f, "hole bytes", r->hole_bytes);
    kv_u(f, "READ replies", r->read_replies);
    kv_u(f, "READ bytes", r->read_bytes);
    fputs("</table>\n", f);
    chart_read_plus(p);
}

size_t page_findings(const struct page *p, const struct ns_finding *const **out, size_t *left)
{
    size_t all = ns_analyzer_findings(p->a, out), n = 0;
    while (n < all && (*out)[n]->severity >= p->min_sev) n++;
    if (left) *left = all - n;
    return n;
}

static void sec_findings(struct page *p)
{
    FILE *f = p->f;
    const struct ns_finding *const *all;
    size_t left, n = page_findings(p, &all, &left);
    chart_findings_timeline(p); /* or the sentence that there are none */
    if (left)
        fprintf(f, "<p class=\"min-severity\">%zu less severe finding%s left out (--min-severity %s); "
                   "the JSON report counts them.</p>\n",
                left, left == 1 ? "" : "s", ns_severity_name(p->min_sev));
    if (!n) return;
    for (size_t i = 0; i < n && i < HTML_TABLE_ROWS; i++) {
        const struct ns_finding *fd = all[i];
        char chart[80], a[NS_TIME_STRLEN], b[NS_TIME_STRLEN];
        html_finding_chart(p, fd, chart, sizeof chart);
        ns_time_str(fd->first_ts_ns, a, sizeof a);
        ns_time_str(fd->last_ts_ns, b, sizeof b);
        fprintf(f, "<div class=\"finding sev-%s\" id=\"finding-%" PRIu32 "\"><span class=\"kind\">", ns_severity_name(fd->severity),
                fd->id);
        html_text(f, fd->kind);
        fprintf(f, "</span> (%s, %" PRIu64 " occurrence%s) <a href=\"#%s\">chart</a><br>\n", ns_severity_name(fd->severity),
                fd->count, fd->count == 1 ? "" : "s", chart);
        html_text(f, fd->message);
        if (fd->rfc[0]) {
            fputs(" (", f);
            html_text(f, fd->rfc);
            fputc(')', f);
        }
        fprintf(f, "<br>\n<small>from %s to %s", a, b);
        if (fd->has_session) {
            char hex[2 * NS_SESSIONID_LEN + 1];
            ns_hex_str(fd->sessionid, NS_SESSIONID_LEN, hex, sizeof hex);
            fprintf(f, "; session <code>%s</code>", hex);
        }
        if (fd->has_client) fprintf(f, "; client ID <code>%016" PRIx64 "</code>", fd->clientid);
        if (fd->nconns) {
            fputs("; connections", f);
            for (unsigned k = 0; k < fd->nconns; k++) {
                char name[NS_CONN_NAME_LEN];
                fprintf(f, " <a href=\"#conn-%" PRIu32 "\">%s</a>", fd->conns[k], ns_conn_name(fd->conns[k], name, sizeof name));
            }
        }
        fputs("; example frames (Wireshark: Go to packet)", f);
        for (unsigned k = 0; k < fd->nframes; k++) fprintf(f, "%s%" PRIu64, k ? ", " : " ", fd->frames[k]);
        uint64_t gaps = ns_finding_capture_gaps(p->a, fd);
        if (gaps)
            fprintf(f, "<br>\npossibly caused by capture loss: %" PRIu64 " gap%s in the capture%s", gaps,
                    gaps == 1 ? "" : "s", fd->nconns ? " on its connections" : "");
        fputs("</small></div>\n", f);
    }
    if (n > HTML_TABLE_ROWS)
        fprintf(f, "<p>%zu more findings, less severe or later, are in the text and JSON reports.</p>\n", n - HTML_TABLE_ROWS);
    if (ns_analyzer_findings_dropped(p->a))
        fprintf(f, "<p>%" PRIu64 " findings not kept: the finding table was full.</p>\n", ns_analyzer_findings_dropped(p->a));
}

static int row_if(FILE *f, const char *what, uint64_t v)
{
    if (v) kv_u(f, what, v);
    return v != 0;
}

static void sec_not_analysed(struct page *p)
{
    FILE *f = p->f;
    const struct ns_stats *st = ns_analyzer_stats(p->a);
    struct ns_loss_row rows[NS_LOSS_ROWS];
    size_t n = ns_loss_rows(st, rows, NS_LOSS_ROWS);
    const struct series *s = p->s;
    fputs("<table>\n", f);
    if (ns_loss_nothing(st) && !s->sessions_dropped && !s->ops_dropped && !s->pairs_dropped)
        fputs("<tr><td>nothing</td></tr>\n", f);
    for (size_t i = 0; i < n; i++)
        if (rows[i].lost) row_if(f, rows[i].label, rows[i].value);
    row_if(f, "charts: sessions beyond the charted ones", s->sessions_dropped);
    row_if(f, "charts: replies of operations beyond the charted ones", s->ops_dropped);
    row_if(f, "charts: UDP events of pairs beyond the charted ones", s->pairs_dropped);
    bool notes = false; /* recovered, or analysed and only worth a note: not a loss */
    for (size_t i = 0; i < n; i++) notes |= !rows[i].lost && rows[i].value && strcmp(rows[i].key, "ip_fragments");
    if (notes) fputs("<tr><td colspan=\"2\"><em>recovered or analysed (nothing lost):</em></td></tr>\n", f);
    for (size_t i = 0; i < n; i++)
        if (!rows[i].lost && strcmp(rows[i].key, "ip_fragments")) row_if(f, rows[i].label, rows[i].value);
    fputs("</table>\n", f);
}

int html_write(FILE *f, ns_analyzer *a, const struct series *s, const struct out_capture *cap)
{
    ns_analyzer_settle(a);
    const struct ns_stats *st = ns_analyzer_stats(a);
    struct page p = {.f = f, .a = a, .s = s, .first_ns = st->frames ? st->first_ts_ns : s->t0,
                     .min_sev = cap->min_severity};
    p.span_s = (double)ns_capture_span_ns(st) / 1e9;
    double series_end = page_bucket_x(&p, s->nbuckets);
    if (series_end > p.span_s) p.span_s = series_end;
    if (!(p.span_s > 0)) p.span_s = 1;
    struct ns_section_info sec[NS_SECTIONS];
    ns_report_sections(a, sec);
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta name=\"generator\" content=\"nfsscope\">\n<title>nfsscope: ", f);
    html_text(f, cap->source ? cap->source : "");
    fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>nfsscope post-mortem: ", style);
    html_text(f, cap->source ? cap->source : "");
    fprintf(f, "</h1>\n<p>nfsscope %s. Charts share one time axis: seconds since the capture's first frame. "
               "Frame numbers open in Wireshark (Go to packet).</p>\n<nav>",
            ns_version());
    for (int i = 0; i < NS_SECTIONS; i++)
        if (sec[i].shown) {
            fprintf(f, "<a href=\"#sec-%d\">", (int)sec[i].id);
            html_text(f, sec[i].title);
            fputs("</a>", f);
        }
    fputs("</nav>\n", f);
    for (int i = 0; i < NS_SECTIONS; i++) {
        if (!sec[i].shown) continue;
        fprintf(f, "<section id=\"sec-%d\"><h2>", (int)sec[i].id);
        html_text(f, sec[i].title);
        if (sec[i].rows) fprintf(f, " (%zu)", sec[i].rows);
        fputs("</h2>\n", f);
        switch (sec[i].id) {
        case NS_SECTION_CAPTURE: sec_capture(&p, cap); break;
        case NS_SECTION_RPC: sec_rpc(&p); break;
        case NS_SECTION_CONNECTIONS: sec_conns(&p); break;
        case NS_SECTION_OPERATIONS: sec_ops(&p); break;
        case NS_SECTION_STATUS: sec_status(&p); break;
        case NS_SECTION_CLIENTS: sec_clients(&p); break;
        case NS_SECTION_SESSIONS: sec_sessions(&p); break;
        case NS_SECTION_UDP: sec_udp(&p); break;
        case NS_SECTION_READ_PLUS: sec_read_plus(&p); break;
        case NS_SECTION_FINDINGS: sec_findings(&p); break;
        case NS_SECTION_NOT_ANALYSED: sec_not_analysed(&p); break;
        case NS_SECTIONS: break;
        }
        if (cap->counters && cap->kernel_drops + cap->interface_drops && sec[i].id != NS_SECTION_CAPTURE)
            fprintf(f, "<p>Lower bounds: the capture dropped %" PRIu64 " frames.</p>\n",
                    cap->kernel_drops + cap->interface_drops);
        fputs("</section>\n", f);
    }
    fputs("</body></html>\n", f);
    return ferror(f) ? -1 : 0;
}
