/* nfsscope/view.h: names for every value (unknown ones too), figures on
 * hand-built inputs (expected numbers worked out by hand), row order. */
#include <math.h>

#include "check.h"
#include "nfsscope/view.h"
#include "stats_int.h"

#define CHECK_NEAR(a, b) CHECK(fabs((a) - (b)) < 1e-12)

/* One name per value; want NULL where the function has no name for it. */
struct name_case { uint32_t v; const char *want; };
static void check_name(const char *fn, uint32_t v, const char *got, const char *want)
{
    check_count++;
    if (got == want || (got && want && strcmp(got, want) == 0)) return;
    check_failures++;
    fprintf(stderr, "%s(%u) == \"%s\", expected \"%s\"\n", fn, v, got ? got : "(null)", want ? want : "(null)");
}
#define CHECK_NAMES(fn, ...) do { static const struct name_case c_[] = {__VA_ARGS__}; \
    for (size_t i_ = 0; i_ < sizeof c_ / sizeof c_[0]; i_++) check_name(#fn, c_[i_].v, fn(c_[i_].v), c_[i_].want); \
    } while (0)

static const char *dir_requested(uint32_t d) { return ns_chan_dir_name(d, true); }
static const char *dir_granted(uint32_t d) { return ns_chan_dir_name(d, false); }
static const char *channels(uint32_t bits) { return ns_channels_name(bits & 1, bits & 2); }
static const char *v3_status(uint32_t st) { return ns_nfs_status_name(3, st); }
static const char *v4_status(uint32_t st) { return ns_nfs_status_name(4, st); }

static void test_session_names(void)
{
    CHECK_NAMES(ns_state_protect_name, {NS_SP4_NONE, "SP4_NONE"}, {NS_SP4_MACH_CRED, "SP4_MACH_CRED"},
                {NS_SP4_SSV, "SP4_SSV"}, {3, "UNKNOWN"});
    CHECK_NAMES(ns_bind_method_name, {NS_BIND_NONE, "none"}, {NS_BIND_CREATE_SESSION, "CREATE_SESSION"},
                {NS_BIND_BIND_CONN, "BIND_CONN_TO_SESSION"}, {NS_BIND_SEQUENCE, "SEQUENCE"}, {4, "UNKNOWN"});
    CHECK_NAMES(ns_bind_method_phrase, {NS_BIND_NONE, "never bound"}, {NS_BIND_CREATE_SESSION, "bound by CREATE_SESSION"},
                {NS_BIND_BIND_CONN, "bound by BIND_CONN_TO_SESSION"},
                {NS_BIND_SEQUENCE, "bound by SEQUENCE (implicit)"}, {255, "UNKNOWN"});
    /* bctsa_dir and bctsr_dir have different value sets */
    CHECK_NAMES(dir_requested, {0, NULL}, {1, "FORE"}, {2, "BACK"}, {3, "FORE_OR_BOTH"}, {4, NULL},
                {7, "BACK_OR_BOTH"});
    CHECK_NAMES(dir_granted, {0, NULL}, {1, "FORE"}, {2, "BACK"}, {3, "BOTH"}, {7, NULL});
    CHECK_NAMES(channels, {3, "both"}, {1, "fore"}, {2, "back"}, {0, "-"});
    CHECK_NAMES(ns_session_op_name, {53, "SEQUENCE"}, {NS_SESSION_OPS - 1, "OTHER"});
}

