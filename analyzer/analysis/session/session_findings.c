/* The session findings of doc/findings.md: one finding per kind and session
 * (or client) for CONN_NOT_BOUND, SEQ_MISORDERED and the slot rules, with
 * the cause diagnosed from the bindings and slot table. Each occurrence
 * updates the numbers the message says (struct keyed_state, kept by the
 * store); the message is rendered from them when a front end reads the
 * finding (keyed_render). SLOT_LIMITED keeps the session's slot figures
 * the same way (slot_limited_render). Storms are in session_storms.c,
 * GRACE_STUCK in session_grace.c. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "finding_digits.h"
#include "nfs4_xdr_common.h"
#include "session_int.h"

static const struct {
    const char *kind;
    uint8_t sev;
    const char *rfc;
} FK[SF_N] = {
    [SF_CONN_NOT_BOUND] = {"CONN_NOT_BOUND", NS_SEV_ERROR, "RFC 8881 2.10.3.1, 18.34"},
    [SF_SEQ_MISORDERED] = {"SEQ_MISORDERED", NS_SEV_ERROR, "RFC 8881 2.10.6.1"},
    [SF_SLOT_LIMITED] = {"SLOT_LIMITED", NS_SEV_INFO, "RFC 8881 18.36.3"},
    [SF_SHRUNK] = {"SLOT_TABLE_SHRUNK", NS_SEV_WARNING, "RFC 8881 2.10.6.1, 18.46.3"},
    [SF_GAP] = {"SLOT_SEQ_GAP", NS_SEV_WARNING, "RFC 8881 2.10.6.1"},
    [SF_ABOVE] = {"SLOT_ABOVE_GRANTED", NS_SEV_WARNING, "RFC 8881 18.46.3"},
    [SF_REPLAY] = {"REPLAY", NS_SEV_INFO, "RFC 8881 2.10.6.2"},
    [SF_FALSE_RETRY] = {"FALSE_RETRY", NS_SEV_ERROR, "RFC 8881 2.10.6.2"},
    [SF_SEQPOS] = {"SEQUENCE_POS", NS_SEV_ERROR, "RFC 8881 2.10.6.4, 18.46.3"},
    [SF_DEAD_USE] = {"DEAD_SESSION_USE", NS_SEV_ERROR, "RFC 8881 2.10.13, 18.46.3"},
    [SF_CB_MISORDERED] = {"CB_SEQ_MISORDERED", NS_SEV_WARNING, "RFC 8881 2.10.6.1, 20.9.3"},
    [SF_CB_ABOVE] = {"CB_SLOT_ABOVE_GRANTED", NS_SEV_WARNING, "RFC 8881 20.9.3"},
    [SF_CB_UNANSWERED] = {"CB_UNANSWERED", NS_SEV_ERROR, "RFC 8881 2.10.3.1, 20.9"},
    [SF_CB_PATH_DOWN] = {"CB_PATH_DOWN", NS_SEV_ERROR, "RFC 8881 18.46.3, 2.10.3.1"},
    [SF_STATE_REVOKED] = {"STATE_REVOKED", NS_SEV_ERROR, "RFC 8881 18.46.3, 18.48, 18.38"},
    [SF_GSS_EXPIRING] = {"CB_GSS_CONTEXTS_EXPIRING", NS_SEV_WARNING, "RFC 8881 18.46.3, 18.33"},
    [SF_GSS_EXPIRED] = {"CB_GSS_CONTEXTS_EXPIRED", NS_SEV_ERROR, "RFC 8881 18.46.3, 18.33"},
    [SF_BC_FAULT] = {"BACKCHANNEL_FAULT", NS_SEV_ERROR, "RFC 8881 18.46.3"},
    [SF_RECLAIM_NEEDED] = {"RESTART_RECLAIM_NEEDED", NS_SEV_WARNING, "RFC 8881 18.46.3"},
    [SF_LEASE_MOVED] = {"LEASE_MOVED", NS_SEV_WARNING, "RFC 8881 18.46.3"},
    [SF_DEVID] = {"DEVID_CHANGED", NS_SEV_INFO, "RFC 8881 18.46.3"},
    [SF_DELEG_SLOW] = {"DELEG_RETURN_SLOW", NS_SEV_WARNING, "RFC 8881 10.4.6, 10.2, 20.2"},
    [SF_RECALL_STORM] = {"RECALL_STORM", NS_SEV_WARNING, "RFC 8881 10.4.6, 20.2"},
    [SF_LEASE_GAP] = {"LEASE_EXPIRED_GAP", NS_SEV_WARNING, "RFC 8881 8.3, 2.10.6.4"},
};

bool sf_key_eq(const struct sess_key *a, const struct sess_key *b)
{
    return a->has_session == b->has_session && a->has_client == b->has_client &&
           (!a->has_session || memcmp(a->sessionid, b->sessionid, NS_SESSIONID_LEN) == 0) &&
           (!a->has_client || a->clientid == b->clientid);
}

uint32_t sf_key_hash(uint8_t kind, const struct sess_key *k)
{
    uint32_t h = 2166136261u ^ kind;
    h = (h ^ (uint32_t)(k->has_session | k->has_client << 1)) * 16777619u;
    if (k->has_session)
        for (int i = 0; i < NS_SESSIONID_LEN; i++) h = (h ^ k->sessionid[i]) * 16777619u;
    if (k->has_client)
        for (int i = 0; i < 8; i++) h = (h ^ (uint8_t)(k->clientid >> (8 * i))) * 16777619u;
    return h;
}

static struct keyed *keyed_slot(struct keyed *tab, size_t size, uint8_t kind, const struct sess_key *k)
{
    size_t i = sf_key_hash(kind, k) & (size - 1);
    while (tab[i].used && !(tab[i].kind == kind && sf_key_eq(&tab[i].key, k))) i = (i + 1) & (size - 1);
    return &tab[i];
}

static struct keyed *keyed_find(struct sess_model *m, uint8_t kind, const struct sess_key *k)
{
    if (!m->keyed_size) return NULL;
    struct keyed *e = keyed_slot(m->keyed, m->keyed_size, kind, k);
    return e->used ? e : NULL;
}

/* Found or added (NULL: table full or no memory). */
static struct keyed *keyed_get(struct sess_model *m, uint8_t kind, const struct sess_key *k, bool *added)
{
    *added = false;
    struct keyed *e = keyed_find(m, kind, k);
    if (e) return e;
    if ((m->nkeyed + 1) * 2 > m->keyed_size) {
        size_t ns = m->keyed_size ? m->keyed_size * 2 : 64;
        if (ns > SESS_KEYED_MAX * 2 || !memcap_take(m->mc, MEM_SESSIONS, ns * sizeof *m->keyed)) return NULL;
        struct keyed *nt = calloc(ns, sizeof *nt);
        if (!nt) { memcap_give(m->mc, MEM_SESSIONS, ns * sizeof *m->keyed); return NULL; }
        for (size_t i = 0; i < m->keyed_size; i++)
            if (m->keyed[i].used) *keyed_slot(nt, ns, m->keyed[i].kind, &m->keyed[i].key) = m->keyed[i];
        memcap_give(m->mc, MEM_SESSIONS, m->keyed_size * sizeof *m->keyed);
        free(m->keyed);
        m->keyed = nt;
        m->keyed_size = ns;
    }
    e = keyed_slot(m->keyed, m->keyed_size, kind, k);
    memset(e, 0, sizeof *e);
    e->used = true;
    e->kind = kind;
    e->key = *k;
    e->fidx = SIZE_MAX;
    m->nkeyed++;
    *added = true;
    return e;
}

