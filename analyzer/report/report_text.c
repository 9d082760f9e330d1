/* The text report (nfsscope/report.h): the sections in the view's order,
 * wrapped at REPORT_WIDTH columns. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"
#include "text_table.h"
#include "nfsscope/names.h"

#define REPORT_WIDTH 100

static void section_capture(FILE *o, const struct ns_stats *st, const struct ns_report_info *ri,
                            const struct ns_section_info *sec)
{
    char a[NS_TIME_STRLEN], b[NS_TIME_STRLEN];
    if (ri->live && ri->start_ns) {
        ns_time_str(ri->start_ns, a, sizeof a);
        ns_time_str(ri->end_ns, b, sizeof b);
        fprintf(o, "%s  %s (live)\n", sec->title, ri->source);
        fprintf(o, "  wall clock    %s .. %s\n", a, b);
    } else {
        fprintf(o, "%s  %s\n", sec->title, ri->source);
    }
    if (st->frames) {
        ns_time_str(st->first_ts_ns, a, sizeof a);
        ns_time_str(st->last_ts_ns, b, sizeof b);
        fprintf(o, "  span          %s .. %s (%.6f s)\n", a, b, (double)ns_capture_span_ns(st) / 1e9);
    }
    fprintf(o, "  frames        %" PRIu64 " (%" PRIu64 " bytes on the wire)", st->frames, st->bytes);
    if (st->frames_truncated) fprintf(o, ", %" PRIu64 " cut by the snapshot length", st->frames_truncated);
    fputc('\n', o);
    const char *v[10];
    size_t nv = ns_nfs_versions(st->nfs_versions, v, 10);
    fputs("  NFS versions ", o);
    if (!nv) fputs(" none", o);
    for (size_t i = 0; i < nv; i++) fprintf(o, " %s", v[i]);
    fputc('\n', o);
    if (st->tcp_retransmitted || st->tcp_out_of_order || st->tcp_gaps)
        fprintf(o, "  TCP           %" PRIu64 " segments: %" PRIu64 " retransmitted, %" PRIu64 " out of order, %" PRIu64
                   " gap%s (%" PRIu64 " bytes never captured)\n",
                st->tcp_segments, st->tcp_retransmitted, st->tcp_out_of_order, st->tcp_gaps,
                st->tcp_gaps == 1 ? "" : "s", st->tcp_gap_bytes);
    if (ri->partial) fprintf(o, "  PARTIAL       %s\n", ri->partial_reason);
    if (ri->count) fprintf(o, "  frame limit   -c %lld\n", ri->count);
    if (ri->bpf_filter)
        fprintf(o, "  bpf filter    %s%s\n", ri->bpf_filter,
                ri->live ? "" : " (frames keep their numbers in the file)");
    if (ri->filter) {
        fprintf(o, "  filter        %s\n", filter_describe(ri->filter));
        int64_t lo, hi;
        if (filter_window(ri->filter, &lo, &hi)) {
            char x[NS_TIME_STRLEN] = "start", y[NS_TIME_STRLEN] = "end";
            if (lo != INT64_MIN) ns_time_str(lo, x, sizeof x);
            if (hi != INT64_MAX) ns_time_str(hi, y, sizeof y);
            fprintf(o, "  window        %s .. %s\n", x, y);
        }
        uint64_t m = filter_matched(ri->filter), n = filter_seen(ri->filter);
        fprintf(o, "  matched       %" PRIu64 " of %" PRIu64 " RPC transaction%s%s\n", m, n, n == 1 ? "" : "s",
                m ? "; connections, sessions and not analysed: figures of the whole capture" : "");
        if (!m) fputs("  nothing matches the filter: no report\n", o);
    }
    if (ri->counters)
        fprintf(o, "  dropped       %" PRIu64 " by the kernel, %" PRIu64 " by the interface%s\n", ri->kernel_drops,
                ri->interface_drops,
                report_lossy(ri) ? ": counts below are lower bounds" : "");
}

/* Sections whose figures count what was captured: short of the truth when
 * frames were dropped. */
static bool counts_frames(enum ns_section id)
{
    return id != NS_SECTION_CAPTURE && id != NS_SECTIONS;
}

