/* Clients and sessions (RFC 8881 s.2.4, s.2.10): the events that fill them
 * (EXCHANGE_ID, CREATE_SESSION, BIND_CONN_TO_SESSION, DESTROY_SESSION,
 * SEQUENCE) and the views. The tables are in session_store.c, slot tables
 * in session_slots.c, findings in session_findings.c, READ_PLUS in read_plus.c. */
#include <stdlib.h>

#include "nfs4_xdr_common.h"
#include "session_int.h"

struct sess_model *sess_new(struct memcap *mc, struct findings *fs, const struct sess_config *cfg)
{
    struct sess_model *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->mc = mc;
    m->fs = fs;
    if (cfg) m->cfg = *cfg;
    if (!m->cfg.storm_count) m->cfg.storm_count = 20;
    if (!m->cfg.storm_window_ns) m->cfg.storm_window_ns = 10ll * 1000000000ll;
    if (!m->cfg.grace_period_ns) m->cfg.grace_period_ns = 90ll * 1000000000ll;
    if (!m->cfg.lease_time_ns) m->cfg.lease_time_ns = 90ll * 1000000000ll;
    store_init(m);
    return m;
}

void sess_free(struct sess_model *m)
{
    if (!m) return;
    store_free(m);
    memcap_give(m->mc, MEM_SESSIONS, m->owners ? SESS_OWNERS_MAX * sizeof *m->owners : 0);
    free(m->owners);
    sf_free(m);
    rp_free(m);
    free(m);
}

struct ns_session_conn *sess_conn(struct sess *s, uint32_t conn_id)
{
    unsigned i = 0;
    while (i < s->v.nconns && s->v.conns[i].conn_id < conn_id) i++;
    if (i < s->v.nconns && s->v.conns[i].conn_id == conn_id) return &s->v.conns[i];
    if (s->v.nconns == NS_SESSION_CONNS) { s->v.conns_dropped++; return NULL; }
    memmove(&s->v.conns[i + 1], &s->v.conns[i], (s->v.nconns - i) * sizeof s->v.conns[0]);
    s->v.nconns++;
    memset(&s->v.conns[i], 0, sizeof s->v.conns[i]);
    s->v.conns[i].conn_id = conn_id;
    return &s->v.conns[i];
}

static bool addr_eq(const struct ns_addr *a, const struct ns_addr *b)
{
    return a->family == b->family && memcmp(a->a, b->a, 16) == 0;
}

/* nconnect / session trunking: a new connection compared with the first one
 * the session was seen on (a session belongs to one client machine). */
static void note_endpoints(struct sess *s, const struct ns_conn *c)
{
    if (!s->has_first) {
        s->has_first = true;
        s->first_caddr = c->client.addr;
        s->first_saddr = c->server.addr;
        return;
    }
    if (!addr_eq(&s->first_saddr, &c->server.addr)) s->v.trunked = true;
    else if (addr_eq(&s->first_caddr, &c->client.addr)) s->v.nconnect = true;
}

void sess_note_status(struct sess *s, uint32_t status)
{
    for (uint32_t i = 0; i < s->v.nstatus; i++)
        if (s->v.status[i].status == status) { s->v.status[i].count++; return; }
    if (s->v.nstatus == NS_SESSION_STATUS) return;
    s->v.status[s->v.nstatus].status = status;
    s->v.status[s->v.nstatus++].count = 1;
}

/* ---- events ---- */

static bool sessionless_first(uint32_t op)
{
    return op == NFS4_OP_EXCHANGE_ID || op == NFS4_OP_CREATE_SESSION || op == NFS4_OP_DESTROY_SESSION ||
           op == NFS4_OP_DESTROY_CLIENTID || op == NFS4_OP_BIND_CONN_TO_SESSION;
}

static bool is_compound_v41(const struct ns_txn *t)
{
    return t->kind == NS_TXN_NFS4 && t->proc == 1 && !t->backchannel && t->u.v4.call.minor >= 1 &&
           !t->call_undecoded;
}

/* The session's record of a connection; endpoints compared once per connection. */
static struct ns_session_conn *use_conn(struct sess *s, const struct ns_conn *c, uint32_t conn_id)
{
    uint32_t before = s->v.nconns;
    struct ns_session_conn *sc = sess_conn(s, conn_id);
    if (sc && s->v.nconns != before && c) note_endpoints(s, c);
    return sc;
}