void sf_set_subject(struct sess_model *m, struct ns_finding *f, const struct sess_key *k)
{
    if (k->has_session) {
        f->has_session = true;
        memcpy(f->sessionid, k->sessionid, NS_SESSIONID_LEN);
        struct sess *s = sess_find(m, k->sessionid);
        if (s && s->v.has_client) { f->has_client = true; f->clientid = s->v.clientid; }
    }
    if (k->has_client) { f->has_client = true; f->clientid = k->clientid; }
}

/* What a keyed finding's message says besides its count: only what the
 * message of its kind shows, so that equal states are equal messages. */
struct keyed_state {
    uint8_t kind;
    bool has_cs, sr_seen;
    uint32_t cause[8];
    uint32_t conn_sp;
    uint32_t cs_got, cs_want;
};
_Static_assert(sizeof(struct keyed_state) <= FINDINGS_STATE_MAX, "keyed_state too large");

/* Rendered by keyed_render; SLOT_LIMITED and DEAD_SESSION_USE keep states
 * of their own (slot_limited_render, dead_render). */
static bool keyed_rendered(uint8_t kind) { return kind != SF_SLOT_LIMITED && kind != SF_DEAD_USE; }

static void keyed_state_of(struct sess_model *m, struct keyed *e, struct keyed_state *st)
{
    memset(st, 0, sizeof *st);
    st->kind = e->kind;
    switch ((enum sess_fkind)e->kind) {
    case SF_CONN_NOT_BOUND:
        memcpy(st->cause, e->cause, sizeof st->cause);
        if (e->cause[CNBC_SEQ_PROTECTED]) st->conn_sp = e->conn_sp;
        break;
    case SF_SEQ_MISORDERED:
        memcpy(st->cause, e->cause, sizeof st->cause);
        if (e->cause[SEQC_CS_SEQUENCE] && e->has_cs) {
            st->has_cs = true;
            st->cs_got = e->cs_got;
            st->cs_want = e->cs_want;
        }
        break;
    case SF_ABOVE: {
        struct sess *s = e->key.has_session ? sess_find(m, e->key.sessionid) : NULL;
        e->sr_seen |= s && s->v.has_seq_reply; /* kept if the session is evicted */
        st->sr_seen = e->sr_seen;
        break;
    }
    default:
        if (e->kind >= SF_BC_FIRST) memcpy(st->cause, e->cause, sizeof st->cause);
        break;
    }
}

