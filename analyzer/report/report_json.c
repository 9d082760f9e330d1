/* The JSON report (nfsscope/report.h, doc/json-report.md). */
#include <inttypes.h>

#include "json_write.h"
#include "nfsscope/names.h"
#include "report_int.h"

static void kv_u(FILE *o, const char *k, uint64_t v, bool comma)
{
    fprintf(o, "%s\"%s\":%" PRIu64, comma ? "," : "", k, v);
}

/* latency_samples, mean_us (exact, to the nanosecond: not truncated to
 * whole microseconds), p50/p95/p99/max_us; null without samples. One
 * writer for the operations and the other programs. */
static void latency_keys(FILE *o, const struct ns_latency *lat, const struct ns_latency_summary *l)
{
    kv_u(o, "latency_samples", l->count, true);
    if (!l->count) {
        fputs(",\"mean_us\":null,\"p50_us\":null,\"p95_us\":null,\"p99_us\":null,\"max_us\":null", o);
        return;
    }
    fprintf(o, ",\"mean_us\":%.3f", (double)lat->sum_ns / (double)l->count / 1000.0);
    kv_u(o, "p50_us", l->p50_ns / 1000, true);
    kv_u(o, "p95_us", l->p95_ns / 1000, true);
    kv_u(o, "p99_us", l->p99_ns / 1000, true);
    kv_u(o, "max_us", l->max_ns / 1000, true);
}

static void capture(FILE *o, const struct ns_stats *st, const struct ns_report_info *ri)
{
    fputs("\"capture\":{\"source\":", o);
    json_cstr(o, ri->source);
    kv_u(o, "packets", st->frames, true);
    kv_u(o, "bytes", st->bytes, true);
    fputs(",\"first_ts\":", o);
    if (st->frames) json_ts(o, st->first_ts_ns); else fputs("null", o);
    fputs(",\"last_ts\":", o);
    if (st->frames) json_ts(o, st->last_ts_ns); else fputs("null", o);
    fputs(",\"duration_s\":", o);
    json_ts(o, ns_capture_span_ns(st));
    kv_u(o, "truncated_frames", st->frames_truncated, true);
    fputs(",\"nfs_versions\":[", o);
    const char *v[10];
    size_t nv = ns_nfs_versions(st->nfs_versions, v, 10);
    for (size_t i = 0; i < nv; i++) { if (i) fputc(',', o); json_cstr(o, v[i]); }
    fprintf(o, "],\"partial\":%s,\"partial_reason\":", ri->partial ? "true" : "false");
    if (ri->partial) json_cstr(o, ri->partial_reason); else fputs("null", o);
    fprintf(o, ",\"live\":%s,\"kernel_drops\":", ri->live ? "true" : "false");
    if (ri->counters) fprintf(o, "%" PRIu64 ",\"interface_drops\":%" PRIu64, ri->kernel_drops, ri->interface_drops);
    else fputs("null,\"interface_drops\":null", o);
    fputs(",\"wall_start\":", o);
    if (ri->live && ri->start_ns) json_ts(o, ri->start_ns); else fputs("null", o);
    fputs(",\"wall_stop\":", o);
    if (ri->live && ri->end_ns) json_ts(o, ri->end_ns); else fputs("null", o);
    fprintf(o, ",\"lower_bounds\":%s", report_lossy(ri) ? "true" : "false");
    fputs(",\"frame_limit\":", o); /* -c */
    if (ri->count) fprintf(o, "%lld", ri->count); else fputs("null", o);
    fputs(",\"bpf_filter\":", o);
    if (ri->bpf_filter) json_cstr(o, ri->bpf_filter); else fputs("null", o);
    fputs(",\"filter\":", o);
    if (ri->filter) {
        fputs("{\"description\":", o);
        json_cstr(o, filter_describe(ri->filter));
        int64_t lo, hi;
        bool w = filter_window(ri->filter, &lo, &hi);
        fputs(",\"from\":", o);
        if (w && lo != INT64_MIN) json_ts(o, lo); else fputs("null", o);
        fputs(",\"to\":", o);
        if (w && hi != INT64_MAX) json_ts(o, hi); else fputs("null", o);
        kv_u(o, "transactions_matched", filter_matched(ri->filter), true);
        kv_u(o, "transactions_seen", filter_seen(ri->filter), true);
        fputc('}', o);
    } else {
        fputs("null", o);
    }
    fputc('}', o);
}