struct ns_session_conn *sess_use_conn(struct sess *s, const struct ns_conn *c, uint32_t conn_id)
{
    return use_conn(s, c, conn_id);
}

/* s was seen at ts (and may change now: settle it next time). */
static void touch(struct sess_model *m, struct sess *s, int64_t ts)
{
    sess_dirty(m, s);
    if (ts > s->v.last_ts_ns) s->v.last_ts_ns = ts;
    if (ts < s->v.first_ts_ns) s->v.first_ts_ns = ts;
}

void sess_touch(struct sess_model *m, struct sess *s, int64_t ts) { touch(m, s, ts); }

void sess_set_amend(struct sess_model *m, const struct analysis_amend *am) { m->amend = *am; }

void sess_on_call(struct sess_model *m, const struct ns_txn *t, const struct ns_conn *c, struct sess_frame_info *out)
{
    if (out) memset(out, 0, sizeof *out);
    if (t->kind == NS_TXN_NFS4_CB && t->u.v4.call.has_seq) {
        struct sess *s = sess_get(m, t->u.v4.call.seq.sessionid, t->call_ts_ns);
        deleg_on_recall(m, t, s);
        if (!s) {
            if (out) slots_facts_head(&t->u.v4.call.seq, NS_SLOT_UNTRACKED, out);
            return;
        }
        touch(m, s, t->call_ts_ns);
        bc_on_call(m, s, t, c, out);
        return;
    }
    if (t->kind == NS_TXN_NFS4_CB) { /* NFSv4.0 callbacks: no session */
        deleg_on_recall(m, t, NULL);
        return;
    }
    if (!is_compound_v41(t)) return;
    const struct nfs4_call *c4 = &t->u.v4.call;
    if (c4->nops > 0 && (c4->seq_late || (!c4->has_seq && !sessionless_first(ns_txn_op(t, 0))))) {
        struct sess_key k;
        memset(&k, 0, sizeof k);
        if (c4->seq_late || c4->has_seq) {
            k.has_session = true;
            memcpy(k.sessionid, c4->seq.sessionid, NS_SESSIONID_LEN);
        }
        sf_note(m, SF_SEQPOS, &k, t->call_ts_ns, t->call_frame, t->conn_id);
    }
    if (!c4->has_seq) return;
    struct sess *s = sess_get(m, c4->seq.sessionid, t->call_ts_ns);
    if (!s) {
        if (out) slots_facts_head(&c4->seq, NS_SLOT_UNTRACKED, out);
        return;
    }
    touch(m, s, t->call_ts_ns);
    s->v.calls++;
    bool test = false, free_ = false;
    for (uint32_t i = 0, n = ns_txn_nops(t); i < n; i++) {
        uint32_t op = ns_txn_op(t, i);
        s->v.ops[op < NS_SESSION_OPS - 1 ? op : NS_SESSION_OPS - 1]++;
        test |= op == NFS4_OP_TEST_STATEID;
        free_ |= op == NFS4_OP_FREE_STATEID;
    }
    if ((test || free_) && s->cb) flags_on_state_call(m, s, t, test, free_);
    lease_on_renew(m, s, t);
    struct ns_session_conn *sc = use_conn(s, c, t->conn_id);
    if (sc) {
        sc->calls++;
        sc->bytes += t->call_bytes;
    }
    slots_on_call(m, s, t, out);
}

void sess_on_retransmit(struct sess_model *m, const struct ns_txn *t, uint64_t frame, int64_t ts,
                        struct sess_frame_info *out)
{
    if (out) memset(out, 0, sizeof *out);
    if (t->kind == NS_TXN_NFS4_CB && t->u.v4.call.has_seq) {
        struct sess *s = sess_find(m, t->u.v4.call.seq.sessionid);
        if (s) bc_on_retransmit(m, s, t, out);
        else if (out) slots_facts_head(&t->u.v4.call.seq, NS_SLOT_UNTRACKED, out);
        return;
    }
    if (!is_compound_v41(t) || !t->u.v4.call.has_seq) return;
    struct sess *s = sess_find(m, t->u.v4.call.seq.sessionid);
    if (s) slots_on_retransmit(m, s, t, frame, ts, out);
    else if (out) slots_facts_head(&t->u.v4.call.seq, NS_SLOT_UNTRACKED, out);
}