static void section_rpc(FILE *o, const struct ns_stats *st, const struct ns_section_info *sec)
{
    fprintf(o, "\n%s\n  calls %" PRIu64 "  replies %" PRIu64 "  unmatched calls %" PRIu64
               "  orphan replies %" PRIu64 "\n",
            sec->title, st->rpc_calls, st->rpc_replies, st->rpc_unmatched_calls, st->rpc_orphan_replies);
    fprintf(o, "  retransmitted calls %" PRIu64 "  duplicate replies %" PRIu64 "  denied %" PRIu64
               "  not SUCCESS %" PRIu64 "  backchannel calls %" PRIu64 "  encrypted (krb5p) %" PRIu64 "\n",
            st->rpc_retransmissions, st->rpc_dup_replies, st->rpc_denied, st->rpc_not_success,
            st->rpc_backchannel_calls, st->rpc_gss_privacy);
    if (st->rpc_xid_reused) fprintf(o, "  XIDs reused for a different call while outstanding %" PRIu64 "\n", st->rpc_xid_reused);
    if (st->rpc_calls_outstanding_evicted || st->rpc_late_replies)
        fprintf(o, "  calls still waiting when memory ran short %" PRIu64 " (outstanding, not unanswered)  their late "
                   "replies %" PRIu64 "\n",
                st->rpc_calls_outstanding_evicted, st->rpc_late_replies);
}

/* Closed connections whose records the memory cap dropped: one line of totals. */
static void conns_dropped(FILE *o, const struct ns_stats *st, const struct ns_report_filter *flt)
{
    const struct ns_conn *s = &st->evicted_conns_sum;
    if (!st->evicted_conns || flt) return;
    fprintf(o, "  + %" PRIu64 " closed connection%s not listed (4096 kept, or memory cap), together:\n", st->evicted_conns,
            st->evicted_conns == 1 ? "" : "s");
    fprintf(o, "    calls %" PRIu64 "  replies %" PRIu64 "  bytes>srv %" PRIu64 "  bytes>cli %" PRIu64
               "  missing %" PRIu64 "\n",
            s->calls, s->replies, s->bytes_to_server, s->bytes_to_client, s->missing_bytes);
}

/* The connections whose TCP had trouble: retransmitted and out-of-order
 * segments, gaps and the bytes they took (ns_analyzer_conn_tcp). */
static void conns_tcp_trouble(FILE *o, const ns_analyzer *a, const struct ns_report_filter *flt)
{
    static const char *const heads[] = {"TCP", "retransmitted", "out of order", "gaps", "bytes missing"};
    struct table *t = table_new("lrrrr", heads);
    for (uint32_t id = 1; id <= ns_analyzer_conn_count(a); id++) {
        const struct ns_conn *c = ns_analyzer_conn(a, id);
        struct ns_conn_tcp ct;
        if (!c || !filter_shows_conn(flt, id) || !ns_analyzer_conn_tcp(a, id, &ct)) continue;
        if (!ct.retransmitted && !ct.out_of_order && !c->gaps) continue;
        char ids[NS_CONN_NAME_LEN];
        table_cell(t, "%s", ns_conn_name(c->id, ids, sizeof ids));
        table_cell(t, "%" PRIu64, ct.retransmitted);
        table_cell(t, "%" PRIu64, ct.out_of_order);
        table_cell(t, "%" PRIu32, c->gaps);
        table_cell(t, "%" PRIu64, c->missing_bytes);
        table_row_end(t);
    }
    fputc('\n', o);
    table_print(t, o, 2);
}

