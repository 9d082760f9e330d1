/* A front end written against an older API (version 4, the headers kept in
 * tests/api/v4/), built twice: against those old headers and against the
 * current ones, both linked with the current core. Both builds must print
 * the same bytes for every capture: the library serves a front end of an
 * older version within its range (nfsscope.h, "API versions") with the
 * layouts that front end knows. Uses only what version 4 declares.
 *
 *   frontend_compat CAPTURE...     (prints a digest of every result it reads) */
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#include "feed_capture.h"
#include "nfsscope/nfsscope.h"
#include "nfsscope/view.h"

struct seen {
    uint64_t txns, id_sum, frame_sum, lat_sum, nops_sum, status_sum;
    uint64_t events[32], ev_frame_sum, ev_slot_sum, ev_outstanding_sum;
};

static void on_txn(void *ctx, const struct ns_txn *t)
{
    struct seen *s = ctx;
    s->txns++;
    s->id_sum += t->id * (t->xid | 1u);
    s->frame_sum += t->call_frame * 3 + t->reply_frame;
    int64_t l = ns_txn_latency_ns(t);
    s->lat_sum += l > 0 ? (uint64_t)l : 0;
    s->nops_sum += ns_txn_nops(t) + t->proc + t->vers * 100 + t->conn_id * 7;
    s->status_sum += t->status + t->rpc_status + t->sends + t->call_bytes + t->reply_bytes;
}

static void on_event(void *ctx, const struct ns_event *ev)
{
    struct seen *s = ctx;
    s->events[ev->kind & 31]++;
    s->ev_frame_sum += ev->frame + ev->txn_id + ev->conn_id;
    if (ev->has_slot) s->ev_slot_sum += ev->slot * 1000003u + ev->seqid + ev->slot_verdict;
    s->ev_outstanding_sum += ev->outstanding + ev->granted + ev->send_no;
}

static void print_stats(const struct ns_stats *st)
{
    printf("frames %" PRIu64 " bytes %" PRIu64 " span %" PRId64 "\n", st->frames, st->bytes,
           st->last_ts_ns - st->first_ts_ns);
    printf("rpc calls %" PRIu64 " replies %" PRIu64 " unmatched %" PRIu64 " orphans %" PRIu64
           " retrans %" PRIu64 " dup %" PRIu64 " txns %" PRIu64 "\n",
           st->rpc_calls, st->rpc_replies, st->rpc_unmatched_calls, st->rpc_orphan_replies,
           st->rpc_retransmissions, st->rpc_dup_replies, st->txns);
    printf("tcp segments %" PRIu64 " ooo %" PRIu64 " retrans %" PRIu64 " gaps %" PRIu64 " gap bytes %" PRIu64
           " resyncs %" PRIu64 "\n",
           st->tcp_segments, st->tcp_out_of_order, st->tcp_retransmitted, st->tcp_gaps, st->tcp_gap_bytes,
           st->tcp_resyncs);
    printf("decode truncated %" PRIu64 " invalid %" PRIu64 " versions %#x cut-by-end %" PRIu64
           " evicted conns %" PRIu64 " (%" PRIu64 " calls) ops cut %" PRIu64 " retired %" PRIu64 "\n",
           st->decode_truncated, st->decode_invalid, st->nfs_versions, st->rpc_calls_cut_by_end, st->evicted_conns,
           st->evicted_conns_sum.calls, st->nfs4_ops_cut, st->flows_retired_idle);
    struct ns_op_row rows[256];
    size_t n = ns_op_rows(st, rows, 256);
    for (size_t i = 0; i < n; i++)
        printf("op %s count %" PRIu64 " in-cpd %" PRIu64 " errors %" PRIu64 " lat n %" PRIu64 " sum %" PRIu64 "\n",
               rows[i].name, rows[i].s->count, rows[i].s->in_compounds, rows[i].s->errors,
               rows[i].s->latency.count, rows[i].s->latency.sum_ns);
    struct ns_status_row srows[NS_STATUS_SLOTS];
    n = ns_status_rows(st, srows, NS_STATUS_SLOTS);
    for (size_t i = 0; i < n; i++) printf("status %s %" PRIu64 "\n", srows[i].name, srows[i].count);
}

