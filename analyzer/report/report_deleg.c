/* A client's delegations and lease: the lines under each client in the
 * "Clients" section (text) and clients[].delegations / .lease (JSON,
 * doc/json-report.md). */
#include <inttypes.h>

#include "report_int.h"

static double ms_of(uint64_t ns) { return (double)ns / 1e6; }

void report_deleg_text(FILE *o, const struct ns_client_view *c)
{
    const struct ns_delegations *d = c->delegations;
    const struct ns_lease *l = c->lease;
    if (!d || !l || (!d->granted && !d->recalled)) return;
    fprintf(o, "    delegations granted %" PRIu64 " (read %" PRIu64 ", write %" PRIu64 ")  recalled %" PRIu64
               "  returned %" PRIu64 "  revoked %" PRIu64 "  outstanding %" PRIu64 " (max %" PRIu64 ")\n",
            d->granted, d->granted_read, d->granted_write, d->recalled, d->returned, d->revoked, d->outstanding,
            d->outstanding_max);
    fprintf(o, "    lease %u s%s", l->lease_time_s, l->from_server ? " (server)" : " (default)");
    if (d->recall_to_return.count)
        fprintf(o, "  recall to return p50 %.3f ms  p99 %.3f ms  max %.3f ms (frame %" PRIu64 ")",
                ms_of(ns_latency_percentile_ns(&d->recall_to_return, 0.50)),
                ms_of(ns_latency_percentile_ns(&d->recall_to_return, 0.99)), ms_of(d->recall_to_return.max_ns),
                d->return_max_frame);
    if (d->recalls_past_lease) fprintf(o, "  recalls past the lease %" PRIu64, d->recalls_past_lease);
    if (d->errors_after_recall) fprintf(o, "  errors after recall %" PRIu64, d->errors_after_recall);
    if (d->recall_storms) fprintf(o, "  recall storms %" PRIu64 " (peak %" PRIu64 ")", d->recall_storms, d->recalls_peak);
    fputc('\n', o);
}

static void ku(FILE *o, const char *k, uint64_t v, bool first)
{
    fprintf(o, "%s\"%s\":%" PRIu64, first ? "" : ",", k, v);
}

void report_deleg_json(FILE *o, const struct ns_client_view *c)
{
    const struct ns_delegations *d = c->delegations;
    const struct ns_lease *l = c->lease;
    if (!d || !l) return;
    fputs(",\"delegations\":{", o);
    ku(o, "granted", d->granted, true);
    ku(o, "granted_read", d->granted_read, false);
    ku(o, "granted_write", d->granted_write, false);
    ku(o, "recalled", d->recalled, false);
    ku(o, "returned", d->returned, false);
    ku(o, "revoked", d->revoked, false);
    ku(o, "outstanding", d->outstanding, false);
    ku(o, "outstanding_max", d->outstanding_max, false);
    fputs(",\"recall_to_return_ms\":", o);
    if (d->recall_to_return.count)
        fprintf(o, "{\"count\":%" PRIu64 ",\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f,\"max_frame\":%" PRIu64 "}",
                d->recall_to_return.count, ms_of(ns_latency_percentile_ns(&d->recall_to_return, 0.50)),
                ms_of(ns_latency_percentile_ns(&d->recall_to_return, 0.99)), ms_of(d->recall_to_return.max_ns),
                d->return_max_frame);
    else
        fputs("null", o);
    ku(o, "returns_slow", d->returns_slow, false);
    ku(o, "recalls_past_lease", d->recalls_past_lease, false);
    ku(o, "errors_after_recall", d->errors_after_recall, false);
    ku(o, "recall_storms", d->recall_storms, false);
    ku(o, "recalls_peak", d->recalls_peak, false);
    fputs("},\"lease\":{", o);
    ku(o, "lease_time_s", l->lease_time_s, true);
    fprintf(o, ",\"from_server\":%s", l->from_server ? "true" : "false");
    ku(o, "renewals", l->renewals, false);
    fprintf(o, ",\"longest_gap_s\":%.3f", (double)l->longest_gap_ns / 1e9);
    ku(o, "gaps_past_lease", l->gaps_past_lease, false);
    fputc('}', o);
}