static void test_rpc_names(void)
{
    CHECK_NAMES(ns_rpc_status_name, {NS_RPC_SUCCESS, "SUCCESS"}, {NS_RPC_PROG_UNAVAIL, "PROG_UNAVAIL"},
                {NS_RPC_PROG_MISMATCH, "PROG_MISMATCH"}, {NS_RPC_PROC_UNAVAIL, "PROC_UNAVAIL"},
                {NS_RPC_GARBAGE_ARGS, "GARBAGE_ARGS"}, {NS_RPC_SYSTEM_ERR, "SYSTEM_ERR"},
                {NS_RPC_RPC_MISMATCH, "RPC_MISMATCH"}, {NS_RPC_AUTH_ERROR, "AUTH_ERROR"}, {6, "UNKNOWN"},
                {102, "UNKNOWN"});
    CHECK_NAMES(ns_reply_stat_name, {NS_REPLY_ACCEPTED, "MSG_ACCEPTED"}, {NS_REPLY_DENIED, "MSG_DENIED"},
                {NS_REPLY_NONE, "UNKNOWN"}, {9, "UNKNOWN"});
    CHECK_NAMES(ns_transport_name, {NS_TRANSPORT_TCP, "tcp"}, {NS_TRANSPORT_UDP, "udp"}, {0, "UNKNOWN"});
    CHECK_NAMES(ns_gss_service_name, {NS_GSS_NONE_SET, NULL}, {NS_GSS_SVC_NONE, "none"},
                {NS_GSS_SVC_INTEGRITY, "integrity"}, {NS_GSS_SVC_PRIVACY, "privacy"}, {4, NULL});
    CHECK_NAMES(v3_status, {2, "NFS3ERR_NOENT"});
    CHECK_NAMES(v4_status, {2, "NFS4ERR_NOENT"}, {10008, "NFS4ERR_DELAY"});
}

static void test_versions(void)
{
    const char *v[10];
    CHECK_EQ_U(ns_nfs_versions(0, v, 10), 0);
    uint32_t bits = NS_VERS_BIT(4, 9) | NS_VERS_BIT(3, 0) | NS_VERS_BIT(4, 1) | NS_VERS_BIT(2, 0);
    CHECK_EQ_U(ns_nfs_versions(bits, v, 10), 4);
    CHECK_EQ_S(v[0], "v2");
    CHECK_EQ_S(v[1], "v3");
    CHECK_EQ_S(v[2], "v4.1");
    CHECK_EQ_S(v[3], "v4.7"); /* minor versions above 7 share the last bit */
    CHECK_EQ_U(ns_nfs_versions(bits, v, 2), 2);
}

static struct ns_txn txn; /* too big for comfort on the stack */

static void test_txn(void)
{
    memset(&txn, 0, sizeof txn);
    txn.kind = NS_TXN_NFS4;
    txn.prog = 100003;
    txn.vers = 4;
    txn.proc = 1;
    txn.call_frame = 5;
    txn.u.v4.call.nops = 2;
    txn.u.v4.call.op[0] = 53;
    txn.u.v4.call.op[1] = 22;
    CHECK(ns_txn_is_compound(&txn));
    CHECK_EQ_S(ns_txn_proc_name(&txn), "COMPOUND");
    CHECK_EQ_S(ns_txn_op_name(&txn, 0), "SEQUENCE");
    CHECK_EQ_S(ns_txn_op_name(&txn, 1), "PUTFH");
    CHECK_EQ_S(ns_txn_op_name(&txn, 2), "UNKNOWN"); /* past nops */
    CHECK(ns_txn_status_name(&txn) == NULL);       /* no reply status */
    txn.has_status = true;
    txn.status = 10008;
    CHECK_EQ_S(ns_txn_status_name(&txn), "NFS4ERR_DELAY");

    txn.kind = NS_TXN_NFS4_CB;
    txn.backchannel = true;
    txn.prog = 0x40000007; /* the client's callback program */
    txn.vers = 1;
    txn.u.v4.call.op[0] = 11;
    CHECK(ns_txn_is_compound(&txn));
    CHECK_EQ_S(ns_txn_op_name(&txn, 0), "CB_SEQUENCE");
    CHECK_EQ_S(ns_txn_status_name(&txn), "NFS4ERR_DELAY");

    txn.proc = 0; /* NULL: not a COMPOUND */
    CHECK(!ns_txn_is_compound(&txn));
    CHECK_EQ_S(ns_txn_op_name(&txn, 0), "UNKNOWN");

    memset(&txn, 0, sizeof txn);
    txn.kind = NS_TXN_NFS3;
    txn.prog = 100003;
    txn.vers = 3;
    txn.proc = 1;
    CHECK(!ns_txn_is_compound(&txn));
    CHECK_EQ_S(ns_txn_proc_name(&txn), "GETATTR");
    txn.has_status = true;
    txn.status = 2;
    CHECK_EQ_S(ns_txn_status_name(&txn), "NFS3ERR_NOENT");
    txn.kind = NS_TXN_MOUNT;
    txn.status = 13;
    CHECK_EQ_S(ns_txn_status_name(&txn), ns_mount3_status_name(13));
    txn.kind = NS_TXN_OTHER;
    CHECK(ns_txn_status_name(&txn) == NULL);

    txn.sends = 3;
    CHECK_EQ_U(ns_txn_sends_kept(&txn), 0); /* no call seen */
    txn.call_frame = 1;
    CHECK_EQ_U(ns_txn_sends_kept(&txn), 3);
    txn.sends = NS_TXN_SENDS_KEPT + 12;
    CHECK_EQ_U(ns_txn_sends_kept(&txn), NS_TXN_SENDS_KEPT);
}