static void keyed_render(const struct ns_finding *f, const void *state, char *b);

struct ns_finding *sf_finding(struct sess_model *m, enum sess_fkind kind, const struct sess_key *k)
{
    struct keyed *e = keyed_find(m, (uint8_t)kind, k);
    return e && e->fidx != SIZE_MAX ? findings_get(m->fs, e->fidx) : NULL;
}

struct keyed *sf_keyed(struct sess_model *m, enum sess_fkind kind, const struct sess_key *k)
{
    return keyed_find(m, (uint8_t)kind, k);
}

struct keyed *sf_fold(struct sess_model *m, enum sess_fkind kind, const struct sess_key *k, int64_t ts,
                      uint64_t frame, uint32_t conn)
{
    bool added;
    struct keyed *e = keyed_get(m, (uint8_t)kind, k, &added);
    if (!e) {
        m->st.rules_dropped++;
        return NULL;
    }
    struct ns_finding *f = e->fidx == SIZE_MAX ? NULL : findings_get(m->fs, e->fidx);
    if (!f) {
        f = findings_add(m->fs, FK[kind].kind, FK[kind].sev, ts);
        if (!f) return e;
        e->fidx = findings_index(m->fs, f);
        sf_set_subject(m, f, k);
        finding_set_rfc(f, FK[kind].rfc);
        if (keyed_rendered((uint8_t)kind)) findings_set_renderer(m->fs, f, keyed_render);
    }
    finding_note(f, ts, frame, conn);
    return e;
}


void sf_commit(struct sess_model *m, struct keyed *e, uint64_t frame)
{
    struct ns_finding *f = e && e->fidx != SIZE_MAX ? findings_get(m->fs, e->fidx) : NULL;
    if (!f) return;
    if (keyed_rendered(e->kind)) keyed_state_of(m, e, findings_state(m->fs, f));
    findings_touch(m->fs, f, frame);
}