static void section_conns(FILE *o, const ns_analyzer *a, const struct ns_stats *st, const struct ns_section_info *sec,
                          const struct ns_report_filter *flt)
{
    size_t n = ns_analyzer_conn_count(a), shown = 0;
    for (uint32_t id = 1; id <= n; id++) shown += ns_analyzer_conn(a, id) && filter_shows_conn(flt, id);
    fprintf(o, "\n%s (%zu)\n", sec->title, shown);
    if (!shown) { conns_dropped(o, st, flt); return; }
    static const char *const heads[] = {"id", "tr", "client", "server", "calls", "replies", "bytes>srv", "bytes>cli",
                                        "missing", ""};
    struct table *t = table_new("llllrrrrrl", heads);
    bool trouble = false;
    for (uint32_t id = 1; id <= n; id++) {
        const struct ns_conn *c = ns_analyzer_conn(a, id);
        if (!c || !filter_shows_conn(flt, id)) continue;
        char cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN], ids[NS_CONN_NAME_LEN];
        ns_endpoint_str(&c->client, cl, sizeof cl);
        ns_endpoint_str(&c->server, sv, sizeof sv);
        table_cell(t, "%s", ns_conn_name(c->id, ids, sizeof ids));
        table_cell(t, "%s", ns_transport_name(c->transport));
        table_cell(t, "%s", cl);
        table_cell(t, "%s", sv);
        table_cell(t, "%" PRIu64, c->calls);
        table_cell(t, "%" PRIu64, c->replies);
        table_cell(t, "%" PRIu64, c->bytes_to_server);
        table_cell(t, "%" PRIu64, c->bytes_to_client);
        table_cell(t, "%" PRIu64, c->missing_bytes);
        table_cell(t, "%s", c->mid_stream ? "(mid-stream)" : "");
        table_row_end(t);
        struct ns_conn_tcp ct;
        ns_analyzer_conn_tcp(a, id, &ct);
        trouble |= ct.retransmitted || ct.out_of_order || c->gaps;
    }
    table_print(t, o, 2);
    /* a latency spike next to retransmissions or gaps explains itself */
    if (trouble) conns_tcp_trouble(o, a, flt);
    conns_dropped(o, st, flt);
}

/* The NFS version an operation key belongs to. */
static const char *op_version(uint32_t key)
{
    return key >= 2000 && key < 3000 ? "v3" : key >= 1000 && key < 2000 ? "v4 cb" : key == NS_OPKEY_CBNULL ? "v4 cb" : "v4";
}

/* Latency columns of one table row: exact mean (and with -v min), then the
 * histogram's percentiles, then the exact max; "-" without a latency. */
static void latency_cells(struct table *t, const struct ns_latency *lat, struct time_unit u, bool verbose)
{
    struct ns_latency_summary l;
    ns_latency_summarize(lat, &l);
    int cols = verbose ? 8 : 5;
    if (!l.count) {
        for (int i = 0; i < cols; i++) table_cell(t, "-");
        return;
    }
    char b[32];
    fmt_exact(b, sizeof b, (double)lat->sum_ns / (double)l.count, u);
    table_cell(t, "%s", b);
    if (verbose) { fmt_exact(b, sizeof b, (double)lat->min_ns, u); table_cell(t, "%s", b); }
    fmt_percentile_within(b, sizeof b, l.p50_ns, lat->min_ns, lat->max_ns, u);
    table_cell(t, "%s", b);
    if (verbose) { fmt_percentile_within(b, sizeof b, ns_latency_percentile_ns(lat, 0.90), lat->min_ns, lat->max_ns, u); table_cell(t, "%s", b); }
    fmt_percentile_within(b, sizeof b, l.p95_ns, lat->min_ns, lat->max_ns, u);
    table_cell(t, "%s", b);
    fmt_percentile_within(b, sizeof b, l.p99_ns, lat->min_ns, lat->max_ns, u);
    table_cell(t, "%s", b);
    if (verbose) { fmt_percentile_within(b, sizeof b, ns_latency_percentile_ns(lat, 0.999), lat->min_ns, lat->max_ns, u); table_cell(t, "%s", b); }
    fmt_exact(b, sizeof b, (double)l.max_ns, u);
    table_cell(t, "%s", b);
}

/* Heads of the latency columns, unit in the first. */
static void latency_heads(const char **h, struct time_unit u, bool verbose, char *mean, size_t n)
{
    snprintf(mean, n, "mean %s", u.name);
    size_t i = 0;
    h[i++] = mean;
    if (verbose) h[i++] = "min";
    h[i++] = "p50";
    if (verbose) h[i++] = "p90";
    h[i++] = "p95";
    h[i++] = "p99";
    if (verbose) h[i++] = "p99.9";
    h[i++] = "max";
}

