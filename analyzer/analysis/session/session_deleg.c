/* Delegations per client (RFC 8881 s.10.4, s.10.2, s.20.2): granted by an
 * OPEN / WANT_DELEGATION reply, recalled by CB_RECALL, returned by
 * DELEGRETURN, revoked (NFS4ERR_DELEG_REVOKED); recall-to-return latency
 * against the client's lease; errors naming a recalled delegation; and the
 * findings DELEG_RETURN_SLOW and RECALL_STORM (doc/findings.md).
 *
 * Each delegation is an entry of a bounded table keyed by its stateid's
 * "other" field (12 bytes; the seqid changes, the delegation does not):
 * a ring in grant order with a hash over it, the oldest entry evicted when
 * it is full (counted). Allocated on the first delegation, under the
 * memory cap. Per-client figures live in the client's sess_dg, allocated
 * on its first delegation. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "nfs4_xdr_common.h"
#include "session_int.h"

enum { DELEG_MAX = 65536, DELEG_MIN = 1024 };
enum { DS_GRANTED = 1, DS_RECALLED, DS_RETURNED, DS_REVOKED };
enum { ERR_BAD_STATEID = 10025, ERR_EXPIRED = 10011, ERR_DELEG_REVOKED = 10087, ERR_OLD_STATEID = 10024 };
#define NONE UINT32_MAX

struct deleg {
    uint8_t other[12];
    uint8_t state;              /* DS_*; 0: slot free */
    bool has_client;
    bool judged_missing;        /* counted as not returned within the lease */
    uint64_t clientid;
    int64_t recall_ts;
    uint64_t recall_frame;
    uint32_t hnext;             /* hash chain (index, NONE) */
};

struct deleg_tab {
    struct deleg *e;
    uint32_t cap, n, next;      /* ring: next is the slot to fill (the oldest when full) */
    uint32_t *head;             /* cap * 2 hash heads */
};

static uint32_t other_hash(const uint8_t *o)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < 12; i++) h = (h ^ o[i]) * 16777619u;
    return h;
}

static bool tab_ready(struct sess_model *m)
{
    struct deleg_tab *d = m->deleg;
    if (d) return d->e != NULL;
    d = calloc(1, sizeof *d);
    if (!d) return false;
    m->deleg = d;
    for (uint32_t cap = DELEG_MAX; cap >= DELEG_MIN; cap /= 2) {
        size_t bytes = (size_t)cap * sizeof *d->e + (size_t)cap * 2 * sizeof *d->head;
        if (!memcap_take(m->mc, MEM_SESSIONS, bytes)) continue;
        d->e = calloc(cap, sizeof *d->e);
        d->head = malloc((size_t)cap * 2 * sizeof *d->head);
        if (!d->e || !d->head) {
            free(d->e);
            free(d->head);
            d->e = NULL;
            d->head = NULL;
            memcap_give(m->mc, MEM_SESSIONS, bytes);
            return false;
        }
        for (uint32_t i = 0; i < cap * 2; i++) d->head[i] = NONE;
        d->cap = cap;
        return true;
    }
    return false;
}

void deleg_free(struct sess_model *m)
{
    struct deleg_tab *d = m->deleg;
    if (!d) return;
    if (d->e) memcap_give(m->mc, MEM_SESSIONS, (size_t)d->cap * sizeof *d->e + (size_t)d->cap * 2 * sizeof *d->head);
    free(d->e);
    free(d->head);
    free(d);
    m->deleg = NULL;
}

static struct deleg *find(struct sess_model *m, const uint8_t *other)
{
    struct deleg_tab *d = m->deleg;
    if (!d || !d->e) return NULL;
    for (uint32_t i = d->head[other_hash(other) & (d->cap * 2 - 1)]; i != NONE; i = d->e[i].hnext)
        if (memcmp(d->e[i].other, other, 12) == 0) return &d->e[i];
    return NULL;
}