static void test_text(void)
{
    char b[NS_ENDPOINT_STRLEN];
    struct ns_addr v4 = {4, {10, 0, 0, 1}};
    ns_addr_str(&v4, b, sizeof b);
    CHECK_EQ_S(b, "10.0.0.1");
    struct ns_addr v6 = {6, {0xfd, 0x77, [15] = 2}};
    ns_addr_str(&v6, b, sizeof b);
    CHECK_EQ_S(b, "fd77::2");

    char c[NS_CONN_NAME_LEN];
    CHECK_EQ_S(ns_conn_name(7, c, sizeof c), "c7");
    CHECK_EQ_S(c, "c7");

    uint8_t bytes[21];
    for (int i = 0; i < 21; i++) bytes[i] = (uint8_t)(0xa0 + i);
    char h[41];
    ns_hex_str(bytes, 3, h, sizeof h);
    CHECK_EQ_S(h, "a0a1a2");
    ns_hex_str(bytes, 20, h, sizeof h); /* exactly 40 digits: fits */
    CHECK_EQ_S(h, "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3");
    ns_hex_str(bytes, 21, h, sizeof h); /* 42 digits: 37 and "..." */
    CHECK_EQ_S(h, "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b...");
    ns_hex_str(bytes, 0, h, sizeof h);
    CHECK_EQ_S(h, "");

    char t[NS_TIME_STRLEN];
    int64_t ns = 36001 * 1000000000LL + 123456789; /* 1970-01-01 10:00:01.123456789 */
    ns_clock_str(ns, t, sizeof t);
    CHECK_EQ_S(t, "10:00:01.123456");
    ns_time_str(ns, t, sizeof t);
    CHECK_EQ_S(t, "1970-01-01 10:00:01.123456 UTC");
}

