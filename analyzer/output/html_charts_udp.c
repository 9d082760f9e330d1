/* UDP chart of one client/server pair: measured RTT samples, the Linux
 * client's SRTT and RTO, retransmissions and major timeouts over time. */
#include <inttypes.h>
#include <string.h>

#include "html_int.h"
#include "nfsscope/view.h"

static const struct series_pair *series_pair_of(const struct series *s, const struct ns_udp_pair *u)
{
    for (unsigned i = 0; i < s->npairs; i++)
        if (memcmp(&s->pair[i].client, &u->client, sizeof u->client) == 0 &&
            memcmp(&s->pair[i].server, &u->server, sizeof u->server) == 0)
            return &s->pair[i];
    return NULL;
}

static double ms(int64_t ns) { return (double)ns / 1e6; }

void chart_udp_pair(struct page *p, size_t idx)
{
    const struct ns_udp_pair *u = ns_analyzer_udp_pair(p->a, idx);
    const struct series_pair *sp = u ? series_pair_of(p->s, u) : NULL;
    if (!u || (!sp && p->s->pairs_dropped)) return; /* beyond the charted pairs: counted in Not analysed */
    char cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN], id[32], title[256];
    ns_addr_str(&u->client, cl, sizeof cl);
    ns_endpoint_str(&u->server, sv, sizeof sv);
    snprintf(id, sizeof id, "udp-%zu", idx);
    snprintf(title, sizeof title, "UDP %s \xe2\x86\x92 %s: RTT, SRTT and RTO (Linux client), retransmissions", cl, sv);
    unsigned n = p->s->nbuckets;
    struct ns_udp_totals t;
    ns_udp_pair_totals(u, &t);
    /* the legend lists what is drawn: a pair without replies to time has no
     * SRTT, most have no retransmission; a pair with none of them has no
     * chart (the series keep a pair from its first reply or resend) */
    unsigned samples = 0, resends = 0, majors = 0, timed = 0;
    for (unsigned i = 0; sp && i < n; i++) {
        samples += sp->pt[i].rtt_n;
        resends += sp->pt[i].resends;
        majors += sp->pt[i].major;
        timed += sp->pt[i].srtt || sp->pt[i].rto;
    }
    if (!samples && !resends && !majors && !timed) {
        snprintf(title, sizeof title, "UDP %s \xe2\x86\x92 %s: %" PRIu64 " calls, no reply timed and no retransmission: nothing to chart.",
                 cl, sv, t.calls);
        chart_none(p->f, id, title);
        return;
    }
    double lo = 1e30, hi = 0;
    for (unsigned i = 0; i < n; i++) {
        const struct series_pair_pt *pt = &sp->pt[i];
        /* the axis from the values it can hold: an RTT of 0 (a reply in its
         * call's microsecond) is marked below it */
        if (pt->rtt_n && pt->rtt_min > 0 && ms(pt->rtt_min) < lo) lo = ms(pt->rtt_min);
        if (pt->rtt_n && pt->rtt_sum > 0 && ms(pt->rtt_sum) / pt->rtt_n < lo) lo = ms(pt->rtt_sum) / pt->rtt_n;
        if (pt->rtt_n && ms(pt->rtt_max) > hi) hi = ms(pt->rtt_max);
        if (pt->srtt && ms(pt->srtt) < lo) lo = ms(pt->srtt);
        if (pt->rto && ms(pt->rto) > hi) hi = ms(pt->rto);
        if (pt->srtt && ms(pt->srtt) > hi) hi = ms(pt->srtt);
    }
    if (!(hi > 0)) { lo = 0.1; hi = 1000; }
    if (lo > hi) lo = hi / 10;
    struct chart c;
    char xl[96], w[32];
    page_interval(p, w, sizeof w);
    snprintf(xl, sizeof xl, "time since the capture start (s); one point per %s", w);
    chart_begin(&c, p->f, id, title, 0);
    c.yunit = "ms";
    chart_axes(&c, 0, p->span_s, lo, hi, true, xl, "time (ms, log scale)");
    double x[SERIES_BUCKETS + 1], srtt[SERIES_BUCKETS + 1], rto[SERIES_BUCKETS + 1];
    double last_s = -1, last_r = -1;
    for (unsigned i = 0; i < n; i++) {
        const struct series_pair_pt *pt = &sp->pt[i];
        x[i] = page_bucket_x(p, i);
        if (pt->srtt) last_s = ms(pt->srtt);
        if (pt->rto) last_r = ms(pt->rto);
        srtt[i] = last_s;
        rto[i] = last_r;
    }
    x[n] = page_bucket_x(p, n);
    srtt[n] = last_s;
    rto[n] = last_r;
    chart_line(&c, x, srtt, (int)n + 1, svg_color(2), false, true, "series srtt");
    chart_line(&c, x, rto, (int)n + 1, svg_color(4), true, true, "series rto");
    for (unsigned i = 0; i < n; i++) {
        const struct series_pair_pt *pt = &sp->pt[i];
        double mid = page_bucket_x(p, i) + page_bucket_w(p) / 2;
        char tip[160];
        if (pt->rtt_n) {
            double mean = ms(pt->rtt_sum) / pt->rtt_n;
            snprintf(tip, sizeof tip, "%" PRIu32 " RTT sample(s) at %.3f s: mean %.3f ms, %.3f..%.3f ms", pt->rtt_n,
                     page_bucket_x(p, i), mean, ms(pt->rtt_min), ms(pt->rtt_max));
            if (pt->rtt_max > pt->rtt_min) {
                double wx[2] = {mid, mid}, wy[2] = {ms(pt->rtt_min), ms(pt->rtt_max)};
                chart_line(&c, wx, wy, 2, svg_color(0), false, false, "series rttrange");
            }
            chart_dot(&c, mid, mean, svg_color(0), tip);
        }
        if (pt->resends) {
            snprintf(tip, sizeof tip, "%" PRIu32 " retransmission(s) at %.3f s", pt->resends, page_bucket_x(p, i));
            chart_vmark(&c, mid, svg_color(3), tip, false);
        }
        if (pt->major) {
            snprintf(tip, sizeof tip, "%" PRIu32 " major timeout(s) at %.3f s", pt->major, page_bucket_x(p, i));
            chart_vmark(&c, mid, svg_color(1), tip, true);
        }
    }
    if (samples) chart_legend(&c, svg_color(0), "RTT samples (mean, min..max)", false);
    if (last_s > 0) chart_legend(&c, svg_color(2), "SRTT", false);
    if (last_r > 0) chart_legend(&c, svg_color(4), "RTO", true);
    if (resends) chart_legend(&c, svg_color(3), "retransmissions (ticks)", false);
    if (majors) chart_legend(&c, svg_color(1), "major timeouts", false);
    char cap[240];
    snprintf(cap, sizeof cap,
             "%" PRIu64 " calls, %" PRIu64 " retransmissions, %" PRIu64 " major timeouts, %" PRIu64
             " replies lost to IP fragments. SRTT and RTO as the Linux client's estimator gives them after each reply (all timer classes).",
             t.calls, t.retransmissions, u->major_timeouts, t.lost_to_fragments);
    chart_end(&c, cap);
}