static void section_ops(FILE *o, const struct ns_stats *st, const struct ns_section_info *sec, bool verbose)
{
    static struct ns_op_row rows[NS_OPKEY_MAX]; /* large: not on the stack */
    size_t n = ns_op_rows(st, rows, NS_OPKEY_MAX);
    /* the heading and the in-cpd column follow the versions present: an
     * NFSv3-only capture has procedures, no COMPOUNDs */
    bool v4 = (st->nfs_versions & ~(NS_VERS_BIT(2, 0) | NS_VERS_BIT(3, 0))) != 0;
    bool older = (st->nfs_versions & (NS_VERS_BIT(2, 0) | NS_VERS_BIT(3, 0))) != 0;
    fprintf(o, "\n%s (%s)\n", sec->title,
            !v4 ? "NFSv3 by procedure"
                : older ? "NFSv3 by procedure, NFSv4 by main operation of the COMPOUND"
                        : "NFSv4 by main operation of the COMPOUND");
    if (!n) return;
    uint64_t max = 0;
    for (size_t i = 0; i < n; i++)
        if (rows[i].s->latency.count && rows[i].s->latency.max_ns > max) max = rows[i].s->latency.max_ns;
    struct time_unit u = time_unit_for(max);
    const char *heads[TABLE_COLS] = {"operation", "vers", "count"};
    size_t h = 3;
    if (v4) heads[h++] = "in-cpd";
    heads[h++] = "errors";
    char mean[16];
    latency_heads(heads + h, u, verbose, mean, sizeof mean);
    const char *align = verbose ? (v4 ? "llrrrrrrrrrrr" : "llrrrrrrrrrr") : (v4 ? "llrrrrrrrr" : "llrrrrrrr");
    struct table *t = table_new(align, heads);
    for (size_t i = 0; i < n; i++) {
        const struct ns_op_stats *s = rows[i].s;
        table_cell(t, "%s", rows[i].name);
        table_cell(t, "%s", op_version(rows[i].key));
        table_cell(t, "%" PRIu64, s->count);
        if (v4) table_cell(t, "%" PRIu64, s->in_compounds);
        table_cell(t, "%" PRIu64, s->errors);
        latency_cells(t, &s->latency, u, verbose);
        table_row_end(t);
    }
    table_print(t, o, 2);
}

/* MOUNT, portmap, NLM ...: counted in the RPC totals, listed here. */
static void section_programs(FILE *o, struct ns_report_programs *pg, bool verbose)
{
    if (!pg || (!pg->n && !pg->overflow)) return;
    programs_sort(pg);
    uint64_t max = 0;
    for (size_t i = 0; i < pg->n; i++)
        if (pg->rows[i].latency.count && pg->rows[i].latency.max_ns > max) max = pg->rows[i].latency.max_ns;
    struct time_unit u = time_unit_for(max);
    fprintf(o, "\nOther RPC programs (%zu procedure%s)\n", pg->n, pg->n == 1 ? "" : "s");
    const char *heads[TABLE_COLS] = {"program", "vers", "procedure", "calls", "errors"};
    char mean[16];
    latency_heads(heads + 5, u, verbose, mean, sizeof mean);
    struct table *t = table_new(verbose ? "lrlrrrrrrrrrr" : "lrlrrrrrrr", heads);
    for (size_t i = 0; i < pg->n; i++) {
        const struct program_row *r = &pg->rows[i];
        const char *proc = ns_rpc_proc_name(r->prog, r->vers, r->proc);
        table_cell(t, "%s", ns_rpc_prog_name(r->prog));
        table_cell(t, "%" PRIu32, r->vers);
        if (proc) table_cell(t, "%s", proc); else table_cell(t, "%" PRIu32, r->proc);
        table_cell(t, "%" PRIu64, r->calls);
        table_cell(t, "%" PRIu64, r->errors);
        latency_cells(t, &r->latency, u, verbose);
        table_row_end(t);
    }
    table_print(t, o, 2);
    if (pg->overflow) fprintf(o, "  (%" PRIu64 " more calls of other procedures not listed)\n", pg->overflow);
}