struct keyed *sf_note(struct sess_model *m, enum sess_fkind kind, const struct sess_key *k, int64_t ts,
                      uint64_t frame, uint32_t conn)
{
    struct keyed *e = sf_fold(m, kind, k, ts, frame, conn);
    sf_commit(m, e, frame);
    return e;
}

/* e's numbers as they are now; the store told if what the message says
 * changed (SLOT_LIMITED and DEAD_SESSION_USE are kept up to date by their
 * own code). */
static void keyed_refresh(struct sess_model *m, struct keyed *e)
{
    struct ns_finding *f = e->fidx == SIZE_MAX ? NULL : findings_get(m->fs, e->fidx);
    if (!f || !keyed_rendered(e->kind)) return;
    struct keyed_state st;
    keyed_state_of(m, e, &st);
    void *old = findings_state(m->fs, f);
    if (memcmp(&st, old, sizeof st) == 0) return;
    memcpy(old, &st, sizeof st);
    findings_touch(m->fs, f, 0);
}

void sf_refresh_all(struct sess_model *m)
{
    for (size_t i = 0; i < m->keyed_size; i++)
        if (m->keyed[i].used) keyed_refresh(m, &m->keyed[i]);
}

void sf_seq_reply_seen(struct sess_model *m, struct sess *s)
{
    struct sess_key k = sess_key_of(s);
    struct keyed *e = keyed_find(m, SF_ABOVE, &k);
    if (e) keyed_refresh(m, e);
}

/* ---- replies with errors ---- */

static bool has_status(const struct ns_txn *t, uint32_t code)
{
    if (t->has_status && t->status == code) return true;
    uint32_t op, st;
    for (uint32_t i = 0; ns_txn_res(t, i, &op, &st); i++)
        if (st == code) return true;
    return false;
}

void sf_on_reply_errors(struct sess_model *m, const struct ns_txn *t, struct sess *s, const struct ns_conn *c)
{
    (void)c;
    if (!t->has_status || t->status == SST_OK) return;
    const struct nfs4_call *c4 = &t->u.v4.call;
    struct sess_key k;
    memset(&k, 0, sizeof k);
    if (c4->has_seq) {
        k.has_session = true;
        memcpy(k.sessionid, c4->seq.sessionid, NS_SESSIONID_LEN);
    } else if (c4->setup.has_destroy_session || c4->setup.has_bind_conn) {
        k.has_session = true;
        memcpy(k.sessionid, c4->setup.has_destroy_session ? c4->setup.destroy_session_id : c4->setup.bind_conn.sessionid,
               NS_SESSIONID_LEN);
    } else if (c4->setup.has_create_session) {
        k.has_client = true;
        k.clientid = c4->setup.create_session.clientid;
    }
    int64_t ts = t->reply_ts_ns;
    uint64_t fr = t->reply_frame;
    uint32_t conn = t->conn_id;
    if (has_status(t, SST_CONN_NOT_BOUND)) {
        struct keyed *e = sf_fold(m, SF_CONN_NOT_BOUND, &k, ts, fr, conn);
        enum cnb_cause cause;
        if (t->kind == NS_TXN_NFS4_CB) {
            cause = CNBC_BACKCHANNEL;
        } else if (c4->setup.has_destroy_session && !c4->has_seq) {
            cause = CNBC_DESTROY;
        } else {
            struct ns_session_conn *sc = NULL;
            for (uint32_t i = 0; s && i < s->v.nconns; i++)
                if (s->v.conns[i].conn_id == conn) sc = &s->v.conns[i];
            if (sc) sc->not_bound_errors++;
            const struct sess_client *cl = s && s->v.has_client ? sess_client_find(m, s->v.clientid) : NULL;
            if (sc && (sc->fore || sc->method != NS_BIND_NONE)) cause = CNBC_BOUND;
            else if (cl && cl->v.from_exchange_id && cl->v.sp_granted != NS_SP4_NONE) {
                cause = CNBC_SEQ_PROTECTED;
                if (e) e->conn_sp = cl->v.sp_granted;
            } else cause = CNBC_SEQ_UNBOUND;
        }
        if (e) e->cause[cause]++;
        sf_commit(m, e, fr);
    }
    if (has_status(t, SST_SEQ_MISORDERED) && t->kind != NS_TXN_NFS4_CB) { /* callbacks: CB_SEQ_MISORDERED */
        struct keyed *e = sf_fold(m, SF_SEQ_MISORDERED, &k, ts, fr, conn);
        enum seq_cause cause = SEQC_UNKNOWN;
        if (c4->setup.has_create_session && !c4->has_seq) {
            cause = SEQC_CS_SEQUENCE;
            const struct sess_client *cl = sess_client_find(m, c4->setup.create_session.clientid);
            if (e && cl && cl->v.from_exchange_id) {
                e->has_cs = true;
                e->cs_got = c4->setup.create_session.sequence;
                e->cs_want = cl->v.create_session_next;
            }
        } else if (s && c4->has_seq) {
            cause = slots_cause(s, t);
            if (cause == SEQC_NONE) cause = SEQC_UNKNOWN;
        }
        if (e) e->cause[cause]++;
        sf_commit(m, e, fr);
        /* the call was refused: front ends show its frame as misordered */
        analysis_amend_tell(&m->amend, t->call_frame, NS_AMEND_MISORDERED_CAUSE, t, fr);
    }
    static const uint32_t storm_code[SK_N] = {
        [SK_CONN_NOT_BOUND] = SST_CONN_NOT_BOUND, [SK_SEQ_MISORDERED] = SST_SEQ_MISORDERED,
        [SK_BADSESSION] = SST_BADSESSION, [SK_DEADSESSION] = SST_DEADSESSION, [SK_BADSLOT] = SST_BADSLOT,
        [SK_DELAY] = SST_DELAY,
    };
    for (int kd = 0; kd < SK_N; kd++)
        if (has_status(t, storm_code[kd])) storm_note(m, (enum storm_kind)kd, &k, ts, fr, conn);
    if (has_status(t, SST_GRACE) && s && s->v.has_client) {
        struct sess_client *cl = sess_client_find(m, s->v.clientid);
        if (cl) grace_on_reply(m, cl, ts, fr, conn);
    }
}

