/* The "UDP transport" section (text) and udp[], udp_pairs[] (JSON):
 * RTT, the Linux client's RTO, retransmissions and fragment losses per
 * client/server pair and timer class (doc/json-report.md). */
#include <inttypes.h>

#include "json_write.h"
#include "report_int.h"
#include "text_table.h"
#include "nfsscope/udp_timing.h"

/* ns as milliseconds with 6 decimals, exact. */
static void ms(FILE *o, int64_t ns)
{
    if (ns < 0) { fputs("null", o); return; }
    fprintf(o, "%" PRId64 ".%06" PRId64, ns / 1000000, ns % 1000000);
}

static double msd(int64_t ns) { return (double)ns / 1e6; }

/* Transmissions of the most resent call: the analyzer counts resends, so a
 * class without any has every call sent once (and no call: none). */
static uint32_t sends_max(const struct ns_udp_class *c) { return c->sends_max ? c->sends_max : c->calls ? 1 : 0; }

uint64_t report_first_fragment_only(ns_analyzer *a)
{
    uint64_t n = 0;
    for (size_t i = 0; i < ns_analyzer_udp_pair_count(a); i++) {
        const struct ns_udp_pair *p = ns_analyzer_udp_pair(a, i);
        if (p->incomplete_datagrams && p->fragments_max <= 1) n += p->incomplete_datagrams;
    }
    return n;
}

void report_udp_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec, const struct ns_report_filter *flt)
{
    size_t n = ns_analyzer_udp_pair_count(a);
    int64_t span = ns_capture_span_ns(ns_analyzer_stats(a));
    fprintf(o, "\n%s (per client/server and Linux timer class; times in ms; srtt/rttvar/rto as a Linux "
               "client would compute them)\n", sec->title);
    for (size_t i = 0; i < n; i++) {
        const struct ns_udp_pair *p = ns_analyzer_udp_pair(a, i);
        if (!filter_shows_udp_pair(flt, p)) continue;
        char cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN];
        ns_addr_str(&p->client, cl, sizeof cl); /* any client port */
        ns_endpoint_str(&p->server, sv, sizeof sv);
        struct ns_udp_totals t;
        ns_udp_pair_totals(p, &t);
        fprintf(o, "  %s -> %s  calls %" PRIu64 "  retransmissions %" PRIu64 "  major timeouts %" PRIu64
                   "  waited on timeouts %.3f s (%.1f%% of the capture)\n",
                cl, sv, t.calls, t.retransmissions, p->major_timeouts, (double)p->wait_ns / 1e9,
                ns_percent((double)p->wait_ns, (double)span));
        if (p->fragmented_datagrams)
            fprintf(o, "    IP fragmentation: %" PRIu64 " datagrams, %" PRIu64 " incomplete (%" PRIu64
                       " without RPC header, %" PRIu64 " replies not resent), up to %u fragments of up to %u bytes, "
                       "MTU ~%u; replies lost to fragments %" PRIu64 "\n",
                    p->fragmented_datagrams, p->incomplete_datagrams, p->incomplete_no_header,
                    p->incomplete_not_resent, p->fragments_max, p->fragment_max_bytes, p->mtu, t.lost_to_fragments);
        /* two tables, each readable at 100 columns: round trips, then resends */
        static const char *const heads[] = {"class", "calls", "unans", "rtt-n", "rtt-min", "rtt-mean", "srtt", "rttvar",
                                            "rto"};
        static const char *const heads2[] = {"class", "resent", "sends", "gap-max", "gap/tmo", "gap/rto", "spur", "dupr",
                                             "fragl", "loss%"};
        struct table *tb = table_new("lrrrrrrrr", heads), *tb2 = table_new("lrrrrrrrrr", heads2);
        for (unsigned k = 0; k < NS_UDP_TIMERS; k++) {
            const struct ns_udp_class *c = &p->cls[k];
            if (!ns_udp_class_used(c)) continue;
            struct ns_udp_class_means m;
            ns_udp_class_means(c, &m);
            char rmin[16] = "-", rmean[16] = "-", srtt[16] = "-", dev[16] = "-", gmax[16] = "-", tmo[16] = "-",
                 rr[16] = "-";
            if (c->rtt_samples) {
                snprintf(rmin, sizeof rmin, "%.3f", msd(c->rtt_min_ns));
                snprintf(rmean, sizeof rmean, "%.3f", msd(m.rtt_mean_ns));
            }
            if (k) {
                snprintf(srtt, sizeof srtt, "%.3f", msd(c->srtt_ns));
                snprintf(dev, sizeof dev, "%.3f", msd(c->rttvar_ns));
            }
            if (c->retransmissions) {
                snprintf(gmax, sizeof gmax, "%.3f", msd(c->gap_max_ns));
                if (m.timed_resends) snprintf(tmo, sizeof tmo, "%.2f", m.timeout_ratio_mean);
                snprintf(rr, sizeof rr, "%.2f", c->rto_ratio_max);
            }
            table_cell(tb, "%s", ns_udp_timer_name(k));
            table_cell(tb, "%" PRIu64, c->calls);
            table_cell(tb, "%" PRIu64, c->unanswered);
            table_cell(tb, "%" PRIu64, c->rtt_samples);
            table_cell(tb, "%s", rmin);
            table_cell(tb, "%s", rmean);
            table_cell(tb, "%s", srtt);
            table_cell(tb, "%s", dev);
            table_cell(tb, "%.3f", msd(c->rto_ns));
            table_row_end(tb);
            table_cell(tb2, "%s", ns_udp_timer_name(k));
            table_cell(tb2, "%" PRIu64, c->retransmissions);
            table_cell(tb2, "%u", sends_max(c));
            table_cell(tb2, "%s", gmax);
            table_cell(tb2, "%s", tmo);
            table_cell(tb2, "%s", rr);
            table_cell(tb2, "%" PRIu64, c->spurious);
            table_cell(tb2, "%" PRIu64, c->dup_replies);
            table_cell(tb2, "%" PRIu64, c->lost_to_fragments);
            table_cell(tb2, "%.1f", 100.0 * ns_udp_loss_rate(c));
            table_row_end(tb2);
        }
        table_print(tb, o, 4);
        table_print(tb2, o, 4);
    }
    uint64_t ep = ns_analyzer_udp_evicted_pairs(a), er = ns_analyzer_udp_evicted_resends(a);
    if (ep || er)
        fprintf(o, "  (memory cap: %" PRIu64 " pairs evicted, %" PRIu64 " resend records overwritten)\n", ep, er);
}