static void section_status(FILE *o, const struct ns_stats *st, const struct ns_section_info *sec)
{
    struct ns_status_row rows[NS_STATUS_SLOTS];
    size_t n = ns_status_rows(st, rows, NS_STATUS_SLOTS);
    fprintf(o, "\n%s\n", sec->title);
    for (size_t i = 0; i < n; i++) fprintf(o, "  %-36s %10" PRIu64 "\n", rows[i].name, rows[i].count);
}

static void line_w(FILE *o, int w, const char *what, uint64_t v)
{
    if (v) fprintf(o, "  %-*s %" PRIu64 "\n", w, what, v);
}


static void section_skipped(FILE *o, ns_analyzer *a, const struct ns_stats *st, const struct ns_section_info *sec)
{
    fprintf(o, "\n%s\n", sec->title);
    uint64_t firsts = report_first_fragment_only(a);
    if (firsts)
        fprintf(o, "  WARNING: %" PRIu64 " IP datagram%s arrived as a first fragment only, never a later one: the "
                   "capture filter dropped the later fragments (tcpdump's 'port 2049' does), so those replies look "
                   "lost; capture with 'port 2049 or (ip[6:2] & 0x1fff != 0)'\n",
                firsts, firsts == 1 ? "" : "s");
    struct ns_loss_row rows[NS_LOSS_ROWS];
    size_t n = ns_loss_rows(st, rows, NS_LOSS_ROWS);
    /* what was lost first; then, apart, what was recovered or is only a note */
    /* one column of numbers: as wide as the longest label shown */
    int w = 44;
    for (size_t i = 0; i < n; i++)
        if (rows[i].value && (int)strlen(rows[i].label) > w) w = (int)strlen(rows[i].label);
    if (ns_loss_nothing(st)) fputs("  nothing\n", o);
    for (size_t i = 0; i < n; i++)
        if (rows[i].lost) line_w(o, w, rows[i].label, rows[i].value);
    bool notes = false;
    for (size_t i = 0; i < n; i++) notes |= !rows[i].lost && rows[i].value && strcmp(rows[i].key, "ip_fragments");
    if (!notes) return;
    fputs("  recovered or analysed (nothing lost):\n", o);
    for (size_t i = 0; i < n; i++)
        if (!rows[i].lost && strcmp(rows[i].key, "ip_fragments")) line_w(o, w, rows[i].label, rows[i].value);
}

/* -q: the summary, the findings and what could not be analysed. */
static bool quiet_shows(enum ns_section id)
{
    return id == NS_SECTION_CAPTURE || id == NS_SECTION_RPC || id == NS_SECTION_FINDINGS ||
           id == NS_SECTION_NOT_ANALYSED;
}

/* A line longer than the width is broken at spaces; its continuation is
 * indented like a paragraph (deep indents: messages) or 4 more (a heading
 * line of a block). A word longer than the width stays whole. */
static void wrap_line(FILE *o, const char *s, size_t len, size_t width)
{
    size_t ind = 0;
    while (ind < len && s[ind] == ' ') ind++;
    size_t cont = ind >= 8 ? ind : ind + 4;
    size_t pos = 0, col0 = 0; /* col0: the indent already printed for this piece */
    while (len - pos + col0 > width) {
        size_t lim = pos + (width - col0), brk = 0, from = pos + (pos ? 0 : ind);
        /* between fields ("calls 3  replies 3") first, so a name stays with its value */
        for (size_t i = lim; i > from + (width - col0) / 2; i--)
            if (s[i] == ' ' && s[i - 1] == ' ') { brk = i - 1; break; }
        for (size_t i = lim; !brk && i > from; i--)
            if (s[i] == ' ') brk = i;
        if (!brk) break;
        size_t end = brk;
        while (end > pos && s[end - 1] == ' ') end--;
        fprintf(o, "%.*s\n%*s", (int)(end - pos), s + pos, (int)cont, "");
        pos = brk;
        while (pos < len && s[pos] == ' ') pos++;
        col0 = cont;
    }
    fprintf(o, "%.*s\n", (int)(len - pos), s + pos);
}

