/* nfsscope's report, printed from an analyzer: the text report (readable at
 * 100 columns), the JSON report (doc/json-report.md) and the transaction log
 * (doc/txn-log.md), the same sections for every front end (the nfsscope
 * program, the Wireshark plugin's tshark statistics, any other).
 *
 * A library of its own on top of the core, which never prints:
 * libnfsscope_report.a, `pkg-config --cflags --libs nfsscope-report` (it
 * brings the core's flags). It reads the analyzer only through the core's
 * public API. Everything exported is declared here and named ns_report_*.
 *
 * Use: before feeding, hand transactions to ns_report_programs_on_txn (and,
 * to narrow the report, through a filter first); after ns_analyzer_finish,
 * print with ns_report_text or ns_report_json. */
#ifndef NFSSCOPE_REPORT_H
#define NFSSCOPE_REPORT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nfsscope/nfsscope.h"
#include "nfsscope/two_point.h"
#include "nfsscope/view.h"

#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

/* ---- Other RPC programs (MOUNT, portmap/rpcbind, NLM, NSM ...) ----
 * The analyzer counts their calls in the RPC totals; this keeps per
 * procedure counts and latency from the transactions it is handed, for the
 * report's "Other RPC programs" table (JSON programs[]). */
typedef struct ns_report_programs ns_report_programs;

/* next (may be NULL) is called with every transaction too, before it is
 * counted (the transaction log). NULL: out of memory. */
ns_report_programs *ns_report_programs_new(ns_txn_fn next, void *next_ctx);
void ns_report_programs_free(ns_report_programs *p);
/* ns_txn_fn for ns_analyzer_on_txn; ctx is the ns_report_programs. */
void ns_report_programs_on_txn(void *ctx, const struct ns_txn *t);

/* ---- Narrowing after decoding (--client, --server, --session,
 * --clientid, --from, --to) ----
 * Which transactions, connections, sessions, clients, findings and UDP pairs
 * the report shows, and the RPC, operation and status figures of the
 * transactions that match, counted by the analyzer's own rules
 * (ns_stats_add_txn_ops). A capture filter cannot do this: a session spans
 * connections, and a connection's bytes are needed to decode any of it. */

/* A time of --from/--to: seconds from the capture's first frame, an
 * absolute UTC time, or a time of day on the capture's first day (UTC). */
enum ns_report_time_kind {
    NS_REPORT_TIME_NONE = 0,
    NS_REPORT_TIME_RELATIVE,
    NS_REPORT_TIME_ABSOLUTE,
    NS_REPORT_TIME_OF_DAY,
};
struct ns_report_time {
    enum ns_report_time_kind kind;
    int64_t ns;
};

/* What to keep; NULL or NS_REPORT_TIME_NONE: no condition. The strings are
 * the options' values as given (the report repeats them), each checked by
 * the parser below. */
struct ns_report_narrow {
    const char *client;          /* an address */
    const char *server;          /* an address, ADDR:PORT or [V6]:PORT */
    const char *session;         /* 8 to 32 hex digits: a session id or its prefix */
    const char *clientid;        /* 16 hex digits */
    struct ns_report_time from, to;
    const char *from_text, *to_text;
};

/* Check one option's value (and parse a time into *t): false with a
 * one-line reason in err. */
bool ns_report_parse_addr(const char *s, bool with_port, char *err, size_t errlen);
bool ns_report_parse_hex(const char *s, size_t min_digits, size_t max_digits, char *err, size_t errlen);
bool ns_report_parse_time(const char *s, struct ns_report_time *t, char *err, size_t errlen);

typedef struct ns_report_filter ns_report_filter;

/* NULL when spec asks for nothing (no filter: *oom false) or out of memory
 * (*oom true). next (may be NULL) is called with each transaction that
 * matches, after it is counted. a: the analyzer whose transactions it is
 * handed (sessions and the capture's start are looked up in it). */
