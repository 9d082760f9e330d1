/* Sessions the server does not know: a SEQUENCE, BIND_CONN_TO_SESSION or
 * DESTROY_SESSION answered NFS4ERR_BADSESSION (a session never created in the
 * capture, or one the server lost, e.g. by restarting), and sessions
 * destroyed by DESTROY_SESSION. Such a session is dead from the reply that
 * says so; a client must then stop using it and create a new one
 * (CREATE_SESSION, after EXCHANGE_ID if its client ID is gone too: RFC 8881
 * 2.10.13). DEAD_SESSION_USE: DEAD_USE_MIN or more calls naming a dead
 * session, first sent after the client had the reply that showed it dead
 * (calls already in flight then do not count; one late call can be an RPC
 * already queued in the transport, two are a client that did not stop). */
#include <inttypes.h>
#include <stdio.h>

#include "session_int.h"

static void dead_watch(struct sess_model *m, const struct sess *s);

/* The session a COMPOUND names: SEQUENCE's, else BIND_CONN_TO_SESSION's,
 * else DESTROY_SESSION's (NULL: none). */
static const uint8_t *named_session(const struct nfs4_call *c4)
{
    if (c4->has_seq) return c4->seq.sessionid;
    if (c4->setup.has_bind_conn) return c4->setup.bind_conn.sessionid;
    if (c4->setup.has_destroy_session) return c4->setup.destroy_session_id;
    return NULL;
}

/* The address as people write it (RFC 5952 for IPv6: longest zero run of
 * two groups or more as "::"); the core has no inet_ntop (no libc I/O). */
static void addr_text(const struct ns_addr *a, char *b, size_t n)
{
    if (a->family != 6) {
        snprintf(b, n, "%u.%u.%u.%u", a->a[0], a->a[1], a->a[2], a->a[3]);
        return;
    }
    unsigned g[8];
    int best = -1, blen = 1;
    for (int i = 0; i < 8; i++) g[i] = (unsigned)a->a[2 * i] << 8 | a->a[2 * i + 1];
    for (int i = 0; i < 8; i++) {
        int j = i;
        while (j < 8 && g[j] == 0) j++;
        if (j - i > blen) { best = i; blen = j - i; }
        if (j > i) i = j;
    }
    size_t o = 0;
    for (int i = 0; i < 8 && o < n; i++) {
        if (i == best) {
            o += (size_t)snprintf(b + o, n - o, "::");
            i += blen - 1;
            continue;
        }
        o += (size_t)snprintf(b + o, n - o, "%s%x", o && b[o - 1] != ':' ? ":" : "", g[i]);
    }
    if (o == 0 && n) b[0] = 0;
}

/* What the finding's message says (only that, so that equal states are
 * equal messages): kept by the store, rendered by dead_render when a front
 * end reads the finding. */
enum dead_how { DH_BADSESSION, DH_DESTROYED, DH_NEVER_CREATED, DH_LOST };
struct dead_state {
    uint8_t sessionid[NS_SESSIONID_LEN];
    struct ns_addr client;      /* family 0: not known */
    bool has_client;
    uint8_t how;                /* enum dead_how */
    uint64_t clientid, create_reply_frame, dead_frame, calls_after_dead, after_first, after_last,
        badsession_replies, recovered_frame;
};
_Static_assert(sizeof(struct dead_state) <= FINDINGS_STATE_MAX, "dead_state too large");

/* The state as of now, and the severity: an error while the client has not
 * recovered, a warning once it has. */
static uint8_t dead_state_of(const struct sess *s, struct dead_state *d)
{
    const struct ns_session_view *v = &s->v;
    memset(d, 0, sizeof *d);
    memcpy(d->sessionid, v->sessionid, NS_SESSIONID_LEN);
    if (s->has_first) d->client = s->first_caddr;
    if (v->has_client) { d->has_client = true; d->clientid = v->clientid; }
    if (v->dead == NS_SESS_DESTROYED) d->how = DH_DESTROYED;
    else if (v->never_created) d->how = DH_NEVER_CREATED;
    else if (v->has_granted) { d->how = DH_LOST; d->create_reply_frame = v->create_reply_frame; }
    else d->how = DH_BADSESSION;
    d->dead_frame = v->dead_frame;
    d->calls_after_dead = v->calls_after_dead;
    d->after_first = v->after_dead_first_frame;
    d->after_last = v->after_dead_last_frame;
    d->badsession_replies = v->badsession_replies;
    d->recovered_frame = v->recovered_frame;
    return v->recovered_frame ? NS_SEV_WARNING : NS_SEV_ERROR;
}

