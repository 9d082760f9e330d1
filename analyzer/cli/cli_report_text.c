#include <inttypes.h>

#include "cli_report.h"

static double us(uint64_t ns) { return (double)ns / 1000.0; }

static void section_capture(FILE *o, const struct ns_stats *st, const struct report_info *ri,
                            const struct ns_section_info *sec)
{
    char a[NS_TIME_STRLEN], b[NS_TIME_STRLEN];
    if (ri->live && ri->start_ns) {
        ns_time_str(ri->start_ns, a, sizeof a);
        ns_time_str(ri->end_ns, b, sizeof b);
        fprintf(o, "%s %s (live, from %s to %s, wall clock)\n", sec->title, ri->source, a, b);
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
    if (ri->partial) fprintf(o, "  PARTIAL       %s\n", ri->partial_reason);
    if (ri->counters)
        fprintf(o, "  dropped       %" PRIu64 " by the kernel, %" PRIu64 " by the interface%s\n", ri->kernel_drops,
                ri->interface_drops,
                report_lossy(ri) ? ": frames are missing, the counts below are lower bounds" : "");
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
}

static void section_conns(FILE *o, const ns_analyzer *a, const struct ns_section_info *sec)
{
    size_t n = ns_analyzer_conn_count(a);
    fprintf(o, "\n%s (%zu)\n", sec->title, n);
    if (!n) return;
    fprintf(o, "  %-5s %-4s %-28s %-28s %8s %8s %12s %12s %10s\n", "id", "tr", "client", "server", "calls",
            "replies", "bytes>srv", "bytes>cli", "missing");
    for (uint32_t id = 1; id <= n; id++) {
        const struct ns_conn *c = ns_analyzer_conn(a, id);
        char cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN], ids[NS_CONN_NAME_LEN];
        ns_endpoint_str(&c->client, cl, sizeof cl);
        ns_endpoint_str(&c->server, sv, sizeof sv);
        fprintf(o, "  %-5s %-4s %-28s %-28s %8" PRIu64 " %8" PRIu64 " %12" PRIu64 " %12" PRIu64 " %10" PRIu64 "%s\n",
                ns_conn_name(c->id, ids, sizeof ids), ns_transport_name(c->transport), cl, sv, c->calls, c->replies,
                c->bytes_to_server, c->bytes_to_client, c->missing_bytes, c->mid_stream ? "  (mid-stream)" : "");
    }
}

static void section_ops(FILE *o, const struct ns_stats *st, const struct ns_section_info *sec)
{
    struct ns_op_row rows[NS_OPKEY_MAX];
    size_t n = ns_op_rows(st, rows, NS_OPKEY_MAX);
    fprintf(o, "\n%s (latency in microseconds; NFSv4 by main operation of the COMPOUND)\n", sec->title);
    if (!n) return;
    fprintf(o, "  %-22s %8s %8s %8s %10s %10s %10s %10s %10s\n", "operation", "count", "in-cpd", "errors", "mean", "p50",
            "p95", "p99", "max");
    for (size_t i = 0; i < n; i++) {
        const struct ns_op_stats *s = rows[i].s;
        struct ns_latency_summary l;
        ns_latency_summarize(&s->latency, &l);
        if (l.count)
            fprintf(o, "  %-22s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %10.1f %10.1f %10.1f %10.1f %10.1f\n", rows[i].name,
                    s->count, s->in_compounds, s->errors, us(l.mean_ns), us(l.p50_ns), us(l.p95_ns), us(l.p99_ns),
                    us(l.max_ns));
        else
            fprintf(o, "  %-22s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %10s %10s %10s %10s %10s\n", rows[i].name, s->count,
                    s->in_compounds, s->errors, "-", "-", "-", "-", "-");
    }
}

static void section_status(FILE *o, const struct ns_stats *st, const struct ns_section_info *sec)
{
    struct ns_status_row rows[NS_STATUS_SLOTS];
    size_t n = ns_status_rows(st, rows, NS_STATUS_SLOTS);
    fprintf(o, "\n%s\n", sec->title);
    for (size_t i = 0; i < n; i++) fprintf(o, "  %-36s %10" PRIu64 "\n", rows[i].name, rows[i].count);
}

static void line_if(FILE *o, const char *what, uint64_t v)
{
    if (v) fprintf(o, "  %-44s %" PRIu64 "\n", what, v);
}