ns_report_filter *ns_report_filter_new(const struct ns_report_narrow *spec, ns_analyzer *a, ns_txn_fn next,
                                       void *next_ctx, bool *oom);
void ns_report_filter_free(ns_report_filter *f); /* NULL: nothing */
/* ns_txn_fn for ns_analyzer_on_txn; ctx is the ns_report_filter. */
void ns_report_filter_on_txn(void *ctx, const struct ns_txn *t);

/* ---- The report ---- */

/* What the analyzer does not know about the run. Start from
 * NS_REPORT_INFO_INIT: the library reads the struct up to .size, so a front
 * end built against an older header keeps working when fields are added
 * (at the end). */
struct ns_report_info {
    size_t size;                 /* sizeof(struct ns_report_info) as the caller knows it */
    const char *source;          /* file name or interface */
    bool live;
    bool counters;               /* live, and the capture's drop counts are known */
    uint64_t kernel_drops, interface_drops;
    int64_t start_ns, end_ns;    /* live: wall clock when the capture opened and ended */
    bool partial;                /* the capture ended early (cut off, read error) */
    char partial_reason[256];
    ns_report_programs *programs; /* the Other RPC programs table, or NULL */
    ns_report_filter *filter;    /* narrowing, or NULL */
    long long count;             /* frame limit (-c; 0: none) */
    int verbosity;               /* -1: summary sections only; 0; 1: more columns per table */
    /* Added later (read up to .size): the BPF expression frames passed, or
     * NULL. A file's frames keep their numbers in the file (nfsscope filters
     * as it reads, so evidence names the frames tshark shows). */
    const char *bpf_filter;
    /* Added later: findings below this severity (enum ns_severity; 0, info:
     * every one) are left out of the text and JSON reports, which count
     * them (the Findings heading, findings_below_min_severity). */
    uint8_t min_severity;
    /* The text report lists every finding. Without it (and without -v's
     * verbosity 1) more than 3 findings of one kind and severity fold into
     * one entry: their number, span and occurrences, and the worst 3. */
    bool all_findings;
    /* Added later: the two-point analysis (--peer, nfsscope/two_point.h),
     * after ns_two_point_finish, or NULL. */
    const struct ns_tp_result *two_point;
};
#ifndef __cplusplus
#define NS_REPORT_INFO_INIT {.size = sizeof(struct ns_report_info)}
#else
/* C++: as NS_CONFIG_INIT (nfsscope.h) */
static inline struct ns_report_info ns_report_info_init_cxx(void)
{
    struct ns_report_info ri = {};
    ri.size = sizeof ri;
    return ri;
}
#define NS_REPORT_INFO_INIT ns_report_info_init_cxx()
#endif

/* The whole report, after ns_analyzer_finish (which it does not call). */
void ns_report_text(FILE *o, ns_analyzer *a, const struct ns_report_info *ri);
void ns_report_json(FILE *o, ns_analyzer *a, const struct ns_report_info *ri);
/* One section of the text report as the unfiltered report prints it
 * (wrapped at 100 columns), even one the report leaves out for having
 * nothing in it (an NFSv3 capture's "Sessions (0)"): the Wireshark plugin's
 * -z nfsscope,sessions and -z nfsscope,findings. NS_SECTION_CAPTURE, which
 * names the run, prints nothing here: ns_report_text does. */
void ns_report_section_text(FILE *o, ns_analyzer *a, enum ns_section which);

/* ---- The transaction log ----
 * One JSON line for transaction t (doc/txn-log.md), as handed out by the
 * analyzer a (in call order: NS_ORDER_CALL). */
void ns_report_txn_line(FILE *o, const ns_analyzer *a, const struct ns_txn *t);
/* The same line with the two-point split of t (ns_two_point_txn):
 * server_us and network_us at its end (null when not split). */
void ns_report_txn_line_two_point(FILE *o, const ns_analyzer *a, const struct ns_txn *t,
                                  const struct ns_tp_split *s);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