static void rpc(FILE *o, const struct ns_stats *st)
{
    fputs(",\"rpc\":{", o);
    kv_u(o, "calls", st->rpc_calls, false);
    kv_u(o, "replies", st->rpc_replies, true);
    kv_u(o, "unmatched_calls", st->rpc_unmatched_calls, true);
    kv_u(o, "orphan_replies", st->rpc_orphan_replies, true);
    kv_u(o, "retransmissions", st->rpc_retransmissions, true);
    kv_u(o, "xid_reused", st->rpc_xid_reused, true);
    kv_u(o, "dup_replies", st->rpc_dup_replies, true);
    kv_u(o, "denied", st->rpc_denied, true);
    kv_u(o, "not_success", st->rpc_not_success, true);
    kv_u(o, "backchannel_calls", st->rpc_backchannel_calls, true);
    kv_u(o, "gss_privacy", st->rpc_gss_privacy, true);
    kv_u(o, "transactions", st->txns, true);
    kv_u(o, "calls_evicted_waiting", st->rpc_calls_outstanding_evicted, true);
    kv_u(o, "late_replies", st->rpc_late_replies, true);
    fputc('}', o);
}

static void connections(FILE *o, const ns_analyzer *a, const struct ns_stats *st, const struct ns_report_filter *flt)
{
    fputs(",\"connections\":[", o);
    size_t n = ns_analyzer_conn_count(a);
    bool first = true;
    for (uint32_t id = 1; id <= n; id++) {
        const struct ns_conn *c = ns_analyzer_conn(a, id);
        if (!c || !filter_shows_conn(flt, id)) continue;
        char cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN];
        ns_endpoint_str(&c->client, cl, sizeof cl);
        ns_endpoint_str(&c->server, sv, sizeof sv);
        fputs(first ? "{\"id\":" : ",{\"id\":", o);
        first = false;
        json_conn(o, c->id);
        fprintf(o, ",\"transport\":\"%s\",\"client\":", ns_transport_name(c->transport));
        json_cstr(o, cl);
        fputs(",\"server\":", o);
        json_cstr(o, sv);
        kv_u(o, "calls", c->calls, true);
        kv_u(o, "replies", c->replies, true);
        kv_u(o, "backchannel_calls", c->backchannel_calls, true);
        kv_u(o, "frames", c->frames, true);
        kv_u(o, "bytes_to_server", c->bytes_to_server, true);
        kv_u(o, "bytes_to_client", c->bytes_to_client, true);
        kv_u(o, "missing_bytes", c->missing_bytes, true);
        kv_u(o, "gaps", c->gaps, true);
        struct ns_conn_tcp ct;
        ns_analyzer_conn_tcp(a, c->id, &ct);
        kv_u(o, "tcp_retransmitted_segments", ct.retransmitted, true);
        kv_u(o, "tcp_out_of_order", ct.out_of_order, true);
        fputs(",\"first_ts\":", o);
        json_ts(o, c->first_ts_ns);
        fputs(",\"last_ts\":", o);
        json_ts(o, c->last_ts_ns);
        fprintf(o, ",\"mid_stream\":%s,\"nfs_versions\":[", c->mid_stream ? "true" : "false");
        const char *v[10];
        size_t nv = ns_nfs_versions(c->nfs_versions, v, 10);
        for (size_t i = 0; i < nv; i++) { if (i) fputc(',', o); json_cstr(o, v[i]); }
        fputs("]}", o);
    }
    fputc(']', o);
    const struct ns_conn *s = &st->evicted_conns_sum;
    if (!st->evicted_conns || flt) return; /* only when closed connections were dropped */
    fputs(",\"connections_dropped\":{", o);
    kv_u(o, "count", st->evicted_conns, false);
    kv_u(o, "calls", s->calls, true);
    kv_u(o, "replies", s->replies, true);
    kv_u(o, "backchannel_calls", s->backchannel_calls, true);
    kv_u(o, "frames", s->frames, true);
    kv_u(o, "bytes_to_server", s->bytes_to_server, true);
    kv_u(o, "bytes_to_client", s->bytes_to_client, true);
    kv_u(o, "missing_bytes", s->missing_bytes, true);
    kv_u(o, "gaps", s->gaps, true);
    fputs(",\"first_ts\":", o);
    json_ts(o, s->first_ts_ns);
    fputs(",\"last_ts\":", o);
    json_ts(o, s->last_ts_ns);
    fputc('}', o);
}

