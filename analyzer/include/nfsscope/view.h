/* What a front end shows: the names and derived figures the nfsscope
 * program's reports, the live screen and the Wireshark plugin all print, kept
 * in one place so the three never disagree.
 *
 * Belongs here: a name for a value of a public enum or field that
 * names.h does not already give; any figure computed from the public views
 * (shares, rates, totals, means, percentiles) rather than counted by the
 * analyzer; the order rows are listed in; which report sections exist.
 * Does not belong here: I/O and layout (columns, JSON keys, escaping),
 * anything that needs the analyzer's private state, protocol names
 * (names.h). Functions read only the public headers, write into the
 * caller's buffers and structs, never print, allocate nothing themselves and
 * never look at the wall clock (times are packet times, in UTC). Name
 * functions return static strings. */
#ifndef NFSSCOPE_VIEW_H
#define NFSSCOPE_VIEW_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/nfsscope.h"
#include "nfsscope/udp_timing.h"

/* Everything declared here is the library's public ABI (the rest is hidden). */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

/* ---- names (static strings) ---- */

const char *ns_state_protect_name(uint32_t sp);  /* "SP4_NONE", "SP4_MACH_CRED", "SP4_SSV"; else "UNKNOWN" */
const char *ns_bind_method_name(uint8_t m);      /* "none", "CREATE_SESSION", "BIND_CONN_TO_SESSION", "SEQUENCE"; else "UNKNOWN" */
const char *ns_bind_method_phrase(uint8_t m);    /* "never bound", "bound by CREATE_SESSION", ...; else "UNKNOWN" */
/* enum ns_session_dead: NULL (alive), "BADSESSION", "DESTROYED"; else "UNKNOWN". */
const char *ns_session_dead_name(uint8_t d);
/* How a session ended, for people: "never created in the capture: the server
 * answered NFS4ERR_BADSESSION", "lost by the server: ...", "destroyed by
 * DESTROY_SESSION"; NULL while alive. */
const char *ns_session_state_phrase(const struct ns_session_view *s);
/* BIND_CONN_TO_SESSION direction: requested (bctsa_dir: FORE, BACK,
 * FORE_OR_BOTH, BACK_OR_BOTH) or granted (bctsr_dir: FORE, BACK, BOTH);
 * NULL for 0 (not bound that way) and for values the field cannot hold. */
const char *ns_chan_dir_name(uint32_t dir, bool requested);
const char *ns_channels_name(bool fore, bool back); /* "both", "fore", "back", "-" */
/* RPC accept_stat or reject_stat (enum ns_rpc_status): "SUCCESS", "AUTH_ERROR", ...; else "UNKNOWN". */
const char *ns_rpc_status_name(uint32_t st);
const char *ns_reply_stat_name(uint8_t rs);      /* "MSG_ACCEPTED", "MSG_DENIED"; else (no reply) "UNKNOWN" */
const char *ns_transport_name(uint8_t tr);       /* "tcp", "udp"; else "UNKNOWN" */
/* Why a call left without its reply (ns_txn.verdict): "timed_out", "unanswered_at_end",
 * "superseded", "evicted_waiting"; NULL for NS_VERDICT_NONE (answered) or unknown. */
const char *ns_txn_verdict_name(uint8_t v);
const char *ns_gss_service_name(uint8_t svc);    /* "none", "integrity", "privacy"; NULL when not RPCSEC_GSS data */
/* NFSv3 or NFSv4 status (vers 3 or 4, as in struct ns_status_count). */
const char *ns_nfs_status_name(uint8_t vers, uint32_t st);
const char *ns_session_op_name(uint32_t op);     /* index of ns_session_view.ops: the NFSv4 op, or "OTHER" for the last */

/* ---- one transaction ---- */

bool ns_txn_is_compound(const struct ns_txn *t);   /* NFSv4 COMPOUND or CB_COMPOUND */
const char *ns_txn_proc_name(const struct ns_txn *t); /* procedure; backchannel calls as NFS_CB */
const char *ns_txn_op_name(const struct ns_txn *t, uint16_t i); /* i-th op of a (CB_)COMPOUND call */
const char *ns_txn_status_name(const struct ns_txn *t); /* NFS or MOUNT status; NULL when it has none */
unsigned ns_txn_sends_kept(const struct ns_txn *t); /* entries of send_ts_ns/send_frame set (0 without a call) */

/* ---- text of values ---- */

/* "10.0.0.1" / "fd77::2" (no port, no brackets) into buf (>= NS_ENDPOINT_STRLEN bytes). */
void ns_addr_str(const struct ns_addr *a, char *buf, size_t n);
#define NS_CONN_NAME_LEN 16
const char *ns_conn_name(uint32_t id, char *buf, size_t n); /* "c7" into buf; returns buf */
/* Lowercase hex of b; when it does not fit in n - 1 characters, the first
 * n - 4 digits and "...". */
void ns_hex_str(const uint8_t *b, size_t len, char *buf, size_t n);
#define NS_TIME_STRLEN 64
void ns_clock_str(int64_t ns, char *buf, size_t n); /* "10:00:01.123456": UTC time of day */
void ns_time_str(int64_t ns, char *buf, size_t n);  /* "2024-05-01 10:00:01.123456 UTC" */
/* "v2", "v3", "v4.0" ... for the NS_VERS_BIT bits set, in that order; returns how many. */
size_t ns_nfs_versions(uint32_t bits, const char **names, size_t cap);

/* ---- figures ---- */

double ns_share(double part, double whole);   /* part / whole; 0 when whole <= 0 */
double ns_percent(double part, double whole); /* 100 * part / whole; 0 when whole <= 0 */
int64_t ns_capture_span_ns(const struct ns_stats *st); /* last - first packet time */