static void test_shares(void)
{
    CHECK_NEAR(ns_share(1, 4), 0.25);
    CHECK_NEAR(ns_share(5, 0), 0.0);
    CHECK_NEAR(ns_share(5, -3), 0.0);
    CHECK_NEAR(ns_percent(1, 8), 12.5);
    CHECK_NEAR(ns_percent(3, 0), 0.0);

    struct ns_stats st = {.first_ts_ns = 1000, .last_ts_ns = 4500};
    CHECK_EQ_U(ns_capture_span_ns(&st), 3500);

    static struct ns_session_view s; /* large */
    struct ns_session_conn_totals tot;
    ns_session_conn_totals(&s, &tot);
    CHECK_EQ_U(tot.calls, 0);
    CHECK_EQ_U(tot.bytes, 0);
    CHECK_NEAR(ns_share(0, (double)tot.calls), 0.0); /* no calls: no share, not NaN */
    s.nconns = 3;
    const uint64_t calls[3] = {1, 2, 5}, bytes[3] = {100, 300, 600};
    for (int k = 0; k < 3; k++) {
        s.conns[k].calls = calls[k];
        s.conns[k].bytes = bytes[k];
    }
    s.conns[3].calls = 99; /* past nconns: not counted */
    ns_session_conn_totals(&s, &tot);
    CHECK_EQ_U(tot.calls, 8);
    CHECK_EQ_U(tot.bytes, 1000);
    const double want_c[3] = {0.125, 0.25, 0.625}, want_b[3] = {0.1, 0.3, 0.6};
    double sum_c = 0, sum_b = 0;
    for (int k = 0; k < 3; k++) {
        double sc = ns_share((double)s.conns[k].calls, (double)tot.calls);
        double sb = ns_share((double)s.conns[k].bytes, (double)tot.bytes);
        CHECK_NEAR(sc, want_c[k]);
        CHECK_NEAR(sb, want_b[k]);
        sum_c += sc;
        sum_b += sb;
    }
    CHECK_NEAR(sum_c, 1.0);
    CHECK_NEAR(sum_b, 1.0);
}

static void test_latency(void)
{
    static struct ns_latency l;
    struct ns_latency_summary s;
    ns_latency_summarize(&l, &s);
    CHECK_EQ_U(s.count, 0);
    CHECK_EQ_U(s.mean_ns, 0);
    CHECK_EQ_U(s.max_ns, 0);
    for (uint64_t v = 1; v <= 10; v++) ns_latency_add(&l, v); /* exact buckets below 64 */
    ns_latency_summarize(&l, &s);
    CHECK_EQ_U(s.count, 10);
    CHECK_EQ_U(s.mean_ns, 5); /* 55 / 10, truncated */
    CHECK_EQ_U(s.p50_ns, 5);
    CHECK_EQ_U(s.p95_ns, 10);
    CHECK_EQ_U(s.p99_ns, 10);
    CHECK_EQ_U(s.max_ns, 10);
}

/* Rates over an interval and slot use since an earlier look, worked by hand. */
static void test_rates(void)
{
    CHECK_NEAR(ns_rate_per_s(150, 100, 2000000000), 25.0);  /* 50 in 2 s */
    CHECK_NEAR(ns_rate_per_s(3, 0, 500000000), 6.0);        /* 3 in 0.5 s */
    CHECK_NEAR(ns_rate_per_s(100, 100, 1000000000), 0.0);
    CHECK_NEAR(ns_rate_per_s(10, 20, 1000000000), 0.0);     /* went back: evicted row */
    CHECK_NEAR(ns_rate_per_s(10, 0, 0), 0.0);

    struct ns_slot_view slots[4] = {
        {.used = true, .calls = 5, .in_flight = true},  /* busy now */
        {.used = true, .calls = 7},                     /* 2 calls since the last look */
        {.used = true, .calls = 3},                     /* none since */
        {.used = true, .calls = 9},                     /* above the 3 granted, used since */
    };
    struct ns_session_view s = {.granted_slots = 3, .nslots = 4, .slots = slots};
    CHECK_EQ_U(ns_slot_use(&s, 0, 5), NS_SLOT_USE_BUSY);
    CHECK_EQ_U(ns_slot_use(&s, 1, 5), NS_SLOT_USE_USED);
    CHECK_EQ_U(ns_slot_use(&s, 2, 3), NS_SLOT_USE_IDLE);
    CHECK_EQ_U(ns_slot_use(&s, 3, 1), NS_SLOT_USE_ABOVE);
    CHECK_EQ_U(ns_slot_use(&s, 3, 9), NS_SLOT_USE_NONE);
    CHECK_EQ_U(ns_slot_use(&s, 7, 0), NS_SLOT_USE_NONE);    /* beyond the table, not granted */
    s.granted_slots = 10;
    CHECK_EQ_U(ns_slot_use(&s, 7, 0), NS_SLOT_USE_IDLE);    /* granted, never seen */
    CHECK_EQ_U(ns_slots_busy(&s), 1);
}