/* The message (NS_FINDING_MSG_MAX bytes) from the state. */
static void dead_render(const struct ns_finding *f, const void *state, char *b)
{
    (void)f;
    const struct dead_state *d = state;
    char sid[2 * NS_SESSIONID_LEN + 1], who[112], client[48] = "?";
    for (int i = 0; i < NS_SESSIONID_LEN; i++) snprintf(sid + 2 * i, 3, "%02x", d->sessionid[i]);
    if (d->client.family) addr_text(&d->client, client, sizeof client);
    if (d->has_client) snprintf(who, sizeof who, "%s (client ID %016" PRIx64 ")", client, d->clientid);
    else snprintf(who, sizeof who, "%s", client);
    char how[128];
    if (d->how == DH_DESTROYED)
        snprintf(how, sizeof how, "its DESTROY_SESSION was answered");
    else if (d->how == DH_NEVER_CREATED)
        snprintf(how, sizeof how, "NFS4ERR_BADSESSION (never created in the capture)");
    else if (d->how == DH_LOST)
        snprintf(how, sizeof how, "NFS4ERR_BADSESSION (created at frame %" PRIu64 ": lost by the server, e.g. a restart)",
                 d->create_reply_frame);
    else
        snprintf(how, sizeof how, "NFS4ERR_BADSESSION");
    int o = snprintf(b, NS_FINDING_MSG_MAX,
                     "Client %s kept using session %s after %s at frame %" PRIu64 ": %" PRIu64
                     " call%s sent after that (frames %" PRIu64 " to %" PRIu64 "), %" PRIu64
                     " NFS4ERR_BADSESSION repl%s in all. ",
                     who, sid, how, d->dead_frame, d->calls_after_dead, d->calls_after_dead == 1 ? "" : "s",
                     d->after_first, d->after_last, d->badsession_replies, d->badsession_replies == 1 ? "y" : "ies");
    if (o < 0 || o >= NS_FINDING_MSG_MAX) return;
    if (d->recovered_frame)
        snprintf(b + o, (size_t)(NS_FINDING_MSG_MAX - o), "It recovered: CREATE_SESSION answered NFS4_OK at frame %" PRIu64 ".",
                 d->recovered_frame);
    else
        snprintf(b + o, (size_t)(NS_FINDING_MSG_MAX - o),
                 "It never recovered: no CREATE_SESSION answered NFS4_OK after that.");
}

/* The finding's numbers and severity brought up to date (if it exists); the
 * store told if what it says changed, or of an occurrence (frame). */
static void dead_refresh(struct sess_model *m, struct sess *s, uint64_t frame)
{
    struct sess_key k = sess_key_of(s);
    struct ns_finding *f = sf_finding(m, SF_DEAD_USE, &k);
    if (!f) return;
    struct dead_state d;
    uint8_t sev = dead_state_of(s, &d);
    f->count = s->v.calls_after_dead;
    void *old = findings_state(m->fs, f);
    if (sev == f->severity && memcmp(&d, old, sizeof d) == 0 && !frame) return;
    f->severity = sev;
    memcpy(old, &d, sizeof d);
    findings_touch(m->fs, f, frame);
}

/* One more call on a dead session sent after it was dead. */
static void used_after_dead(struct sess_model *m, struct sess *s, const struct ns_txn *t)
{
    struct ns_session_view *v = &s->v;
    v->calls_after_dead++;
    if (!v->after_dead_first_frame) {
        v->after_dead_first_frame = t->call_frame;
        s->after_first.reply_frame = t->reply_frame;
        s->after_first.ts = t->call_ts_ns;
        s->after_first.conn = t->conn_id;
    }
    v->after_dead_last_frame = t->call_frame;
    if (v->calls_after_dead < DEAD_USE_MIN) return;
    struct sess_key k = sess_key_of(s);
    bool fresh = sf_finding(m, SF_DEAD_USE, &k) == NULL;
    struct keyed *e = sf_fold(m, SF_DEAD_USE, &k, t->call_ts_ns, t->call_frame, t->conn_id);
    struct ns_finding *f = sf_finding(m, SF_DEAD_USE, &k);
    if (!e || !f) return;
    if (fresh) { /* raised now: its evidence from the start (the death, the first call after it) */
        findings_set_renderer(m->fs, f, dead_render);
        finding_add_frame(f, v->dead_frame);
        finding_add_frame(f, v->after_dead_first_frame);
        finding_add_frame(f, s->after_first.reply_frame);
        finding_add_conn(f, s->after_first.conn);
        if (s->after_first.ts < f->first_ts_ns) f->first_ts_ns = s->after_first.ts;
    }
    finding_add_frame(f, t->reply_frame);
    dead_refresh(m, s, t->call_frame); /* message first: then each frame is told with it */
    f = sf_finding(m, SF_DEAD_USE, &k);
    if (!f) return;
    if (fresh) {
        findings_touch(m->fs, f, v->dead_frame);
        findings_touch(m->fs, f, v->after_dead_first_frame);
        findings_touch(m->fs, f, s->after_first.reply_frame);
    }
    findings_touch(m->fs, f, t->reply_frame);
}