/* Latency in nanoseconds; every field 0 when count is 0. */
struct ns_latency_summary { uint64_t count, mean_ns, p50_ns, p95_ns, p99_ns, max_ns; };
void ns_latency_summarize(const struct ns_latency *l, struct ns_latency_summary *out);

/* Sums over a session's listed connections, the wholes of their shares. */
struct ns_session_conn_totals { uint64_t calls, bytes; };
void ns_session_conn_totals(const struct ns_session_view *s, struct ns_session_conn_totals *out);

/* UDP: a pair's totals over its timer classes. */
struct ns_udp_totals { uint64_t calls, retransmissions, lost_to_fragments; };
void ns_udp_pair_totals(const struct ns_udp_pair *p, struct ns_udp_totals *out);
bool ns_udp_class_used(const struct ns_udp_class *c); /* anything to show for this class */
/* Needed retransmissions (not spurious) plus unanswered calls over all
 * transmissions; 0 with no transmission. */
double ns_udp_loss_rate(const struct ns_udp_class *c);
/* Per-class means: -1 (times) / 0 (ratio) where there is nothing to average. */
struct ns_udp_class_means {
    int64_t rtt_mean_ns;        /* over rtt_samples */
    int64_t gap_mean_ns;        /* over retransmissions */
    uint64_t timed_resends;     /* retransmissions sent before the reply */
    double timeout_ratio_mean;  /* over timed_resends */
};
void ns_udp_class_means(const struct ns_udp_class *c, struct ns_udp_class_means *out);

/* ---- figures over an interval (the live screen keeps the earlier counters) ---- */

/* (now - before) per second of interval_ns; 0 when the interval is empty or
 * the counter went back (its row was evicted and reused). */
double ns_rate_per_s(uint64_t now, uint64_t before, int64_t interval_ns);
/* What a slot of a session's fore channel did since the caller last looked,
 * when the slot had calls_before calls: BUSY (a request in flight now), USED
 * (calls since, none in flight), IDLE (granted, no call since), ABOVE (calls
 * since on a slot the server does not grant now), NONE (not granted, unused). */
enum ns_slot_use { NS_SLOT_USE_NONE = 0, NS_SLOT_USE_IDLE, NS_SLOT_USE_USED, NS_SLOT_USE_BUSY, NS_SLOT_USE_ABOVE };
uint8_t ns_slot_use(const struct ns_session_view *s, uint32_t slot, uint64_t calls_before);
/* Slots with a request in flight now. */
uint32_t ns_slots_busy(const struct ns_session_view *s);

/* ---- the report model: rows in print order, sections ---- */

/* Operations seen, most frequent first (then in compounds, name, key). */
struct ns_op_row { uint32_t key; const char *name; const struct ns_op_stats *s; };
size_t ns_op_rows(const struct ns_stats *st, struct ns_op_row *rows, size_t cap);
/* NFS statuses seen, most frequent first, then by name. */
struct ns_status_row { const char *name; uint64_t count; };
size_t ns_status_rows(const struct ns_stats *st, struct ns_status_row *rows, size_t cap);

enum ns_section {
    NS_SECTION_CAPTURE, NS_SECTION_RPC, NS_SECTION_CONNECTIONS, NS_SECTION_OPERATIONS, NS_SECTION_STATUS,
    NS_SECTION_CLIENTS, NS_SECTION_SESSIONS, NS_SECTION_UDP, NS_SECTION_READ_PLUS, NS_SECTION_FINDINGS,
    NS_SECTION_NOT_ANALYSED, NS_SECTIONS
};
struct ns_section_info {
    enum ns_section id;
    const char *title;  /* "Connections", as the text report heads it */
    size_t rows;        /* connections, operations, clients ...; 0 for the capture and RPC summaries */
    bool shown;         /* false: an optional section with nothing in it */
};
/* Every section, in report order (NS_SECTIONS entries). */
void ns_report_sections(const ns_analyzer *a, struct ns_section_info out[NS_SECTIONS]);

/* true if kind is one of the comma-separated kinds (e.g. "A,B"). */
bool ns_kind_listed(const char *kind, const char *kinds);
/* true if a finding of one of the comma-separated kinds exists. */
bool ns_findings_any_of(const ns_analyzer *a, const char *kinds);

/* Could a frame missing from the capture alone raise a finding of this kind
 * (SLOT_SEQ_GAP, REPLAY, SLOT_ABOVE_GRANTED ...; doc/findings.md)? */
bool ns_finding_loss_may_cause(const char *kind);
/* For such a finding, the frames the capture lost that it may rest on: TCP
 * gaps of its connections (of the whole capture, with lost messages and
 * incomplete IP datagrams, when it names none); 0 otherwise. */
uint64_t ns_finding_capture_gaps(const ns_analyzer *a, const struct ns_finding *f);

/* ---- what could not be analysed, by cause (report, JSON, page, metrics, screen) ---- */

enum ns_loss_group { NS_LOSS_NOT_ANALYSED, NS_LOSS_EVICTED };
struct ns_loss_row {
    const char *key;    /* JSON key under not_analysed / evictions, metrics label: "tcp_gaps" */
    const char *label;  /* the report's words */
    const char *brief;  /* two or three words for the screen's header */
    uint64_t value;
    uint8_t group;      /* enum ns_loss_group */
    bool lost;          /* something was left out of the analysis; false: recovered or informative */
    bool optional;      /* JSON lists it only when non-zero */
};
#define NS_LOSS_ROWS 48
/* Every cause, zero or not, in report order; returns the rows written. */
size_t ns_loss_rows(const struct ns_stats *st, struct ns_loss_row *rows, size_t cap);
/* true when no cause that loses something is non-zero: "Not analysed: nothing". */
bool ns_loss_nothing(const struct ns_stats *st);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