static void test_udp(void)
{
    struct ns_udp_pair p;
    memset(&p, 0, sizeof p);
    struct ns_udp_totals t;
    ns_udp_pair_totals(&p, &t);
    CHECK_EQ_U(t.calls + t.retransmissions + t.lost_to_fragments, 0);
    p.cls[NS_UDP_TIMER_OTHER].calls = 2;
    p.cls[NS_UDP_TIMER_READ].calls = 5;
    p.cls[NS_UDP_TIMER_READ].retransmissions = 3;
    p.cls[NS_UDP_TIMER_READ].lost_to_fragments = 1;
    p.cls[NS_UDP_TIMER_COMMIT].retransmissions = 1;
    p.cls[NS_UDP_TIMER_COMMIT].lost_to_fragments = 2;
    ns_udp_pair_totals(&p, &t);
    CHECK_EQ_U(t.calls, 7);
    CHECK_EQ_U(t.retransmissions, 4);
    CHECK_EQ_U(t.lost_to_fragments, 3);

    struct ns_udp_class c;
    memset(&c, 0, sizeof c);
    CHECK(!ns_udp_class_used(&c));
    CHECK_NEAR(ns_udp_loss_rate(&c), 0.0); /* nothing sent */
    struct ns_udp_class_means m;
    ns_udp_class_means(&c, &m);
    CHECK(m.rtt_mean_ns == -1);
    CHECK(m.gap_mean_ns == -1);
    CHECK_EQ_U(m.timed_resends, 0);
    CHECK_NEAR(m.timeout_ratio_mean, 0.0);
    c.dup_replies = 1;
    CHECK(ns_udp_class_used(&c));

    /* 8 calls + 2 resends = 10 sends; 1 resend spurious: (2-1) + 1 unanswered = 2 lost */
    c.calls = 8;
    c.retransmissions = 2;
    c.spurious = 1;
    c.unanswered = 1;
    CHECK_NEAR(ns_udp_loss_rate(&c), 0.2);
    c.spurious = 3; /* more spurious than resends: none needed */
    c.unanswered = 0;
    CHECK_NEAR(ns_udp_loss_rate(&c), 0.0);

    c.rtt_samples = 4;
    c.rtt_sum_ns = 10000002;
    c.retransmissions = 3;
    c.gap_sum_ns = 10;
    c.late_retransmissions = 1;
    c.timeout_ratio_sum = 3.0;
    ns_udp_class_means(&c, &m);
    CHECK(m.rtt_mean_ns == 2500000); /* truncated */
    CHECK(m.gap_mean_ns == 3);
    CHECK_EQ_U(m.timed_resends, 2);
    CHECK_NEAR(m.timeout_ratio_mean, 1.5);
}

static struct ns_stats st_rows;
static struct ns_op_stats ops[7];