void sess_on_txn_done(struct sess_model *m, const struct ns_txn *t, bool given_up)
{
    bool cb = t->kind == NS_TXN_NFS4_CB;
    if (!given_up || t->reply_frame || !t->call_frame || (!cb && !is_compound_v41(t)) || !t->u.v4.call.has_seq) return;
    struct sess *s = sess_find(m, t->u.v4.call.seq.sessionid);
    if (!s) return;
    sess_dirty(m, s);
    if (cb) bc_on_given_up(m, s, t);
    else slots_on_given_up(m, s, t, t->last_send_ts_ns);
}

/* Index of op in the call, or -1. */
static int op_index(const struct ns_txn *t, uint32_t op)
{
    for (uint32_t i = 0, n = ns_txn_nops(t); i < n; i++)
        if (ns_txn_op(t, i) == op) return (int)i;
    return -1;
}

/* Status of the call's operation at index i: its result, or (no result: an
 * earlier operation failed) the COMPOUND status. */
static uint32_t op_status(const struct ns_txn *t, int i)
{
    uint32_t op, st;
    if (i >= 0 && ns_txn_res(t, (uint32_t)i, &op, &st)) return st;
    return t->u.v4.reply.status ? t->u.v4.reply.status : 10044;
}

static bool same_bytes(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
    return al == bl && memcmp(a, b, al) == 0;
}

static void on_exchange_id(struct sess_model *m, const struct ns_txn *t, const struct ns_conn *c)
{
    const struct nfs4_call *c4 = &t->u.v4.call;
    const struct nfs4_reply *r4 = &t->u.v4.reply;
    if (!r4->setup.has_exchange_id) return;
    uint64_t id = r4->setup.exchange_id.clientid;
    struct sess_client *cl = sess_client_get(m, id, t->call_ts_ns);
    if (!cl) return;
    struct ns_client_view *v = &cl->v;
    if (t->reply_ts_ns > v->last_ts_ns) v->last_ts_ns = t->reply_ts_ns;
    if (c4->setup.has_exchange_id) {
        v->owner_wire_len = c4->setup.exchange_id.owner_wire_len;
        v->owner_len = c4->setup.exchange_id.owner_len;
        memcpy(v->owner, c4->setup.exchange_id.owner, v->owner_len);
        v->sp_requested = c4->setup.exchange_id.state_protect;
        /* re-established: an earlier client ID with the same owner */
        for (size_t i = sess_nclients(m); i-- > 0;) {
            const struct ns_client_view *o = &sess_client_at(m, i)->v;
            if (o->clientid != id && o->from_exchange_id && same_bytes(o->owner, o->owner_len, v->owner, v->owner_len)) {
                v->replaces_clientid = o->clientid;
                break;
            }
        }
    }
    bool again = v->from_exchange_id;
    v->from_exchange_id = true;
    v->eir_sequenceid = r4->setup.exchange_id.sequenceid;
    v->eir_flags = r4->setup.exchange_id.flags;
    v->sp_granted = r4->setup.exchange_id.state_protect;
    v->server_minor_id = r4->setup.exchange_id.server_minor_id;
    v->server_major_len = r4->setup.exchange_id.server_major_len;
    memcpy(v->server_major, r4->setup.exchange_id.server_major, v->server_major_len);
    v->scope_len = r4->setup.exchange_id.scope_len;
    memcpy(v->scope, r4->setup.exchange_id.scope, v->scope_len);
    if (!again) {
        v->create_session_next = v->eir_sequenceid;
        v->exchange_call_frame = t->call_frame;
        v->exchange_reply_frame = t->reply_frame;
        v->conn_id = t->conn_id;
        if (c) v->server = c->server;
    }
    /* server trunking: one server owner + scope answering on several addresses */
    if (!c) return;
    if (!m->owners) {
        if (!memcap_take(m->mc, MEM_SESSIONS, SESS_OWNERS_MAX * sizeof *m->owners)) return;
        m->owners = calloc(SESS_OWNERS_MAX, sizeof *m->owners);
        if (!m->owners) { memcap_give(m->mc, MEM_SESSIONS, SESS_OWNERS_MAX * sizeof *m->owners); return; }
    }
    struct sess_owner *ow = NULL;
    for (size_t i = 0; i < m->nowners && !ow; i++)
        if (same_bytes(m->owners[i].major, m->owners[i].major_len, v->server_major, v->server_major_len) &&
            same_bytes(m->owners[i].scope, m->owners[i].scope_len, v->scope, v->scope_len))
            ow = &m->owners[i];
    if (!ow && m->nowners < SESS_OWNERS_MAX) {
        ow = &m->owners[m->nowners++];
        ow->major_len = v->server_major_len;
        memcpy(ow->major, v->server_major, ow->major_len);
        ow->scope_len = v->scope_len;
        memcpy(ow->scope, v->scope, ow->scope_len);
    }
    if (!ow) return;
    bool known = false;
    for (uint32_t i = 0; i < ow->naddrs; i++) known |= addr_eq(&ow->addr[i], &c->server.addr);
    if (!known && ow->naddrs < SESS_OWNER_ADDRS) ow->addr[ow->naddrs++] = c->server.addr;
    for (size_t i = 0; i < sess_nclients(m); i++) {
        struct ns_client_view *o = &sess_client_at(m, i)->v;
        if (o->from_exchange_id && same_bytes(o->server_major, o->server_major_len, ow->major, ow->major_len) &&
            same_bytes(o->scope, o->scope_len, ow->scope, ow->scope_len))
            o->server_addrs = ow->naddrs;
    }
}

