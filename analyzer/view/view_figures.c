/* Figures derived from the analyzer's counters: shares, spans, latency
 * summaries, session connection totals. */
#include "nfsscope/view.h"

double ns_share(double part, double whole) { return whole > 0 ? part / whole : 0.0; }

/* 100 * part / whole, not 100 * share: the text report's percentages have
 * always been computed this way, and the last bit can change the rounding. */
double ns_percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

int64_t ns_capture_span_ns(const struct ns_stats *st) { return st->last_ts_ns - st->first_ts_ns; }

void ns_latency_summarize(const struct ns_latency *l, struct ns_latency_summary *out)
{
    *out = (struct ns_latency_summary){0};
    if (!l->count) return;
    out->count = l->count;
    out->mean_ns = l->sum_ns / l->count;
    out->p50_ns = ns_latency_percentile_ns(l, 0.50);
    out->p95_ns = ns_latency_percentile_ns(l, 0.95);
    out->p99_ns = ns_latency_percentile_ns(l, 0.99);
    out->max_ns = l->max_ns;
}

void ns_session_conn_totals(const struct ns_session_view *s, struct ns_session_conn_totals *out)
{
    *out = (struct ns_session_conn_totals){0};
    for (uint32_t k = 0; k < s->nconns && k < NS_SESSION_CONNS; k++) {
        out->calls += s->conns[k].calls;
        out->bytes += s->conns[k].bytes;
    }
}