static void test_rows(void)
{
    /* key, count, in compounds */
    const uint32_t spec[7][3] = {
        {9, 5, 0},                /* GETATTR (v4) */
        {NS_OPKEY_V3(1), 5, 0},   /* GETATTR (v3): same name, higher key */
        {3, 5, 0},                /* ACCESS */
        {22, 0, 10},              /* PUTFH: only inside compounds */
        {NS_OPKEY_V3(6), 8, 0},   /* READ: most frequent */
        {10, 5, 1},               /* GETFH: count ties, more in compounds */
        {53, 0, 0},               /* SEQUENCE: seen, never counted: not listed */
    };
    for (int i = 0; i < 7; i++) {
        ops[i].count = spec[i][1];
        ops[i].in_compounds = spec[i][2];
        st_rows.ops[spec[i][0]] = &ops[i];
    }
    struct ns_op_row rows[NS_OPKEY_MAX];
    size_t n = ns_op_rows(&st_rows, rows, NS_OPKEY_MAX);
    CHECK_EQ_U(n, 6);
    const uint32_t want[6] = {NS_OPKEY_V3(6), 10, 3, 9, NS_OPKEY_V3(1), 22};
    const char *const names[6] = {"READ", "GETFH", "ACCESS", "GETATTR", "GETATTR", "PUTFH"};
    for (size_t i = 0; i < n && i < 6; i++) {
        CHECK_EQ_U(rows[i].key, want[i]);
        CHECK_EQ_S(rows[i].name, names[i]);
        CHECK(rows[i].s == st_rows.ops[want[i]]);
    }

    st_rows.nstatus = 3;
    st_rows.status[0] = (struct ns_status_count){10008, 4, 4}; /* NFS4ERR_DELAY */
    st_rows.status[1] = (struct ns_status_count){0, 4, 10};    /* NFS4_OK */
    st_rows.status[2] = (struct ns_status_count){2, 3, 4};     /* NFS3ERR_NOENT */
    struct ns_status_row srows[NS_STATUS_SLOTS];
    CHECK_EQ_U(ns_status_rows(&st_rows, srows, NS_STATUS_SLOTS), 3);
    CHECK_EQ_S(srows[0].name, "NFS4_OK");
    CHECK_EQ_U(srows[0].count, 10);
    CHECK_EQ_S(srows[1].name, "NFS3ERR_NOENT"); /* count tie: by name */
    CHECK_EQ_S(srows[2].name, "NFS4ERR_DELAY");
}

static void test_sections_and_kinds(void)
{
    ns_analyzer *a = ns_analyzer_new(NULL, NULL, 0);
    CHECK(a != NULL);
    if (!a) return;
    ns_analyzer_finish(a);
    struct ns_section_info sec[NS_SECTIONS];
    ns_report_sections(a, sec);
    const char *const titles[NS_SECTIONS] = {"Capture", "RPC", "Connections", "Operations", "NFS status",
                                             "Clients", "Sessions", "UDP transport", "READ_PLUS", "Findings",
                                             "Not analysed"};
    for (int s = 0; s < NS_SECTIONS; s++) {
        CHECK_EQ_U(sec[s].id, s);
        CHECK_EQ_S(sec[s].title, titles[s]);
        CHECK_EQ_U(sec[s].rows, 0);
        bool optional = s == NS_SECTION_CLIENTS || s == NS_SECTION_SESSIONS || s == NS_SECTION_UDP ||
                        s == NS_SECTION_READ_PLUS;
        CHECK(sec[s].shown == !optional);
    }
    CHECK(!ns_findings_any_of(a, "SLOT_LIMITED,CONN_NOT_BOUND"));
    ns_analyzer_free(a);

    CHECK(ns_kind_listed("SLOT_LIMITED", "SLOT_LIMITED"));
    CHECK(ns_kind_listed("SLOT_LIMITED", "CONN_NOT_BOUND,SLOT_LIMITED"));
    CHECK(ns_kind_listed("CONN_NOT_BOUND", "CONN_NOT_BOUND,SLOT_LIMITED"));
    CHECK(!ns_kind_listed("SLOT", "SLOT_LIMITED"));          /* whole kinds only */
    CHECK(!ns_kind_listed("SLOT_LIMITED", "SLOT,LIMITED"));
    CHECK(!ns_kind_listed("SLOT_LIMITED", ""));
}

/* "Not analysed": each counter lands in its one row, with the JSON key the
 * reports print, and only causes that lose something make it non-empty. */
