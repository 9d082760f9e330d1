/* Narrowing after decoding (nfsscope/report.h, report_filter.h). */
#include "report_filter.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nfsscope/view.h"

#define KEPT_IDS 256 /* sessions and clients remembered as matched; more are counted */

struct ns_report_filter {
    ns_analyzer *a;
    ns_txn_fn next;
    void *next_ctx;
    bool has_client, has_server, has_session, has_clientid;
    struct ns_addr client, server;
    uint16_t server_port;             /* 0: any */
    uint8_t session[NS_SESSIONID_LEN];
    size_t session_len;               /* bytes of a prefix */
    uint64_t clientid;
    struct ns_report_time from, to;
    char desc[512];
    uint64_t seen, matched;
    struct ns_stats st;
    uint8_t *conns;                   /* bitmap of connection ids that carried a match */
    size_t conns_bytes;
    uint8_t sessions[KEPT_IDS][NS_SESSIONID_LEN];
    size_t nsessions;
    uint64_t clients[KEPT_IDS];
    size_t nclients;
    bool ids_full;                    /* more than KEPT_IDS: sessions/clients are all shown */
};

/* ---- parsing ---- */

static bool parse_addr(const char *s, struct ns_addr *out, uint16_t *port)
{
    char buf[64];
    const char *host = s, *p = NULL;
    if (s[0] == '[') { /* [v6]:port */
        const char *e = strchr(s, ']');
        if (!e || (size_t)(e - s - 1) >= sizeof buf) return false;
        memcpy(buf, s + 1, (size_t)(e - s - 1));
        buf[e - s - 1] = 0;
        host = buf;
        if (e[1] == ':') p = e + 2; else if (e[1]) return false;
    } else if (strchr(s, ':') && strchr(s, ':') == strrchr(s, ':')) { /* v4:port */
        const char *c = strchr(s, ':');
        if ((size_t)(c - s) >= sizeof buf) return false;
        memcpy(buf, s, (size_t)(c - s));
        buf[c - s] = 0;
        host = buf;
        p = c + 1;
    }
    memset(out, 0, sizeof *out);
    if (inet_pton(AF_INET, host, out->a) == 1) out->family = 4;
    else if (inet_pton(AF_INET6, host, out->a) == 1) out->family = 6;
    else return false;
    if (port) *port = 0;
    if (p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (!port || *end || v < 1 || v > 65535) return false;
        *port = (uint16_t)v;
    }
    return true;
}

bool ns_report_parse_addr(const char *s, bool with_port, char *err, size_t errlen)
{
    struct ns_addr a;
    uint16_t port;
    if (parse_addr(s, &a, with_port ? &port : NULL)) return true;
    snprintf(err, errlen, "expected an IPv4 or IPv6 address%s, got %s", with_port ? " (optionally ADDR:PORT, [V6]:PORT)" : "", s);
    return false;
}

static int hexval(int c) { return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10; }

static size_t parse_hex(const char *s, uint8_t *out, size_t max)
{
    size_t n = strlen(s);
    if (n % 2 || n / 2 > max) return 0;
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i])) return 0;
    for (size_t i = 0; i < n / 2; i++) out[i] = (uint8_t)(hexval(s[2 * i]) << 4 | hexval(s[2 * i + 1]));
    return n / 2;
}

bool ns_report_parse_hex(const char *s, size_t min_digits, size_t max_digits, char *err, size_t errlen)
{
    uint8_t b[32];
    size_t n = strlen(s);
    if (n >= min_digits && n <= max_digits && parse_hex(s, b, sizeof b) * 2 == n) return true;
    if (min_digits == max_digits) snprintf(err, errlen, "expected %zu hex digits, got %s", min_digits, s);
    else snprintf(err, errlen, "expected %zu to %zu hex digits (an even number; a prefix is enough), got %s", min_digits, max_digits, s);
    return false;
}