static void on_create_session(struct sess_model *m, const struct ns_txn *t, const struct ns_conn *c)
{
    const struct nfs4_call *c4 = &t->u.v4.call;
    const struct nfs4_reply *r4 = &t->u.v4.reply;
    uint64_t id = c4->setup.create_session.clientid;
    struct sess_client *cl = sess_client_get(m, id, t->call_ts_ns);
    if (cl) {
        if (!cl->v.from_exchange_id && !cl->v.conn_id) cl->v.conn_id = t->conn_id;
        if (t->reply_ts_ns > cl->v.last_ts_ns) cl->v.last_ts_ns = t->reply_ts_ns;
    }
    if (!r4->setup.has_create_session) return;
    struct sess *s = sess_get(m, r4->setup.create_session.sessionid, t->call_ts_ns);
    if (!s) return;
    struct ns_session_view *v = &s->v;
    bool fresh = v->mid_capture && !v->calls;
    v->mid_capture = false;
    v->has_client = true;
    v->clientid = id;
    v->create_call_frame = t->call_frame;
    v->create_reply_frame = t->reply_frame;
    v->create_conn = t->conn_id;
    v->csa_sequence = c4->setup.create_session.sequence;
    v->flags_requested = c4->setup.create_session.flags;
    v->cb_program = c4->setup.create_session.cb_program;
    v->fore_requested = c4->setup.create_session.fore;
    v->back_requested = c4->setup.create_session.back;
    v->has_requested = true;
    v->has_granted = true;
    v->flags_granted = r4->setup.create_session.flags;
    v->fore_granted = r4->setup.create_session.fore;
    v->back_granted = r4->setup.create_session.back;
    v->granted_slots = v->fore_granted.maxrequests;
    bc_on_create_session(s);
    if (v->flags_granted & CREATE_SESSION4_FLAG_CONN_BACK_CHAN) v->back_same = true;
    if (fresh) v->first_ts_ns = t->call_ts_ns;
    touch(m, s, t->reply_ts_ns);
    if (cl) {
        cl->v.sessions++;
        cl->v.create_session_next = v->csa_sequence + 1;
    }
    struct ns_session_conn *sc = use_conn(s, c, t->conn_id);
    if (sc) {
        sc->method = NS_BIND_CREATE_SESSION;
        sc->fore = true;
        sc->back = (v->flags_granted & CREATE_SESSION4_FLAG_CONN_BACK_CHAN) != 0;
        sc->bind_frame = t->reply_frame;
    }
    sf_slot_limited(m, s, t->reply_frame, t->reply_ts_ns);
}