void dead_on_reply(struct sess_model *m, const struct ns_txn *t, const struct ns_conn *c)
{
    const uint8_t *sid = named_session(&t->u.v4.call);
    if (!sid || !t->reply_frame) return;
    bool bad = t->status == SST_BADSESSION;
    struct sess *s = bad ? sess_get(m, sid, t->call_ts_ns) : sess_find(m, sid);
    if (!s) return;
    struct ns_session_view *v = &s->v;
    sess_touch(m, s, t->reply_ts_ns);
    if (bad) {
        v->badsession_replies++;
        if (!v->badsession_first_frame) v->badsession_first_frame = t->reply_frame;
        v->badsession_last_frame = t->reply_frame;
        sess_use_conn(s, c, t->conn_id); /* the connections that used it */
    } else {
        s->served = true;
    }
    v->never_created = !v->has_requested && !v->has_granted && !s->served && v->badsession_replies > 0;
    if (v->dead != NS_SESS_ALIVE && t->call_ts_ns > s->dead_ts) used_after_dead(m, s, t);
    else if (v->dead != NS_SESS_ALIVE) dead_refresh(m, s, 0); /* counts in the message */
    if (bad && v->dead == NS_SESS_ALIVE) {
        v->dead = NS_SESS_BADSESSION;
        v->dead_frame = t->reply_frame;
        v->recovered_frame = 0;
        s->dead_ts = t->reply_ts_ns;
        dead_watch(m, s);
    }
}

/* s just died: watch for its client's CREATE_SESSION (the oldest watched
 * dropped when full: its recovery goes unseen, counted as a rule dropped). */
static void dead_watch(struct sess_model *m, const struct sess *s)
{
    if (m->ndead_wait == DEAD_WAIT_MAX) {
        memmove(m->dead_wait[0], m->dead_wait[1], (DEAD_WAIT_MAX - 1) * sizeof m->dead_wait[0]);
        m->ndead_wait--;
        m->st.rules_dropped++;
    }
    memcpy(m->dead_wait[m->ndead_wait++], s->v.sessionid, NS_SESSIONID_LEN);
}

void dead_on_destroy(struct sess_model *m, struct sess *s, const struct ns_txn *t)
{
    if (!s || s->v.dead != NS_SESS_ALIVE) return;
    s->v.dead = NS_SESS_DESTROYED;
    s->v.dead_frame = t->reply_frame;
    s->v.recovered_frame = 0;
    s->dead_ts = t->reply_ts_ns;
    dead_watch(m, s);
}

static bool same_addr(const struct ns_addr *a, const struct ns_addr *b)
{
    return a->family == b->family && memcmp(a->a, b->a, 16) == 0;
}

void dead_on_create_session(struct sess_model *m, const struct ns_txn *t, const struct ns_conn *c)
{
    uint64_t clientid = t->u.v4.call.setup.create_session.clientid;
    const uint8_t *created = t->u.v4.reply.setup.create_session.sessionid;
    uint32_t keep = 0;
    for (uint32_t i = 0; i < m->ndead_wait; i++) {
        struct sess *s = sess_find(m, m->dead_wait[i]);
        if (!s) continue; /* evicted */
        struct ns_session_view *v = &s->v;
        /* the same client: its client ID, or (after a server restart the
         * client gets a new one from EXCHANGE_ID) its address */
        bool same_id = memcmp(v->sessionid, created, NS_SESSIONID_LEN) == 0;
        bool same = same_id || (v->has_client && v->clientid == clientid) ||
                    (c && s->has_first && same_addr(&s->first_caddr, &c->client.addr));
        if (v->dead == NS_SESS_ALIVE || v->recovered_frame || t->reply_ts_ns <= s->dead_ts || !same) {
            if (v->dead != NS_SESS_ALIVE && !v->recovered_frame) memmove(m->dead_wait[keep++], m->dead_wait[i], NS_SESSIONID_LEN);
            continue;
        }
        v->recovered_frame = t->reply_frame;
        if (same_id) v->dead = NS_SESS_ALIVE; /* the same ID again */
        dead_refresh(m, s, 0); /* a message and severity change, not an occurrence */
    }
    m->ndead_wait = keep;
}