static void unlink_entry(struct deleg_tab *d, uint32_t ix)
{
    uint32_t *p = &d->head[other_hash(d->e[ix].other) & (d->cap * 2 - 1)];
    while (*p != NONE && *p != ix) p = &d->e[*p].hnext;
    if (*p == ix) *p = d->e[ix].hnext;
}

/* A new entry for other (the oldest dropped when full); NULL: no table. */
static struct deleg *add(struct sess_model *m, const uint8_t *other)
{
    if (!tab_ready(m)) {
        m->st.delegations_evicted++;
        return NULL;
    }
    struct deleg_tab *d = m->deleg;
    uint32_t ix = d->next;
    if (d->e[ix].state) {
        unlink_entry(d, ix);
        m->st.delegations_evicted++;
    } else {
        d->n++;
    }
    d->next = (ix + 1) % d->cap;
    struct deleg *e = &d->e[ix];
    memset(e, 0, sizeof *e);
    memcpy(e->other, other, 12);
    uint32_t *h = &d->head[other_hash(other) & (d->cap * 2 - 1)];
    e->hnext = *h;
    *h = ix;
    return e;
}

/* ---- per client ---- */

static const struct ns_delegations EMPTY_DG;

void dg_init(struct sess_client *cl)
{
    cl->v.delegations = cl->dg ? &cl->dg->d : &EMPTY_DG;
    cl->v.lease = &cl->lease;
}

struct sess_dg *dg_get(struct sess_model *m, struct sess_client *cl)
{
    if (cl->dg) return cl->dg;
    if (!memcap_take(m->mc, MEM_SESSIONS, sizeof *cl->dg)) { m->st.rules_dropped++; return NULL; }
    cl->dg = calloc(1, sizeof *cl->dg);
    if (!cl->dg) {
        memcap_give(m->mc, MEM_SESSIONS, sizeof *cl->dg);
        m->st.rules_dropped++;
        return NULL;
    }
    cl->dg->owner = cl;
    dg_init(cl);
    return cl->dg;
}

void dg_release(struct sess_model *m, struct sess_client *cl)
{
    if (!cl->dg) return;
    free(cl->dg);
    cl->dg = NULL;
    memcap_give(m->mc, MEM_SESSIONS, sizeof *cl->dg);
    dg_init(cl);
}

static int64_t lease_ns(const struct sess_model *m, const struct sess_dg *g)
{
    uint32_t s = g->owner->lease.lease_time_s;
    return s ? (int64_t)s * 1000000000 : m->cfg.lease_time_ns;
}

static struct sess_dg *client_dg(struct sess_model *m, bool has_client, uint64_t clientid, int64_t ts)
{
    if (!has_client) return NULL;
    struct sess_client *cl = sess_client_get(m, clientid, ts);
    return cl ? dg_get(m, cl) : NULL;
}

static struct sess_key client_key(uint64_t clientid)
{
    struct sess_key k;
    memset(&k, 0, sizeof k);
    k.has_client = true;
    k.clientid = clientid;
    return k;
}

/* cause[] of DELEG_RETURN_SLOW: 0 returns slower than half the lease, 1 of them after the lease,
 * 2 recalls not returned by the end of the capture and older than the lease, 3 the lease (s),
 * 4 the slowest return (ms), 5 errors naming a recalled delegation. */
enum { RS_SLOW, RS_PAST, RS_MISSING, RS_LEASE, RS_MAX_MS, RS_ERRORS };
/* RECALL_STORM: 0 recalls in the densest window, 1 the window (s), 2 the storm threshold. */
enum { ST_PEAK, ST_WINDOW, ST_COUNT };