/* "12.5" or "+12.5": seconds; "2026-12-02 10:00:01[.5]" (or with T); "10:00:01[.5]". */
bool ns_report_parse_time(const char *s, struct ns_report_time *t, char *err, size_t errlen)
{
    char *end;
    const char *num = s[0] == '+' ? s + 1 : s;
    double sec = strtod(num, &end);
    if (end != num && !*end && sec >= 0 && sec < 1e9 && isdigit((unsigned char)num[0])) {
        *t = (struct ns_report_time){NS_REPORT_TIME_RELATIVE, (int64_t)(sec * 1e9 + 0.5)};
        return true;
    }
    int y, mo, d, h, mi, n = 0;
    double secs;
    struct tm tm = {0};
    if ((sscanf(s, "%d-%d-%d %d:%d:%lf%n", &y, &mo, &d, &h, &mi, &secs, &n) == 6 ||
         sscanf(s, "%d-%d-%dT%d:%d:%lf%n", &y, &mo, &d, &h, &mi, &secs, &n) == 6) &&
        !s[n] && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h >= 0 && h < 24 && mi >= 0 && mi < 60 && secs >= 0 && secs < 61) {
        tm.tm_year = y - 1900;
        tm.tm_mon = mo - 1;
        tm.tm_mday = d;
        tm.tm_hour = h;
        tm.tm_min = mi;
        time_t base = timegm(&tm);
        *t = (struct ns_report_time){NS_REPORT_TIME_ABSOLUTE, (int64_t)base * 1000000000 + (int64_t)(secs * 1e9 + 0.5)};
        return true;
    }
    /* a date alone is its midnight, UTC; a time without seconds, :00 */
    n = 0;
    int k = sscanf(s, "%d-%d-%d%n %d:%d%n", &y, &mo, &d, &n, &h, &mi, &n);
    if ((k == 3 || k == 5) && !s[n] && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 &&
        (k == 3 || (h >= 0 && h < 24 && mi >= 0 && mi < 60))) {
        tm.tm_year = y - 1900;
        tm.tm_mon = mo - 1;
        tm.tm_mday = d;
        tm.tm_hour = k == 5 ? h : 0;
        tm.tm_min = k == 5 ? mi : 0;
        *t = (struct ns_report_time){NS_REPORT_TIME_ABSOLUTE, (int64_t)timegm(&tm) * 1000000000};
        return true;
    }
    n = 0;
    if (sscanf(s, "%d:%d:%lf%n", &h, &mi, &secs, &n) == 3 && !s[n] && h >= 0 && h < 24 && mi >= 0 && mi < 60 && secs >= 0 && secs < 61) {
        *t = (struct ns_report_time){NS_REPORT_TIME_OF_DAY, ((int64_t)h * 3600 + mi * 60) * 1000000000 + (int64_t)(secs * 1e9 + 0.5)};
        return true;
    }
    snprintf(err, errlen, "expected seconds from the capture's start (12.5, +12.5), a UTC time "
                          "(2026-12-02 10:00:01.5, 2026-12-02 10:00, 2026-12-02) or a time of day (10:00:01), got %s", s);
    return false;
}

/* ---- the filter ---- */

ns_report_filter *ns_report_filter_new(const struct ns_report_narrow *spec, ns_analyzer *a, ns_txn_fn next,
                                       void *next_ctx, bool *oom)
{
    *oom = false;
    if (!spec->client && !spec->server && !spec->session && !spec->clientid && !spec->from.kind && !spec->to.kind)
        return NULL;
    struct ns_report_filter *f = calloc(1, sizeof *f);
    if (!f) { *oom = true; return NULL; }
    f->a = a;
    f->next = next;
    f->next_ctx = next_ctx;
    size_t used = 0;
#define DESC(...) used += (size_t)snprintf(f->desc + used, used < sizeof f->desc ? sizeof f->desc - used : 0, __VA_ARGS__)
    if (spec->client) { f->has_client = parse_addr(spec->client, &f->client, NULL); DESC("%sclient %s", used ? ", " : "", spec->client); }
    if (spec->server) { f->has_server = parse_addr(spec->server, &f->server, &f->server_port); DESC("%sserver %s", used ? ", " : "", spec->server); }
    if (spec->session) { f->has_session = true; f->session_len = parse_hex(spec->session, f->session, NS_SESSIONID_LEN); DESC("%ssession %s", used ? ", " : "", spec->session); }
    if (spec->clientid) {
        uint8_t b[8] = {0};
        f->has_clientid = parse_hex(spec->clientid, b, 8) == 8;
        for (int i = 0; i < 8; i++) f->clientid = f->clientid << 8 | b[i];
        DESC("%sclient ID %s", used ? ", " : "", spec->clientid);
    }
    f->from = spec->from;
    f->to = spec->to;
    if (spec->from.kind) DESC("%sfrom %s", used ? ", " : "", spec->from_text);
    if (spec->to.kind) DESC("%sto %s", used ? ", " : "", spec->to_text);
#undef DESC
    return f;
}

void ns_report_filter_free(ns_report_filter *f)
{
    if (!f) return;
    ns_stats_free_ops(&f->st);
    free(f->conns);
    free(f);
}

const char *filter_describe(const struct ns_report_filter *f) { return f->desc; }
uint64_t filter_matched(const struct ns_report_filter *f) { return f->matched; }
uint64_t filter_seen(const struct ns_report_filter *f) { return f->seen; }
const struct ns_stats *filter_stats(const struct ns_report_filter *f) { return &f->st; }