/* ---- SLOT_LIMITED ---- */

/* What its message says (only that: equal states are equal messages), kept
 * by the store and rendered by slot_limited_render when a front end reads
 * the finding. */
struct slot_limited_state {
    uint32_t asked, granted, used_up_to, max_outstanding;
    int64_t busy_tenths;        /* of a percent, as "%.1f" shows 100 x saturated_fraction */
    uint64_t saturated_calls;
    bool ran_into;              /* the session filled the table */
};
_Static_assert(sizeof(struct slot_limited_state) <= FINDINGS_STATE_MAX, "slot_limited_state too large");

static void slot_limited_render(const struct ns_finding *f, const void *state, char *b)
{
    (void)f;
    const struct slot_limited_state *st = state;
    snprintf(b, NS_FINDING_MSG_MAX,
             "CREATE_SESSION asked %u fore-channel slots and the server granted %u. The client used slots up to %u "
             "with at most %u requests outstanding; all granted slots were busy %" PRId64 ".%" PRId64
             "%% of the time (%" PRIu64 " calls). %s",
             st->asked, st->granted, st->used_up_to, st->max_outstanding, st->busy_tenths / 10, st->busy_tenths % 10,
             st->saturated_calls,
             st->ran_into ? "The session ran into the limit: the grant caps its concurrency."
                          : "The session never filled the table.");
}

/* The state of s's finding as of now (its fractions up to date), and the
 * severity: a warning once the session ran into the limit. */
static uint8_t slot_limited_state(const struct sess *s, struct slot_limited_state *st)
{
    const struct ns_session_view *v = &s->v;
    memset(st, 0, sizeof *st);
    st->asked = v->fore_requested.maxrequests;
    st->granted = v->fore_granted.maxrequests;
    st->used_up_to = v->any_slot_used ? v->highest_slot_used : 0;
    st->max_outstanding = v->max_outstanding;
    st->busy_tenths = finding_digits(100.0 * v->saturated_fraction, 1);
    st->saturated_calls = v->saturated_calls;
    st->ran_into = v->saturated_ns > 0 || s->saturated || v->saturated_calls > 0;
    return st->ran_into ? NS_SEV_WARNING : NS_SEV_INFO;
}