static void slow_note(struct sess_model *m, struct sess_dg *g, uint64_t clientid, int64_t ts, uint64_t frame,
                      uint32_t conn, int which, int64_t lat_ns)
{
    struct sess_key k = client_key(clientid);
    struct keyed *e = sf_fold(m, SF_DELEG_SLOW, &k, ts, frame, conn);
    if (e) {
        e->cause[which]++;
        if (which == RS_PAST) e->cause[RS_SLOW]++;
        e->cause[RS_LEASE] = (uint32_t)(lease_ns(m, g) / 1000000000);
        uint64_t ms = lat_ns > 0 ? (uint64_t)lat_ns / 1000000 : 0;
        if (ms > e->cause[RS_MAX_MS]) e->cause[RS_MAX_MS] = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
        e->cause[RS_ERRORS] = (uint32_t)g->d.errors_after_recall;
        struct ns_finding *f = sf_finding(m, SF_DELEG_SLOW, &k);
        if (f && (e->cause[RS_PAST] || e->cause[RS_MISSING])) f->severity = NS_SEV_ERROR;
    }
    sf_commit(m, e, frame);
}

static void storm_check(struct sess_model *m, struct sess_dg *g, uint64_t clientid, const struct ns_txn *t)
{
    uint32_t n = m->cfg.storm_count ? m->cfg.storm_count : 20;
    int64_t win = m->cfg.storm_window_ns ? m->cfg.storm_window_ns : 10 * 1000000000LL;
    if (n > DG_RING) n = DG_RING;
    g->ring[g->ring_pos] = t->call_ts_ns;
    g->ring_pos = (g->ring_pos + 1) % DG_RING;
    if (g->ring_n < DG_RING) g->ring_n++;
    /* recalls within the window ending now, counted back through the ring */
    uint32_t in = 0;
    for (uint32_t i = 0; i < g->ring_n; i++) {
        int64_t ts = g->ring[(g->ring_pos + DG_RING - 1 - i) % DG_RING];
        if (t->call_ts_ns - ts > win) break;
        in++;
    }
    if (in > g->d.recalls_peak) g->d.recalls_peak = in;
    if (in < n) {
        g->in_storm = false;
        return;
    }
    if (!g->in_storm) g->d.recall_storms++;
    g->in_storm = true;
    struct sess_key k = client_key(clientid);
    struct keyed *e = sf_fold(m, SF_RECALL_STORM, &k, t->call_ts_ns, t->call_frame, t->conn_id);
    if (e) {
        if (in > e->cause[ST_PEAK]) e->cause[ST_PEAK] = in;
        e->cause[ST_WINDOW] = (uint32_t)(win / 1000000000);
        e->cause[ST_COUNT] = n;
    }
    sf_commit(m, e, t->call_frame);
}

/* ---- events ---- */

static bool is_deleg_type(uint32_t type) { return type == 1 || type == 2 || type == 4 || type == 5; }

void deleg_on_recall(struct sess_model *m, const struct ns_txn *t, struct sess *s)
{
    const struct nfs4_state_facts *sf = &t->state4;
    if (sf->stateid_op != NFS4_CB_RECALL) return;
    const uint8_t *other = sf->call_stateid + 4;
    struct deleg *d = find(m, other);
    if (!d) { /* granted before the capture */
        d = add(m, other);
        if (!d) return;
        d->state = DS_GRANTED;
        if (s && s->v.has_client) {
            d->has_client = true;
            d->clientid = s->v.clientid;
        }
    }
    if (d->state != DS_GRANTED) return; /* recalled again (a new CB_RECALL XID), returned or revoked */
    d->state = DS_RECALLED;
    d->recall_ts = t->call_ts_ns;
    d->recall_frame = t->call_frame;
    struct sess_dg *g = client_dg(m, d->has_client, d->clientid, t->call_ts_ns);
    if (!g) return;
    g->d.recalled++;
    g->recalled_pending++;
    storm_check(m, g, d->clientid, t);
}

/* Status of the first result of op in t's reply (NFS4_OK when not an error). */
static bool op_status(const struct ns_txn *t, uint32_t op, uint32_t *st)
{
    uint32_t rop, rst;
    for (uint32_t i = 0, n = ns_txn_nres(t); i < n; i++)
        if (ns_txn_res(t, i, &rop, &rst) && rop == op) {
            *st = rst;
            return true;
        }
    return false;
}