static int64_t resolve(const struct ns_report_filter *f, const struct ns_report_time *t)
{
    int64_t start = ns_analyzer_stats(f->a)->first_ts_ns;
    switch (t->kind) {
    case NS_REPORT_TIME_RELATIVE: return start + t->ns;
    case NS_REPORT_TIME_ABSOLUTE: return t->ns;
    case NS_REPORT_TIME_OF_DAY: {
        int64_t day = 86400ll * 1000000000;
        return start - ((start % day) + day) % day + t->ns;
    }
    default: return 0;
    }
}

bool filter_window(const struct ns_report_filter *f, int64_t *from_ns, int64_t *to_ns)
{
    if (!f || (!f->from.kind && !f->to.kind)) return false;
    *from_ns = f->from.kind ? resolve(f, &f->from) : INT64_MIN;
    *to_ns = f->to.kind ? resolve(f, &f->to) : INT64_MAX;
    return true;
}

static bool addr_eq(const struct ns_addr *x, const struct ns_addr *y)
{
    return x->family == y->family && memcmp(x->a, y->a, x->family == 4 ? 4 : 16) == 0;
}

/* The session a transaction belongs to, if it names one. */
static const uint8_t *txn_session(const struct ns_txn *t)
{
    if ((t->kind != NS_TXN_NFS4 && t->kind != NS_TXN_NFS4_CB) || !t->call_frame) return NULL;
    const struct nfs4_call *c = &t->u.v4.call;
    if (c->has_seq || c->seq_late) return c->seq.sessionid;
    if (c->setup.has_bind_conn) return c->setup.bind_conn.sessionid;
    if (c->setup.has_destroy_session) return c->setup.destroy_session_id;
    if (t->reply_frame && t->u.v4.reply.setup.has_create_session) return t->u.v4.reply.setup.create_session.sessionid;
    return NULL;
}

/* The client ID a transaction belongs to, if it can be told. */
static bool txn_clientid(struct ns_report_filter *f, const struct ns_txn *t, uint64_t *out)
{
    const uint8_t *sid = txn_session(t);
    if (sid) {
        const struct ns_session_view *s = ns_analyzer_session_by_id(f->a, sid);
        if (s && s->has_client) { *out = s->clientid; return true; }
    }
    if ((t->kind != NS_TXN_NFS4 && t->kind != NS_TXN_NFS4_CB) || !t->call_frame) return false;
    const struct nfs4_setup_args *c = &t->u.v4.call.setup;
    const struct nfs4_setup_res *r = t->reply_frame ? &t->u.v4.reply.setup : NULL;
    if (c->has_create_session) { *out = c->create_session.clientid; return true; }
    if (c->has_destroy_clientid) { *out = c->destroy_clientid; return true; }
    if (c->has_setclientid_confirm) { *out = c->setclientid_confirm.clientid; return true; }
    if (r && r->has_exchange_id) { *out = r->exchange_id.clientid; return true; }
    if (r && r->has_setclientid) { *out = r->setclientid.clientid; return true; }
    return false;
}

static bool matches(struct ns_report_filter *f, const struct ns_txn *t)
{
    const struct ns_conn *c = ns_analyzer_conn(f->a, t->conn_id);
    if (f->has_client && (!c || !addr_eq(&c->client.addr, &f->client))) return false;
    if (f->has_server && (!c || !addr_eq(&c->server.addr, &f->server) || (f->server_port && c->server.port != f->server_port)))
        return false;
    if (f->has_session) {
        const uint8_t *sid = txn_session(t);
        if (!sid || memcmp(sid, f->session, f->session_len) != 0) return false;
    }
    if (f->has_clientid) {
        uint64_t id;
        if (!txn_clientid(f, t, &id) || id != f->clientid) return false;
    }
    int64_t lo, hi;
    if (filter_window(f, &lo, &hi)) {
        int64_t ts = t->call_frame ? t->call_ts_ns : t->reply_ts_ns;
        if (ts < lo || ts > hi) return false;
    }
    return true;
}

static void remember(struct ns_report_filter *f, const struct ns_txn *t)
{
    size_t byte = t->conn_id / 8;
    if (byte >= f->conns_bytes) {
        size_t n = (byte + 1) * 2;
        uint8_t *p = realloc(f->conns, n);
        if (p) {
            memset(p + f->conns_bytes, 0, n - f->conns_bytes);
            f->conns = p;
            f->conns_bytes = n;
        }
    }
    if (byte < f->conns_bytes) f->conns[byte] |= (uint8_t)(1u << (t->conn_id % 8));
    const uint8_t *sid = txn_session(t);
    if (sid) {
        size_t i = 0;
        while (i < f->nsessions && memcmp(f->sessions[i], sid, NS_SESSIONID_LEN) != 0) i++;
        if (i == f->nsessions) {
            if (f->nsessions < KEPT_IDS) memcpy(f->sessions[f->nsessions++], sid, NS_SESSIONID_LEN);
            else f->ids_full = true;
        }
    }
    uint64_t id;
    if (txn_clientid(f, t, &id)) {
        size_t i = 0;
        while (i < f->nclients && f->clients[i] != id) i++;
        if (i == f->nclients) {
            if (f->nclients < KEPT_IDS) f->clients[f->nclients++] = id;
            else f->ids_full = true;
        }
    }
}