void sf_slot_limited(struct sess_model *m, struct sess *s, uint64_t reply_frame, int64_t ts)
{
    const struct ns_session_view *v = &s->v;
    if (!v->has_granted || v->fore_granted.maxrequests >= v->fore_requested.maxrequests) return;
    struct sess_key k = sess_key_of(s);
    struct keyed *e = keyed_find(m, SF_SLOT_LIMITED, &k);
    slots_update_fractions(s);
    if (reply_frame) {
        if (e) return; /* one per session */
        e = sf_fold(m, SF_SLOT_LIMITED, &k, ts, v->create_call_frame, v->create_conn);
        struct ns_finding *f = e && e->fidx != SIZE_MAX ? findings_get(m->fs, e->fidx) : NULL;
        if (!f) return;
        f->first_ts_ns = v->first_ts_ns < ts ? v->first_ts_ns : ts;
        finding_add_frame(f, reply_frame);
        findings_set_renderer(m->fs, f, slot_limited_render);
        f->severity = slot_limited_state(s, findings_state(m->fs, f));
        findings_touch(m->fs, f, v->create_call_frame); /* its frames: the CREATE_SESSION call and reply */
        findings_touch(m->fs, f, reply_frame);
        return;
    }
    struct ns_finding *f = e && e->fidx != SIZE_MAX ? findings_get(m->fs, e->fidx) : NULL;
    if (!f) return;
    struct slot_limited_state st;
    uint8_t sev = slot_limited_state(s, &st);
    void *old = findings_state(m->fs, f);
    if (sev == f->severity && memcmp(&st, old, sizeof st) == 0) return;
    f->severity = sev;
    memcpy(old, &st, sizeof st);
    findings_touch(m->fs, f, 0);
}

/* ---- messages ---- */

#define PL(count) ((count) == 1 ? "" : "s") /* "1 request", "2 requests" */

static size_t add(char *b, size_t n, size_t o, const char *fmt, uint32_t v)
{
    if (!v || o >= n) return o;
    int w = snprintf(b + o, n - o, fmt, v);
    return w > 0 ? o + (size_t)w : o;
}

/* The message of a keyed finding from its count and state, into b
 * (NS_FINDING_MSG_MAX bytes). */