static void print_results(ns_analyzer *a)
{
    print_stats(ns_analyzer_stats(a));
    for (uint32_t id = 1; id <= ns_analyzer_conn_count(a); id++) {
        const struct ns_conn *c = ns_analyzer_conn(a, id);
        if (!c) { printf("c%u dropped\n", id); continue; }
        printf("c%u %s frames %" PRIu64 " calls %" PRIu64 " replies %" PRIu64 " bytes %" PRIu64 "/%" PRIu64
               " missing %" PRIu64 " gaps %u mid %d closed %d\n",
               c->id, ns_transport_name(c->transport), c->frames, c->calls, c->replies, c->bytes_to_server,
               c->bytes_to_client, c->missing_bytes, c->gaps, c->mid_stream, c->closed);
    }
    const struct ns_finding *const *f;
    size_t nf = ns_analyzer_findings(a, &f);
    for (size_t i = 0; i < nf; i++)
        printf("finding %u %s %s count %" PRIu64 " frames %u conns %u [%s] (%s)\n", f[i]->id, f[i]->kind,
               ns_severity_name(f[i]->severity), f[i]->count, f[i]->nframes, f[i]->nconns, f[i]->message,
               f[i]->rfc);
    for (size_t i = 0; i < ns_analyzer_session_count(a); i++) {
        const struct ns_session_view *s = ns_analyzer_session(a, i);
        char sid[40];
        ns_hex_str(s->sessionid, NS_SESSIONID_LEN, sid, sizeof sid);
        printf("session %s client %" PRIx64 " calls %" PRIu64 " replies %" PRIu64 " errors %" PRIu64
               " granted %u highest %u max-out %u conns %u slots %u\n",
               sid, s->clientid, s->calls, s->replies, s->errors, s->granted_slots, s->highest_slot_used,
               s->max_outstanding, s->nconns, s->nslots);
        for (uint32_t k = 0; k < s->nslots; k++)
            if (s->slots[k].used)
                printf("  slot %u calls %" PRIu64 " last %u ok %u\n", k, s->slots[k].calls,
                       s->slots[k].last_call_seqid, s->slots[k].last_ok_seqid);
    }
    for (size_t i = 0; i < ns_analyzer_client_count(a); i++) {
        const struct ns_client_view *c = ns_analyzer_client(a, i);
        printf("client %" PRIx64 "\n", c->clientid);
    }
    for (size_t i = 0; i < ns_analyzer_udp_pair_count(a); i++) {
        const struct ns_udp_pair *p = ns_analyzer_udp_pair(a, i);
        struct ns_udp_totals t;
        ns_udp_pair_totals(p, &t);
        printf("udp pair %zu calls %" PRIu64 "\n", i, t.calls);
    }
}

static int run(const char *path)
{
    struct ns_config cfg = NS_CONFIG_INIT;
    char err[NS_ERRBUF_SIZE];
    ns_analyzer *a = ns_analyzer_new(&cfg, err, sizeof err);
    if (!a) { fprintf(stderr, "frontend_compat: %s\n", err); return 1; }
    struct seen s;
    memset(&s, 0, sizeof s);
    ns_analyzer_on_txn(a, on_txn, &s);
    ns_analyzer_on_event(a, on_event, &s);
    if (!feed_capture("frontend_compat", path, a, NULL, NULL)) { ns_analyzer_free(a); return 1; }
    ns_analyzer_finish(a);
    printf("== %s\n", strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
    printf("txns %" PRIu64 " ids %" PRIu64 " frames %" PRIu64 " latency %" PRIu64 " ops %" PRIu64 " status %" PRIu64 "\n",
           s.txns, s.id_sum, s.frame_sum, s.lat_sum, s.nops_sum, s.status_sum);
    printf("events");
    for (int k = 0; k < 32; k++)
        if (s.events[k]) printf(" %s %" PRIu64, ns_event_kind_name((uint8_t)k), s.events[k]);
    printf("; frames %" PRIu64 " slots %" PRIu64 " outstanding %" PRIu64 "\n", s.ev_frame_sum, s.ev_slot_sum,
           s.ev_outstanding_sum);
    print_results(a);
    ns_analyzer_free(a);
    return 0;
}

int main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++) rc |= run(argv[i]);
    return rc;
}