static void on_grant(struct sess_model *m, const struct ns_txn *t, struct sess *s)
{
    const struct nfs4_state_facts *sf = &t->state4;
    struct deleg *d = find(m, sf->deleg_stateid + 4);
    if (d && d->state != DS_RETURNED && d->state != DS_REVOKED) return; /* the same delegation told again */
    if (!d) d = add(m, sf->deleg_stateid + 4);
    if (!d) return;
    d->state = DS_GRANTED;
    d->has_client = s && s->v.has_client;
    d->clientid = d->has_client ? s->v.clientid : 0;
    d->judged_missing = false;
    struct sess_dg *g = client_dg(m, d->has_client, d->clientid, t->reply_ts_ns);
    if (!g) return;
    g->d.granted++;
    if (sf->deleg_type == 1 || sf->deleg_type == 4) g->d.granted_read++;
    else g->d.granted_write++;
    g->d.outstanding++;
    if (g->d.outstanding > g->d.outstanding_max) g->d.outstanding_max = g->d.outstanding;
}

static void gone(struct sess_dg *g, struct deleg *d, uint8_t state)
{
    if (d->state == DS_RECALLED && g && g->recalled_pending) g->recalled_pending--;
    if (g && g->d.outstanding) g->d.outstanding--;
    d->state = state;
}

static void on_return(struct sess_model *m, const struct ns_txn *t, struct deleg *d)
{
    struct sess_dg *g = client_dg(m, d->has_client, d->clientid, t->reply_ts_ns);
    bool recalled = d->state == DS_RECALLED;
    gone(g, d, DS_RETURNED);
    if (!g) return;
    g->d.returned++;
    if (!recalled) return;
    /* the client's answer to the recall is its DELEGRETURN call */
    int64_t lat = t->call_ts_ns > d->recall_ts ? t->call_ts_ns - d->recall_ts : 0;
    if ((uint64_t)lat >= g->d.recall_to_return.max_ns) g->d.return_max_frame = t->call_frame;
    ns_latency_add(&g->d.recall_to_return, (uint64_t)lat);
    int64_t lease = lease_ns(m, g);
    if (lat > lease) {
        if (!d->judged_missing) g->d.recalls_past_lease++;
        g->d.returns_slow++;
        slow_note(m, g, d->clientid, t->call_ts_ns, t->call_frame, t->conn_id, RS_PAST, lat);
    } else if (lat > lease / 2) {
        g->d.returns_slow++;
        slow_note(m, g, d->clientid, t->call_ts_ns, t->call_frame, t->conn_id, RS_SLOW, lat);
    }
}

/* The reply to an NFSv4.x COMPOUND (s: its session, NULL for 4.0 or unknown). */
void deleg_on_reply(struct sess_model *m, const struct ns_txn *t, struct sess *s)
{
    const struct nfs4_state_facts *sf = &t->state4;
    if (sf->has_lease_time && sf->lease_time_s && s && s->v.has_client) { /* the server's lease (GETATTR) */
        struct sess_client *cl = sess_client_find(m, s->v.clientid);
        if (cl) {
            cl->lease.lease_time_s = sf->lease_time_s;
            cl->lease.from_server = true;
        }
    }
    if (is_deleg_type(sf->deleg_type)) on_grant(m, t, s);
    if (!sf->stateid_op || !m->deleg) return;
    struct deleg *d = find(m, sf->call_stateid + 4);
    if (!d) return;
    uint32_t st = SST_OK;
    if (!op_status(t, sf->stateid_op, &st)) st = t->status;
    if (sf->stateid_op == NFS4_OP_DELEGRETURN && st == SST_OK) {
        if (d->state == DS_GRANTED || d->state == DS_RECALLED) on_return(m, t, d);
        return;
    }
    if (st != ERR_BAD_STATEID && st != ERR_DELEG_REVOKED && st != ERR_EXPIRED && st != ERR_OLD_STATEID) return;
    struct sess_dg *g = client_dg(m, d->has_client, d->clientid, t->reply_ts_ns);
    bool was_recalled = d->state == DS_RECALLED || d->recall_frame;
    if (g && was_recalled) {
        g->d.errors_after_recall++;
        struct sess_key k = client_key(d->clientid);
        struct keyed *e = sf_keyed(m, SF_DELEG_SLOW, &k);
        if (e) {
            e->cause[RS_ERRORS] = (uint32_t)g->d.errors_after_recall;
            sf_commit(m, e, 0);
        }
    }
    if (st == ERR_DELEG_REVOKED && (d->state == DS_GRANTED || d->state == DS_RECALLED)) {
        /* revoked because the recall went unanswered for longer than the lease */
        bool missing = g && d->state == DS_RECALLED && !d->judged_missing &&
                       t->reply_ts_ns - d->recall_ts > lease_ns(m, g);
        gone(g, d, DS_REVOKED);
        if (g) g->d.revoked++;
        if (missing) {
            d->judged_missing = true;
            g->d.recalls_past_lease++;
            slow_note(m, g, d->clientid, t->reply_ts_ns, t->reply_frame, t->conn_id, RS_MISSING,
                      t->reply_ts_ns - d->recall_ts);
        }
    }
}