static void test_loss_rows(void)
{
    struct ns_stats st;
    memset(&st, 0, sizeof st);
    struct ns_loss_row rows[NS_LOSS_ROWS];
    size_t n = ns_loss_rows(&st, rows, NS_LOSS_ROWS);
    CHECK(n > 30 && n <= NS_LOSS_ROWS);
    CHECK(ns_loss_nothing(&st));
    for (size_t i = 0; i < n; i++) {
        CHECK_EQ_U(rows[i].value, 0);
        for (size_t k = i + 1; k < n; k++) CHECK(rows[i].group != rows[k].group || strcmp(rows[i].key, rows[k].key));
    }
    static const struct { size_t off; const char *key; uint8_t group; bool lost; } cases[] = {
        {offsetof(struct ns_stats, tcp_gaps), "tcp_gaps", NS_LOSS_NOT_ANALYSED, true},
        {offsetof(struct ns_stats, tcp_retransmitted), "tcp_retransmitted_segments", NS_LOSS_NOT_ANALYSED, false},
        {offsetof(struct ns_stats, tcp_out_of_order), "tcp_out_of_order", NS_LOSS_NOT_ANALYSED, false},
        {offsetof(struct ns_stats, rpc_calls_timed_out), "calls_timed_out", NS_LOSS_NOT_ANALYSED, false},
        {offsetof(struct ns_stats, tcp_flows_not_rpc), "tcp_flows_not_rpc", NS_LOSS_NOT_ANALYSED, true},
        {offsetof(struct ns_stats, tcp_bytes_unsynced), "tcp_bytes_unsynced", NS_LOSS_NOT_ANALYSED, true},
        {offsetof(struct ns_stats, rpc_msgs_lost), "messages_lost", NS_LOSS_NOT_ANALYSED, true},
        {offsetof(struct ns_stats, frames_ip_len_clamped), "ip_length_clamped", NS_LOSS_NOT_ANALYSED, true},
        {offsetof(struct ns_stats, frames_udp_len_bad), "udp_length_bad", NS_LOSS_NOT_ANALYSED, true},
        {offsetof(struct ns_stats, frames_ts_outliers), "timestamp_outliers", NS_LOSS_NOT_ANALYSED, true},
        {offsetof(struct ns_stats, frames_ts_backwards), "timestamp_backwards", NS_LOSS_NOT_ANALYSED, false},
        {offsetof(struct ns_stats, frames_duplicate), "frames_duplicate", NS_LOSS_NOT_ANALYSED, false},
        {offsetof(struct ns_stats, rpc_calls_outstanding_evicted), "outstanding_calls", NS_LOSS_EVICTED, true},
        {offsetof(struct ns_stats, evicted_pending_calls), "pending_calls", NS_LOSS_EVICTED, false},
        {offsetof(struct ns_stats, flows_retired_idle), "flows_retired_idle", NS_LOSS_NOT_ANALYSED, true},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memset(&st, 0, sizeof st);
        uint64_t v = 1000 + c;
        memcpy((char *)&st + cases[c].off, &v, sizeof v);
        n = ns_loss_rows(&st, rows, NS_LOSS_ROWS);
        size_t hits = 0;
        for (size_t i = 0; i < n; i++) {
            if (!rows[i].value) continue;
            hits++;
            CHECK_EQ_U(rows[i].value, v);
            CHECK_EQ_S(rows[i].key, cases[c].key);
            CHECK_EQ_U(rows[i].group, cases[c].group);
            CHECK(rows[i].lost == cases[c].lost);
            CHECK(rows[i].label && rows[i].label[0] && rows[i].brief && strlen(rows[i].brief) <= 24);
        }
        CHECK_EQ_U(hits, 1);
        CHECK(ns_loss_nothing(&st) == !cases[c].lost);
    }
    /* a short buffer gets the first rows only */
    CHECK_EQ_U(ns_loss_rows(&st, rows, 3), 3);
    CHECK_EQ_S(rows[0].key, "undecodable_frames");
}

int main(void)
{
    test_session_names();
    test_rpc_names();
    test_versions();
    test_txn();
    test_text();
    test_shares();
    test_latency();
    test_rates();
    test_udp();
    test_rows();
    test_sections_and_kinds();
    test_loss_rows();
    return check_done("test_view");
}
