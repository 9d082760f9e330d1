/* Narrowing the report after decoding (--client, --server, --session,
 * --clientid, --from, --to): which transactions, connections, sessions,
 * clients, findings and UDP pairs the report shows, and the RPC,
 * operation and status figures of the transactions that match (computed
 * here from the transaction callback, as the analyzer computes them for
 * the whole capture). A BPF filter cannot do this: a session spans
 * connections, and a connection's bytes are needed to decode any of it. */
#ifndef NFSSCOPE_CLI_FILTER_H
#define NFSSCOPE_CLI_FILTER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/nfsscope.h"
#include "nfsscope/udp_timing.h"

/* A time of --from/--to: seconds from the capture's first frame, an
 * absolute UTC time, or a time of day on the capture's first day (UTC). */
struct filter_time {
    enum { FILTER_TIME_NONE = 0, FILTER_TIME_RELATIVE, FILTER_TIME_ABSOLUTE, FILTER_TIME_OF_DAY } kind;
    int64_t ns;
};

struct filter_spec {
    const char *client, *server, *session, *clientid; /* as given */
    struct filter_time from, to;
    const char *from_text, *to_text;
};

/* Parse one option's value into spec; false with a one-line reason. */
bool filter_parse_addr(const char *s, bool with_port, char *err, size_t errlen);
bool filter_parse_time(const char *s, struct filter_time *t, char *err, size_t errlen);
bool filter_parse_hex(const char *s, size_t min_digits, size_t max_digits, char *err, size_t errlen);

struct filter;

/* NULL when spec asks for nothing (no filter); sets *oom on failure. */
struct filter *filter_new(const struct filter_spec *spec, ns_analyzer *a, bool *oom);
void filter_free(struct filter *f);

/* ns_txn_fn: counts the transactions that match; then calls next. */
void filter_on_txn(void *ctx, const struct ns_txn *t);
void filter_chain(struct filter *f, ns_txn_fn next, void *next_ctx);

/* "client 10.0.0.1, session 5eed..., from +10 to 10:00:20" */
const char *filter_describe(const struct filter *f);
/* Transactions seen and matched so far. */
uint64_t filter_matched(const struct filter *f);
uint64_t filter_seen(const struct filter *f);
/* The window in packet time, once the capture's start is known: false
 * when no --from/--to was given. */
bool filter_window(const struct filter *f, int64_t *from_ns, int64_t *to_ns);

/* The figures of the matching transactions: rpc_*, ops[], status[] (the
 * rest zero). Valid until filter_free. */
const struct ns_stats *filter_stats(const struct filter *f);

/* What the report lists. Each is true when f is NULL. */
bool filter_shows_conn(const struct filter *f, uint32_t conn_id);
bool filter_shows_session(const struct filter *f, const uint8_t *sessionid, bool has_client, uint64_t clientid);
bool filter_shows_client(const struct filter *f, uint64_t clientid);
bool filter_shows_finding(const struct filter *f, const struct ns_finding *x);
bool filter_shows_udp_pair(const struct filter *f, const struct ns_udp_pair *p);

#endif