/* ---- leases ---- */

/* cause[] of LEASE_EXPIRED_GAP: 0 the lease (s), 1 the longest gap (s), 2 NFS4ERR_EXPIRED,
 * 3 STALE_CLIENTID, 4 BADSESSION replies after such a gap. */
enum { LG_LEASE, LG_GAP, LG_EXPIRED, LG_STALE, LG_BADSESSION };

void lease_on_renew(struct sess_model *m, struct sess *s, const struct ns_txn *t)
{
    if (!s->v.has_client) return;
    struct sess_client *cl = sess_client_find(m, s->v.clientid);
    if (!cl) return;
    struct ns_lease *l = &cl->lease;
    l->renewals++;
    int64_t gap = cl->last_renew_ts ? t->call_ts_ns - cl->last_renew_ts : 0;
    if (t->call_ts_ns > cl->last_renew_ts) cl->last_renew_ts = t->call_ts_ns;
    if (gap <= 0) return;
    if (gap > l->longest_gap_ns) {
        l->longest_gap_ns = gap;
        l->gap_end_frame = t->call_frame;
    }
    int64_t lease = l->lease_time_s ? (int64_t)l->lease_time_s * 1000000000 : m->cfg.lease_time_ns;
    if (gap <= lease) return;
    cl->gap_over = true; /* until a reply succeeds: the errors that follow are tied to the gap */
    l->gaps_past_lease++;
    struct sess_key k = client_key(cl->v.clientid);
    struct keyed *e = sf_fold(m, SF_LEASE_GAP, &k, t->call_ts_ns, t->call_frame, t->conn_id);
    if (e) {
        e->cause[LG_LEASE] = (uint32_t)(lease / 1000000000);
        uint64_t gs = (uint64_t)(l->longest_gap_ns / 1000000000);
        e->cause[LG_GAP] = gs > UINT32_MAX ? UINT32_MAX : (uint32_t)gs;
    }
    sf_commit(m, e, t->call_frame);
}

void lease_on_reply(struct sess_model *m, struct sess *s, const struct ns_txn *t)
{
    int which = t->status == ERR_EXPIRED ? LG_EXPIRED : t->status == SST_STALE_CLIENTID ? LG_STALE
              : t->status == SST_BADSESSION ? LG_BADSESSION : -1;
    if (!s->v.has_client) return;
    struct sess_client *cl = sess_client_find(m, s->v.clientid);
    if (!cl || !cl->gap_over) return;
    if (t->status == SST_OK) cl->gap_over = false;
    if (which < 0) return;
    struct sess_key k = client_key(cl->v.clientid);
    struct keyed *e = sf_keyed(m, SF_LEASE_GAP, &k);
    if (!e) return;
    e->cause[which]++;
    struct ns_finding *f = sf_finding(m, SF_LEASE_GAP, &k);
    if (f) f->severity = NS_SEV_ERROR;
    sf_commit(m, e, t->reply_frame);
}