static void keyed_render(const struct ns_finding *f, const void *state, char *b)
{
    const struct keyed_state *e = state;
    size_t n = NS_FINDING_MSG_MAX, o = 0;
    switch ((enum sess_fkind)e->kind) {
    case SF_CONN_NOT_BOUND:
        o = (size_t)snprintf(b, n, "%" PRIu64 " request%s refused with NFS4ERR_CONN_NOT_BOUND_TO_SESSION:", f->count,
                             PL(f->count));
        if (e->cause[CNBC_SEQ_PROTECTED] && o < n)
            o += (size_t)snprintf(b + o, n - o,
                                  " %u on connections not bound by BIND_CONN_TO_SESSION at the time, while the client ID uses "
                                  "%s, which forbids implicit binding by SEQUENCE: bind each new connection first;",
                                  e->cause[CNBC_SEQ_PROTECTED], e->conn_sp == NS_SP4_SSV ? "SP4_SSV" : "SP4_MACH_CRED");
        o = add(b, n, o, " %u on connections the capture does not show bound at the time;", e->cause[CNBC_SEQ_UNBOUND]);
        o = add(b, n, o, " %u DESTROY_SESSION on an unbound connection;", e->cause[CNBC_DESTROY]);
        o = add(b, n, o, " %u backchannel requests on a connection not bound for the back channel;",
                e->cause[CNBC_BACKCHANNEL]);
        o = add(b, n, o, " %u on connections the capture shows bound (binding lost by the server);",
                e->cause[CNBC_BOUND]);
        break;
    case SF_SEQ_MISORDERED:
        o = (size_t)snprintf(b, n, "%" PRIu64 " request%s refused with NFS4ERR_SEQ_MISORDERED:", f->count, PL(f->count));
        o = add(b, n, o,
                " %u sequence ID skipped ahead of the slot's last accepted one (a rejected request did not advance "
                "the server's slot, the client's did);",
                e->cause[SEQC_SKIPPED]);
        o = add(b, n, o, " %u sequence ID went backwards;", e->cause[SEQC_BACKWARDS]);
        o = add(b, n, o, " %u slot reused while its request was in flight;", e->cause[SEQC_IN_FLIGHT]);
        o = add(b, n, o, " %u slot reused on another connection before its reply;", e->cause[SEQC_OTHER_CONN]);
        if (e->cause[SEQC_CS_SEQUENCE] && o < n) {
            if (e->has_cs)
                o += (size_t)snprintf(b + o, n - o,
                                      " %u CREATE_SESSION with csa_sequence %u where %u (eir_sequenceid, or the "
                                      "previous csa_sequence + 1) was due;",
                                      e->cause[SEQC_CS_SEQUENCE], e->cs_got, e->cs_want);
            else
                o = add(b, n, o, " %u CREATE_SESSION whose csa_sequence the server did not expect;",
                        e->cause[SEQC_CS_SEQUENCE]);
        }
        o = add(b, n, o, " %u with no cause visible in the capture;", e->cause[SEQC_UNKNOWN]);
        break;
    case SF_SHRUNK:
        o = (size_t)snprintf(b, n,
                             "The server lowered target_highest_slotid %" PRIu64
                             " time%s while more requests were outstanding than the new target allows; the client "
                             "must move to lower slots as they free up.",
                             f->count, PL(f->count));
        break;
    case SF_GAP:
        o = (size_t)snprintf(b, n,
                             "%" PRIu64 " SEQUENCE call%s carried a sequence ID other than the slot's last one + 1 "
                             "(a new request adds one, a retry reuses it); expect NFS4ERR_SEQ_MISORDERED.",
                             f->count, PL(f->count));
        break;
    case SF_ABOVE:
        o = (size_t)snprintf(b, n,
                             "%" PRIu64 " SEQUENCE call%s used a slot above the highest one the server granted%s; "
                             "expect NFS4ERR_BADSLOT.",
                             f->count, PL(f->count), e->sr_seen ? " (CREATE_SESSION or sr_highest_slotid)" : "");
        break;
    case SF_REPLAY:
        o = (size_t)snprintf(b, n,
                             "%" PRIu64 " request%s sent again with the same slot, sequence ID and operations "
                             "(retries; the server answers from its reply cache).",
                             f->count, f->count == 1 ? " was" : "s were");
        break;
    case SF_FALSE_RETRY:
        o = (size_t)snprintf(b, n,
                             "%" PRIu64 " request%s reused a slot's last sequence ID with different operations: a "
                             "false retry (expect NFS4ERR_SEQ_FALSE_RETRY, or a wrong cached reply).",
                             f->count, PL(f->count));
        break;
    case SF_SEQPOS:
        o = (size_t)snprintf(b, n,
                             "%" PRIu64 " COMPOUND%s SEQUENCE other than first, or no SEQUENCE and a first "
                             "operation that needs one; expect NFS4ERR_SEQUENCE_POS or NFS4ERR_OP_NOT_IN_SESSION.",
                             f->count, f->count == 1 ? " has" : "s have");
        break;
    default: /* SLOT_LIMITED: slot_limited_render; DEAD_SESSION_USE: dead_render */
        if (e->kind >= SF_BC_FIRST) bc_render(e->kind, f, e->cause, b);
        return;
    }
    if (o && o < n && b[o - 1] == ';') b[o - 1] = '.';
}

void sf_free(struct sess_model *m)
{
    storms_free(m);
    memcap_give(m->mc, MEM_SESSIONS, m->keyed_size * sizeof *m->keyed);
    free(m->keyed);
}