/* The analyzer's counting rules (RPC stage), applied to one transaction. */
static void count(struct ns_report_filter *f, const struct ns_txn *t)
{
    struct ns_stats *st = &f->st;
    if (t->call_frame && !t->late_reply) { /* a late reply's call was counted when it was evicted */
        st->rpc_calls += t->sends ? t->sends : 1;
        st->rpc_retransmissions += t->sends > 1 ? t->sends - 1u : 0;
        if (t->backchannel) st->rpc_backchannel_calls += t->sends ? t->sends : 1;
        if (!t->reply_frame && t->verdict == NS_VERDICT_EVICTED_WAITING) st->rpc_calls_outstanding_evicted++;
        else if (!t->reply_frame) st->rpc_unmatched_calls++;
    }
    st->rpc_late_replies += t->late_reply;
    if (t->reply_frame) {
        st->rpc_replies += 1 + t->dup_replies;
        st->rpc_dup_replies += t->dup_replies;
        if (!t->call_frame) st->rpc_orphan_replies++;
        if (t->reply_stat == NS_REPLY_DENIED) st->rpc_denied++;
        else if (t->rpc_status != NS_RPC_SUCCESS) st->rpc_not_success++;
    }
    if (t->gss_service == NS_GSS_SVC_PRIVACY) st->rpc_gss_privacy++;
    st->txns++;
    ns_stats_add_txn_ops(st, t); /* operations and statuses: the core's own rules */
}

void ns_report_filter_on_txn(void *ctx, const struct ns_txn *t)
{
    struct ns_report_filter *f = ctx;
    f->seen++;
    if (!matches(f, t)) return;
    f->matched++;
    count(f, t);
    remember(f, t);
    if (f->next) f->next(f->next_ctx, t);
}

/* ---- what the report lists ---- */

bool filter_shows_conn(const struct ns_report_filter *f, uint32_t id)
{
    if (!f) return true;
    return id / 8 < f->conns_bytes && (f->conns[id / 8] >> (id % 8) & 1);
}

bool filter_shows_session(const struct ns_report_filter *f, const uint8_t *sid, bool has_client, uint64_t clientid)
{
    if (!f) return true;
    if (f->has_session) return memcmp(sid, f->session, f->session_len) == 0;
    if (f->has_clientid) return has_client && clientid == f->clientid;
    if (f->ids_full) return true;
    for (size_t i = 0; i < f->nsessions; i++)
        if (memcmp(f->sessions[i], sid, NS_SESSIONID_LEN) == 0) return true;
    return false;
}

bool filter_shows_client(const struct ns_report_filter *f, uint64_t clientid)
{
    if (!f) return true;
    if (f->has_clientid) return clientid == f->clientid;
    if (f->ids_full) return true;
    for (size_t i = 0; i < f->nclients; i++)
        if (f->clients[i] == clientid) return true;
    return false;
}

bool filter_shows_finding(const struct ns_report_filter *f, const struct ns_finding *x)
{
    if (!f) return true;
    if (f->has_session && (!x->has_session || memcmp(x->sessionid, f->session, f->session_len) != 0)) return false;
    if (f->has_clientid) {
        bool mine = x->has_client && x->clientid == f->clientid;
        if (!mine && x->has_session) {
            const struct ns_session_view *s = ns_analyzer_session_by_id(f->a, x->sessionid);
            mine = s && s->has_client && s->clientid == f->clientid;
        }
        if (!mine) return false;
    }
    int64_t lo, hi;
    if (filter_window(f, &lo, &hi) && (x->last_ts_ns < lo || x->first_ts_ns > hi)) return false;
    if (f->has_client || f->has_server) { /* on a connection of the matching traffic */
        for (unsigned i = 0; i < x->nconns; i++)
            if (filter_shows_conn(f, x->conns[i])) return true;
        return false;
    }
    return true;
}

bool filter_shows_udp_pair(const struct ns_report_filter *f, const struct ns_udp_pair *p)
{
    if (!f) return true;
    if (f->has_session || f->has_clientid) return false; /* NFSv4.1 sessions do not run over UDP */
    if (f->has_client && !addr_eq(&p->client, &f->client)) return false;
    if (f->has_server && (!addr_eq(&p->server.addr, &f->server) || (f->server_port && p->server.port != f->server_port)))
        return false;
    return true;
}