static void kv_u(FILE *o, const char *k, uint64_t v) { fprintf(o, ",\"%s\":%" PRIu64, k, v); }
static void kv_ms(FILE *o, const char *k, int64_t ns) { fprintf(o, ",\"%s\":", k); ms(o, ns); }
static void kv_d(FILE *o, const char *k, double v) { fprintf(o, ",\"%s\":%.4f", k, v); }

static void endpoints_json(FILE *o, const struct ns_udp_pair *p)
{
    char cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN];
    ns_addr_str(&p->client, cl, sizeof cl);
    ns_endpoint_str(&p->server, sv, sizeof sv);
    fputs("{\"client\":", o);
    json_cstr(o, cl);
    fputs(",\"server\":", o);
    json_cstr(o, sv);
}

void report_udp_json(FILE *o, ns_analyzer *a, const struct ns_report_filter *flt)
{
    size_t n = ns_analyzer_udp_pair_count(a);
    int64_t span = ns_capture_span_ns(ns_analyzer_stats(a));
    fputs(",\"udp\":[", o);
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        const struct ns_udp_pair *p = ns_analyzer_udp_pair(a, i);
        if (!filter_shows_udp_pair(flt, p)) continue;
        for (unsigned k = 0; k < NS_UDP_TIMERS; k++) {
            const struct ns_udp_class *c = &p->cls[k];
            if (!ns_udp_class_used(c)) continue;
            struct ns_udp_class_means m;
            ns_udp_class_means(c, &m);
            if (!first) fputc(',', o);
            first = false;
            endpoints_json(o, p);
            fputs(",\"timer_class\":", o);
            json_cstr(o, ns_udp_timer_name(k));
            kv_u(o, "calls", c->calls);
            kv_u(o, "answered", c->answered);
            kv_u(o, "unanswered", c->unanswered);
            kv_u(o, "rtt_samples", c->rtt_samples);
            kv_ms(o, "rtt_min_ms", c->rtt_samples ? c->rtt_min_ns : -1);
            kv_ms(o, "rtt_mean_ms", m.rtt_mean_ns);
            kv_ms(o, "rtt_max_ms", c->rtt_samples ? c->rtt_max_ns : -1);
            kv_ms(o, "srtt_ms", k ? c->srtt_ns : -1);
            kv_ms(o, "rttvar_ms", k ? c->rttvar_ns : -1);
            kv_ms(o, "rto_ms", c->rto_ns);
            kv_u(o, "retransmissions", c->retransmissions);
            kv_u(o, "retransmitted_calls", c->retransmitted_calls);
            kv_u(o, "sends_max", sends_max(c));
            kv_ms(o, "gap_min_ms", c->retransmissions ? c->gap_min_ns : -1);
            kv_ms(o, "gap_mean_ms", m.gap_mean_ns);
            kv_ms(o, "gap_max_ms", c->retransmissions ? c->gap_max_ns : -1);
            if (m.timed_resends) {
                kv_d(o, "timeout_ratio_mean", m.timeout_ratio_mean);
                kv_d(o, "timeout_ratio_max", c->timeout_ratio_max);
                kv_d(o, "rto_ratio_max", c->rto_ratio_max);
            } else {
                fputs(",\"timeout_ratio_mean\":null,\"timeout_ratio_max\":null,\"rto_ratio_max\":null", o);
            }
            if (m.timed_resends && c->rtt_ratio_max > 0) kv_d(o, "rtt_ratio_max", c->rtt_ratio_max);
            else fputs(",\"rtt_ratio_max\":null", o);
            kv_u(o, "backoff_doubling", c->backoff_doubling);
            kv_u(o, "backoff_other", c->backoff_other);
            kv_u(o, "major_timeouts", c->major_timeouts);
            kv_u(o, "inflated", c->inflated);
            kv_u(o, "late_retransmissions", c->late_retransmissions);
            kv_u(o, "spurious", c->spurious);
            kv_u(o, "dup_replies", c->dup_replies);
            kv_u(o, "fragmented_replies", c->fragmented_replies);
            kv_u(o, "lost_to_fragments", c->lost_to_fragments);
            kv_d(o, "loss_rate", ns_udp_loss_rate(c));
            fputc('}', o);
        }
    }
    fputs("],\"udp_pairs\":[", o);
    first = true;
    for (size_t i = 0; i < n; i++) {
        const struct ns_udp_pair *p = ns_analyzer_udp_pair(a, i);
        if (!filter_shows_udp_pair(flt, p)) continue;
        if (!first) fputc(',', o);
        first = false;
        endpoints_json(o, p);
        struct ns_udp_totals t;
        ns_udp_pair_totals(p, &t);
        kv_u(o, "calls", t.calls);
        kv_u(o, "retransmissions", t.retransmissions);
        kv_u(o, "major_timeouts", p->major_timeouts);
        kv_ms(o, "wait_ms", p->wait_ns);
        kv_d(o, "wait_share", ns_share((double)p->wait_ns, (double)span));
        kv_u(o, "fragmented_datagrams", p->fragmented_datagrams);
        kv_u(o, "incomplete_datagrams", p->incomplete_datagrams);
        kv_u(o, "incomplete_no_header", p->incomplete_no_header);
        kv_u(o, "incomplete_not_resent", p->incomplete_not_resent);
        kv_u(o, "lost_to_fragments", t.lost_to_fragments);
        if (p->mtu) kv_u(o, "mtu", p->mtu); else fputs(",\"mtu\":null", o); /* no fragment: unknown */
        kv_u(o, "fragment_max_bytes", p->fragment_max_bytes);
        kv_u(o, "fragments_max", p->fragments_max);
        fputc('}', o);
    }
    fprintf(o, "],\"udp_evicted\":{\"pairs\":%" PRIu64 ",\"resends\":%" PRIu64 "}", ns_analyzer_udp_evicted_pairs(a),
            ns_analyzer_udp_evicted_resends(a));
}