static void ops(FILE *o, const struct ns_stats *st)
{
    struct ns_op_row rows[NS_OPKEY_MAX];
    size_t n = ns_op_rows(st, rows, NS_OPKEY_MAX);
    fputs(",\"ops\":[", o);
    for (size_t i = 0; i < n; i++) {
        const struct ns_op_stats *s = rows[i].s;
        struct ns_latency_summary l;
        ns_latency_summarize(&s->latency, &l);
        fprintf(o, "%s{\"name\":", i ? "," : "");
        json_cstr(o, rows[i].name);
        /* mixed captures list GETATTR of v3 and of v4: the key tells them apart */
        kv_u(o, "version", rows[i].key >= 2000 && rows[i].key < 3000 ? 3 : 4, true);
        kv_u(o, "count", s->count, true);
        kv_u(o, "in_compounds", s->in_compounds, true);
        kv_u(o, "errors", s->errors, true);
        latency_keys(o, &s->latency, &l);
        fputc('}', o);
    }
    fputc(']', o);
}

static void status(FILE *o, const struct ns_stats *st)
{
    struct ns_status_row rows[NS_STATUS_SLOTS];
    size_t n = ns_status_rows(st, rows, NS_STATUS_SLOTS);
    fputs(",\"status\":[", o);
    for (size_t i = 0; i < n; i++) {
        fprintf(o, "%s{\"name\":", i ? "," : "");
        json_cstr(o, rows[i].name);
        kv_u(o, "count", rows[i].count, true);
        fputc('}', o);
    }
    fputc(']', o);
}

static void loss_group(FILE *o, const struct ns_loss_row *rows, size_t n, uint8_t group)
{
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].group != group || (rows[i].optional && !rows[i].value)) continue;
        kv_u(o, rows[i].key, rows[i].value, !first);
        first = false;
    }
}

static void skipped(FILE *o, const struct ns_stats *st, uint64_t first_only)
{
    struct ns_loss_row rows[NS_LOSS_ROWS];
    size_t n = ns_loss_rows(st, rows, NS_LOSS_ROWS);
    fputs(",\"not_analysed\":{", o);
    loss_group(o, rows, n, NS_LOSS_NOT_ANALYSED);
    kv_u(o, "ip_datagrams_first_fragment_only", first_only, true);
    fprintf(o, ",\"nothing\":%s", ns_loss_nothing(st) ? "true" : "false");
    fputs("},\"evictions\":{", o);
    loss_group(o, rows, n, NS_LOSS_EVICTED);
    fputs("},\"memory\":{", o);
    kv_u(o, "peak_bytes", st->peak_memory, false);
    fputc('}', o);
}

/* programs[]: MOUNT, portmap ... per procedure (the text "Other RPC programs"). */
static void programs(FILE *o, struct ns_report_programs *pg)
{
    fputs(",\"programs\":[", o);
    if (pg) programs_sort(pg);
    for (size_t i = 0; pg && i < pg->n; i++) {
        const struct program_row *r = &pg->rows[i];
        struct ns_latency_summary l;
        ns_latency_summarize(&r->latency, &l);
        const char *proc = ns_rpc_proc_name(r->prog, r->vers, r->proc);
        fprintf(o, "%s{\"program\":", i ? "," : "");
        json_cstr(o, ns_rpc_prog_name(r->prog));
        kv_u(o, "prog", r->prog, true);
        kv_u(o, "vers", r->vers, true);
        kv_u(o, "proc", r->proc, true);
        fputs(",\"procedure\":", o);
        if (proc) json_cstr(o, proc); else fputs("null", o);
        kv_u(o, "calls", r->calls, true);
        kv_u(o, "errors", r->errors, true);
        latency_keys(o, &r->latency, &l);
        fputc('}', o);
    }
    fprintf(o, "],\"programs_not_listed\":%" PRIu64, pg ? pg->overflow : 0);
}

void ns_report_json(FILE *o, ns_analyzer *a, const struct ns_report_info *info)
{
    struct ns_report_info in;
    report_info_read(&in, info);
    const struct ns_report_info *ri = &in;
    const struct ns_stats *st = ns_analyzer_stats(a);
    fputs("{\"nfsscope\":{\"version\":\"" NFSSCOPE_VERSION "\"},", o);
    capture(o, st, ri);
    /* with --client, --session ...: the figures of the matching transactions */
    const struct ns_stats *fst = ri->filter ? filter_stats(ri->filter) : st;
    rpc(o, fst);
    connections(o, a, st, ri->filter);
    ops(o, fst);
    status(o, fst);
    programs(o, ri->programs);
    report_sessions_json(o, a, ri->filter);
    report_udp_json(o, a, ri->filter);
    report_who_json(o, a, ri);
    report_findings_json(o, a, ri);
    skipped(o, st, report_first_fragment_only(a));
    if (ri->two_point) report_two_point_json(o, ri->two_point);
    fputs("}\n", o);
}