static void on_bind_conn(struct sess_model *m, const struct ns_txn *t, const struct ns_conn *c)
{
    const struct nfs4_reply *r4 = &t->u.v4.reply;
    if (!r4->setup.has_bind_conn) return;
    struct sess *s = sess_get(m, r4->setup.bind_conn.sessionid, t->call_ts_ns);
    if (!s) return;
    touch(m, s, t->reply_ts_ns);
    struct ns_session_conn *sc = use_conn(s, c, t->conn_id);
    if (!sc) return;
    if (sc->method == NS_BIND_NONE) { /* how it first got bound */
        sc->method = NS_BIND_BIND_CONN;
        sc->bind_frame = t->reply_frame;
    }
    sc->dir_requested = t->u.v4.call.setup.has_bind_conn ? t->u.v4.call.setup.bind_conn.dir : 0;
    sc->dir_granted = r4->setup.bind_conn.dir;
    sc->fore = (sc->dir_granted & 1) != 0; /* the grant replaces the connection's channels (RFC 8881 18.34.3) */
    sc->back = (sc->dir_granted & 2) != 0;
    if ((sc->dir_granted & 3) == 3) s->v.back_same = true;
    flags_on_bind_conn(m, s, t);
}

static void reply_model(struct sess_model *m, const struct ns_txn *t, const struct ns_conn *c);

void sess_on_reply(struct sess_model *m, const struct ns_txn *t, const struct ns_conn *c, bool dup,
                   struct sess_frame_info *out)
{
    if (!dup) reply_model(m, t, c);
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (!t->call_frame) return;
    bool cb = t->kind == NS_TXN_NFS4_CB;
    if ((!cb && !is_compound_v41(t)) || !t->u.v4.call.has_seq) return;
    const struct sess *s = sess_find(m, t->u.v4.call.seq.sessionid);
    if (cb) bc_reply_facts(s, t, out);
    else slots_reply_facts(s, t, out);
}

/* What the first reply to a call changes. */
static void reply_model(struct sess_model *m, const struct ns_txn *t, const struct ns_conn *c)
{
    if (!t->call_frame) return;
    bool rpc_ok = t->reply_stat == NS_REPLY_ACCEPTED && t->rpc_status == NS_RPC_SUCCESS;
    if (t->kind == NS_TXN_NFS4_CB) { /* any answer frees the back-channel slot */
        struct sess *s = t->u.v4.call.has_seq ? sess_find(m, t->u.v4.call.seq.sessionid) : NULL;
        if (s) {
            touch(m, s, t->reply_ts_ns);
            bc_on_reply(m, s, t);
        }
        if (rpc_ok) sf_on_reply_errors(m, t, s, c);
        return;
    }
    if (!rpc_ok) return;
    rp_on_reply(m, t);
    if (t->kind == NS_TXN_NFS4 && t->has_status && !is_compound_v41(t)) deleg_on_reply(m, t, NULL);
    if (!is_compound_v41(t) || !t->has_status) return;
    const struct nfs4_call *c4 = &t->u.v4.call;
    const struct nfs4_reply *r4 = &t->u.v4.reply;
    if (c4->setup.has_exchange_id) on_exchange_id(m, t, c);
    if (c4->setup.has_create_session) on_create_session(m, t, c);
    if (c4->setup.has_bind_conn) on_bind_conn(m, t, c);
    dead_on_reply(m, t, c); /* may add a session (and evict one): before any lookup */
    struct sess *s = c4->has_seq ? sess_find(m, c4->seq.sessionid) : NULL;
    bool d_ok = c4->setup.has_destroy_session && op_status(t, op_index(t, NFS4_OP_DESTROY_SESSION)) == SST_OK;
    if (d_ok) {
        struct sess *d = sess_find(m, c4->setup.destroy_session_id);
        if (d) {
            d->v.destroyed = true;
            d->v.destroy_frame = t->reply_frame;
            touch(m, d, t->reply_ts_ns);
        }
    }
    if (d_ok) dead_on_destroy(m, sess_find(m, c4->setup.destroy_session_id), t);
    if (c4->setup.has_create_session && r4->setup.has_create_session) dead_on_create_session(m, t, c);
    if (s) {
        touch(m, s, t->reply_ts_ns);
        s->v.replies++;
        struct ns_session_conn *sc = use_conn(s, c, t->conn_id);
        if (sc) sc->bytes += t->reply_bytes;
        if (t->status != SST_OK) {
            s->v.errors++;
            sess_note_status(s, t->status);
        }
        if (sc && r4->has_seq && !sc->fore) { /* implicit binding (RFC 8881 2.10.3.1) */
            sc->fore = true;
            if (sc->method == NS_BIND_NONE) {
                sc->method = NS_BIND_SEQUENCE;
                sc->bind_frame = t->reply_frame;
            }
        }
        slots_on_reply(m, s, t);
        if (r4->has_seq) {
            s->seq_ok_replies++;
            if (r4->seq.status_flags || s->cb) flags_on_seq_reply(m, s, t);
        }
        if (s->v.ops[NFS4_OP_BACKCHANNEL_CTL] && op_index(t, NFS4_OP_BACKCHANNEL_CTL) >= 0 &&
            op_status(t, op_index(t, NFS4_OP_BACKCHANNEL_CTL)) == SST_OK)
            bc_on_backchannel_ctl(m, s, t);
        if (c4->setup.has_reclaim_complete && s->v.has_client) {
            struct sess_client *cl = sess_client_find(m, s->v.clientid);
            if (cl)
                grace_on_reclaim_complete(m, cl, op_status(t, op_index(t, NFS4_OP_RECLAIM_COMPLETE)) == SST_OK,
                                          t->reply_ts_ns, t->reply_frame, t->conn_id);
        }
    }
    deleg_on_reply(m, t, s);
    if (s) lease_on_reply(m, s, t);
    sf_on_reply_errors(m, t, s, c);
}