/* Recalls still unanswered older than the lease (at now): DELEG_RETURN_SLOW. */
void deleg_judge_missing(struct sess_model *m, int64_t now)
{
    struct deleg_tab *d = m->deleg;
    if (!d || !d->e) return;
    for (uint32_t i = 0; i < d->cap; i++) {
        struct deleg *e = &d->e[i];
        if (e->state != DS_RECALLED || e->judged_missing || !e->has_client) continue;
        struct sess_client *cl = sess_client_find(m, e->clientid);
        struct sess_dg *g = cl ? cl->dg : NULL;
        if (!g || now - e->recall_ts <= lease_ns(m, g)) continue;
        e->judged_missing = true;
        g->d.recalls_past_lease++;
        slow_note(m, g, e->clientid, e->recall_ts, e->recall_frame, 0, RS_MISSING, now - e->recall_ts);
    }
}

/* ---- messages ---- */

#define PL(count) ((count) == 1 ? "" : "s")

static size_t put(char *b, size_t o, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static size_t put(char *b, size_t o, const char *fmt, ...)
{
    if (o >= NS_FINDING_MSG_MAX) return o;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b + o, NS_FINDING_MSG_MAX - o, fmt, ap);
    va_end(ap);
    return n < 0 ? o : o + (size_t)n;
}

void deleg_render(uint8_t kind, const struct ns_finding *f, const uint32_t *cause, char *b)
{
    size_t o = 0;
    if (kind == SF_DELEG_SLOW) {
        o = put(b, o, "delegations recalled and returned late (lease %u s):", cause[RS_LEASE]);
        if (cause[RS_SLOW])
            o = put(b, o, " %u return%s (DELEGRETURN) more than half the lease after CB_RECALL, %u of them after the "
                          "lease;", cause[RS_SLOW], PL(cause[RS_SLOW]), cause[RS_PAST]);
        if (cause[RS_MISSING])
            o = put(b, o, " %u recall%s never answered by a DELEGRETURN for longer than the lease;", cause[RS_MISSING],
                    PL(cause[RS_MISSING]));
        if (cause[RS_MAX_MS]) o = put(b, o, " slowest %u ms;", cause[RS_MAX_MS]);
        if (cause[RS_ERRORS])
            o = put(b, o, " %u error%s (BAD_STATEID, DELEG_REVOKED, EXPIRED) named a recalled delegation after;",
                    cause[RS_ERRORS], PL(cause[RS_ERRORS]));
        put(b, o, " the conflicting client waits (NFS4ERR_DELAY) until the return, and the server may revoke what "
                  "is not returned within the lease.");
        return;
    }
    if (kind == SF_LEASE_GAP) {
        o = put(b, o, "%" PRIu64 " time%s the client went longer than its lease (%u s) without renewing it (no "
                      "SEQUENCE): longest gap %u s;", f->count, PL(f->count), cause[LG_LEASE], cause[LG_GAP]);
        if (cause[LG_EXPIRED] || cause[LG_STALE] || cause[LG_BADSESSION])
            o = put(b, o, " then the server answered NFS4ERR_EXPIRED %u, STALE_CLIENTID %u, BADSESSION %u time(s):",
                    cause[LG_EXPIRED], cause[LG_STALE], cause[LG_BADSESSION]);
        put(b, o, " the server may expire the client's state (opens, locks, delegations) once the lease runs out.");
        return;
    }
    if (kind == SF_RECALL_STORM) {
        put(b, o,
            "recall storm: up to %u CB_RECALL within %u s (threshold %u; %" PRIu64 " recall%s in storms): many "
            "delegations of this client conflict with other clients' opens at once; the server does the work of "
            "granting, recalling and waiting for each.",
            cause[ST_PEAK], cause[ST_WINDOW], cause[ST_COUNT], f->count, PL(f->count));
        return;
    }
    b[0] = 0;
}
