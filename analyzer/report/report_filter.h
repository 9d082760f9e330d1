/* Narrowing the report (nfsscope/report.h: ns_report_filter_new ...): what
 * the printers ask a filter. Every question answers "yes" for a NULL
 * filter. */
#ifndef NFSSCOPE_REPORT_FILTER_H
#define NFSSCOPE_REPORT_FILTER_H
#include <stdbool.h>
#include <stdint.h>

#include "nfsscope/nfsscope.h"
#include "nfsscope/report.h"
#include "nfsscope/udp_timing.h"

/* "client 10.0.0.1, session 5eed..., from +10 to 10:00:20" */
const char *filter_describe(const struct ns_report_filter *f);
/* Transactions seen and matched so far. */
uint64_t filter_matched(const struct ns_report_filter *f);
uint64_t filter_seen(const struct ns_report_filter *f);
/* The window in packet time, once the capture's start is known: false
 * when no --from/--to was given. */
bool filter_window(const struct ns_report_filter *f, int64_t *from_ns, int64_t *to_ns);

/* The figures of the matching transactions: rpc_*, ops[], status[] (the
 * rest zero). Valid until ns_report_filter_free. */
const struct ns_stats *filter_stats(const struct ns_report_filter *f);

/* What the report lists. */
bool filter_shows_conn(const struct ns_report_filter *f, uint32_t conn_id);
bool filter_shows_session(const struct ns_report_filter *f, const uint8_t *sessionid, bool has_client,
                          uint64_t clientid);
bool filter_shows_client(const struct ns_report_filter *f, uint64_t clientid);
bool filter_shows_finding(const struct ns_report_filter *f, const struct ns_finding *x);
bool filter_shows_udp_pair(const struct ns_report_filter *f, const struct ns_udp_pair *p);

#endif