/* Only sessions changed since the last settle can have stale fractions or a
 * stale SLOT_LIMITED; every other finding is complete when told. Nothing
 * depends on time alone (GRACE_STUCK needs a GRACE reply as evidence). */
void sess_settle(struct sess_model *m, int64_t now)
{
    (void)now;
    struct sess *s;
    while ((s = sess_take_dirty(m))) {
        slots_update_fractions(s);
        sf_slot_limited(m, s, 0, 0);
    }
}

/* No rule needs the end: settle, then (once, cheap at the end) every
 * session and message re-checked; nothing changes unless settle missed it. */
void sess_finish(struct sess_model *m, int64_t now)
{
    sess_settle(m, now);
    deleg_judge_missing(m, now);
    for (size_t i = 0; i < sess_nsessions(m); i++) {
        slots_update_fractions(sess_at(m, i));
        sf_slot_limited(m, sess_at(m, i), 0, 0);
    }
    sf_refresh_all(m);
}

/* ---- views ---- */

size_t sess_client_count(const struct sess_model *m) { return sess_nclients(m); }
const struct ns_client_view *sess_client(const struct sess_model *m, size_t i)
{
    return i < sess_nclients(m) ? &sess_client_at(m, i)->v : NULL;
}
const struct ns_session_view *sess_session_by_id(struct sess_model *m, const uint8_t *sessionid)
{
    struct sess *s = sess_find(m, sessionid);
    if (!s) return NULL;
    slots_update_fractions(s);
    s->v.slots = s->fore.v;
    bc_view(s);
    return &s->v;
}

const struct ns_client_view *sess_client_by_id(struct sess_model *m, uint64_t clientid)
{
    struct sess_client *c = sess_client_find(m, clientid);
    return c ? &c->v : NULL;
}

size_t sess_session_count(const struct sess_model *m) { return sess_nsessions(m); }
const struct ns_session_view *sess_session(struct sess_model *m, size_t i)
{
    if (i >= sess_nsessions(m)) return NULL;
    struct sess *s = sess_at(m, i);
    slots_update_fractions(s);
    s->v.slots = s->fore.v;
    bc_view(s);
    return &s->v;
}
const struct ns_read_bytes *sess_read_totals(const struct sess_model *m) { return &m->read_total; }
size_t sess_read_files(struct sess_model *m, const struct ns_read_file *const **out) { return rp_files(m, out); }
const struct ns_session_stats *sess_stats(const struct sess_model *m) { return &m->st; }