static void section_skipped(FILE *o, const struct ns_stats *st, const struct ns_section_info *sec)
{
    fprintf(o, "\n%s\n", sec->title);
    uint64_t any = st->frames_undecodable | st->tcp_truncated_bytes | st->tcp_gaps | st->tcp_resyncs |
                   st->decode_truncated | st->decode_invalid | st->nfs4_unknown_ops | st->evicted_flows |
                   st->evicted_pending_calls | st->evicted_ooo_bytes | st->evicted_fragments | st->evicted_conn_messages | st->evicted_op_stats |
                   st->ip_fragments_incomplete | st->rpc_calls_timed_out | st->rpc_calls_cut_by_end |
                   st->nfs2_calls | st->udp_not_rpc | st->tcp_syn_ignored | st->tcp_rst_ignored;
    if (!any) { fputs("  nothing\n", o); return; }
    line_if(o, "frames with undecodable link/IP/TCP headers", st->frames_undecodable);
    line_if(o, "TCP bytes not captured (snapshot length)", st->tcp_truncated_bytes);
    line_if(o, "TCP gaps (bytes never captured)", st->tcp_gaps);
    line_if(o, "TCP gap bytes", st->tcp_gap_bytes);
    line_if(o, "RPC record resynchronisations", st->tcp_resyncs);
    line_if(o, "RPC messages cut short by missing bytes", st->decode_truncated);
    line_if(o, "RPC messages that did not decode", st->decode_invalid);
    line_if(o, "COMPOUNDs stopped at an unknown operation", st->nfs4_unknown_ops);
    line_if(o, "IP datagrams missing fragments", st->ip_fragments_incomplete);
    line_if(o, "RPC calls cut off by the end of the capture", st->rpc_calls_cut_by_end);
    line_if(o, "NFSv2 calls (not decoded)", st->nfs2_calls);
    line_if(o, "UDP datagrams on an RPC port that are not RPC", st->udp_not_rpc);
    line_if(o, "TCP SYNs inside an established stream (ignored)", st->tcp_syn_ignored);
    line_if(o, "TCP RSTs off the expected sequence (ignored)", st->tcp_rst_ignored);
    line_if(o, "evicted: flows (memory cap)", st->evicted_flows);
    line_if(o, "evicted: outstanding calls (memory cap)", st->evicted_pending_calls);
    line_if(o, "evicted: reassembly bytes (memory cap)", st->evicted_ooo_bytes);
    line_if(o, "evicted: IP fragments (memory cap)", st->evicted_fragments);
    line_if(o, "evicted: RPC messages of connections over the cap", st->evicted_conn_messages);
    line_if(o, "evicted: per-operation counters (memory cap)", st->evicted_op_stats);
}

/* The sections, their order and which are left out come from the view. */
void report_text(FILE *o, ns_analyzer *a, const struct report_info *ri)
{
    const struct ns_stats *st = ns_analyzer_stats(a);
    struct ns_section_info sec[NS_SECTIONS];
    ns_report_sections(a, sec);
    for (int i = 0; i < NS_SECTIONS; i++) {
        const struct ns_section_info *s = &sec[i];
        if (!s->shown) continue;
        switch (s->id) {
        case NS_SECTION_CAPTURE: section_capture(o, st, ri, s); break;
        case NS_SECTION_RPC: section_rpc(o, st, s); break;
        case NS_SECTION_CONNECTIONS: section_conns(o, a, s); break;
        case NS_SECTION_OPERATIONS: section_ops(o, st, s); break;
        case NS_SECTION_STATUS: section_status(o, st, s); break;
        case NS_SECTION_CLIENTS: report_clients_text(o, a, s); break;
        case NS_SECTION_SESSIONS: report_sessions_text(o, a, s); break;
        case NS_SECTION_UDP: report_udp_text(o, a, s); break;
        case NS_SECTION_READ_PLUS: report_read_plus_text(o, a, s); break;
        case NS_SECTION_FINDINGS: report_findings_text(o, a, s, report_lossy(ri)); break;
        case NS_SECTION_NOT_ANALYSED: section_skipped(o, st, s); break;
        case NS_SECTIONS: break;
        }
        if (report_lossy(ri) && counts_frames(s->id))
            fprintf(o, "  (lower bounds: the capture dropped %" PRIu64 " frames)\n",
                    ri->kernel_drops + ri->interface_drops);
    }
}