static void wrap_text(FILE *o, const char *buf, size_t n, size_t width)
{
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(buf + i, '\n', n - i);
        size_t len = nl ? (size_t)(nl - (buf + i)) : n - i;
        wrap_line(o, buf + i, len, width);
        i += len + 1;
    }
}

/* One section as the report prints it, its heading included, and after a
 * section of counts the note that they are lower bounds. */
static void print_section(FILE *o, ns_analyzer *a, const struct ns_report_info *ri, const struct ns_section_info *s)
{
    const struct ns_stats *st = ns_analyzer_stats(a);
    /* narrowed: the figures of the matching transactions */
    const struct ns_stats *fst = ri->filter ? filter_stats(ri->filter) : st;
    switch (s->id) {
    case NS_SECTION_CAPTURE: section_capture(o, st, ri, s); break;
    case NS_SECTION_RPC: section_rpc(o, fst, s); break;
    case NS_SECTION_CONNECTIONS: section_conns(o, a, st, s, ri->filter); break;
    case NS_SECTION_OPERATIONS:
        section_ops(o, fst, s, ri->verbosity > 0);
        section_programs(o, ri->programs, ri->verbosity > 0);
        break;
    case NS_SECTION_STATUS:
        section_status(o, fst, s);
        if (ri->verbosity >= 0) report_who_text(o, a, ri);
        break;
    case NS_SECTION_CLIENTS: report_clients_text(o, a, s, ri->filter); break;
    case NS_SECTION_SESSIONS: report_sessions_text(o, a, s, ri->filter); break;
    case NS_SECTION_UDP: report_udp_text(o, a, s, ri->filter); break;
    case NS_SECTION_READ_PLUS: if (!ri->filter) report_read_plus_text(o, a, s); break; /* per file, not per client */
    case NS_SECTION_FINDINGS: report_findings_text(o, a, s, ri); break;
    case NS_SECTION_NOT_ANALYSED: section_skipped(o, a, st, s); break;
    case NS_SECTIONS: break;
    }
    if (report_lossy(ri) && counts_frames(s->id))
        fprintf(o, "  (lower bounds: the capture dropped %" PRIu64 " frames)\n", ri->kernel_drops + ri->interface_drops);
}

/* only == NS_SECTIONS: the sections the report shows, in the order and
 * with the omissions the view decides; else that one section, shown or not. */
static void print_sections(FILE *o, ns_analyzer *a, const struct ns_report_info *ri, enum ns_section only)
{
    struct ns_section_info sec[NS_SECTIONS];
    ns_report_sections(a, sec);
    if (only != NS_SECTIONS) {
        print_section(o, a, ri, &sec[only]);
        return;
    }
    for (int i = 0; i < NS_SECTIONS; i++) {
        const struct ns_section_info *s = &sec[i];
        if (!s->shown) continue;
        if (ri->filter && !filter_matched(ri->filter) && s->id != NS_SECTION_CAPTURE) continue;
        if (ri->verbosity < 0 && !quiet_shows(s->id)) continue;
        print_section(o, a, ri, s);
    }
    if (ri->two_point) report_two_point_text(o, ri->two_point);
}

/* Printed into memory, then wrapped at REPORT_WIDTH columns; without the
 * memory, printed as is. */
static void print_wrapped(FILE *o, ns_analyzer *a, const struct ns_report_info *ri, enum ns_section only)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    if (!m) { print_sections(o, a, ri, only); return; }
    print_sections(m, a, ri, only);
    if (fclose(m) != 0 || !buf) { free(buf); print_sections(o, a, ri, only); return; }
    wrap_text(o, buf, n, REPORT_WIDTH);
    free(buf);
}

void ns_report_text(FILE *o, ns_analyzer *a, const struct ns_report_info *ri)
{
    struct ns_report_info in;
    report_info_read(&in, ri);
    print_wrapped(o, a, &in, NS_SECTIONS);
}

void ns_report_section_text(FILE *o, ns_analyzer *a, enum ns_section which)
{
    if (which == NS_SECTION_CAPTURE || which >= NS_SECTIONS) return; /* the capture's name is the run's */
    struct ns_report_info none = NS_REPORT_INFO_INIT;
    print_wrapped(o, a, &none, which);
}
