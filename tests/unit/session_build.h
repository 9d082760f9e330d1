/* Hand-built NFSv4.1 transactions for the session analyzer's unit tests:
 * the fields the decoders would fill, nothing else. */
#ifndef NFSSCOPE_TEST_SESSION_BUILD_H
#define NFSSCOPE_TEST_SESSION_BUILD_H
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "finding_table.h"
#include "session_int.h"

#define MS 1000000ll
#define SEC 1000000000ll
enum { OP_PUTROOTFH = 24, OP_GETATTR = 9, OP_PUTFH = 22, OP_READ = 25, OP_SEQUENCE = 53, OP_EXCHANGE_ID = 42,
       OP_CREATE_SESSION = 43, OP_BIND_CONN = 41, OP_DESTROY_SESSION = 44, OP_RECLAIM_COMPLETE = 58, OP_OPEN = 18,
       OP_READ_PLUS = 68 };

struct env {
    struct memcap mc;
    struct findings *fs;
    struct sess_model *m;
    struct ns_conn conns[8];
};

static inline void env_init_cap(struct env *e, const struct sess_config *cfg, uint64_t memcap)
{
    memset(e, 0, sizeof *e);
    memcap_init(&e->mc, memcap);
    e->fs = findings_new(&e->mc);
    e->m = sess_new(&e->mc, e->fs, cfg);
    CHECK(e->fs && e->m);
    for (int i = 0; i < 8; i++) {
        struct ns_conn *c = &e->conns[i];
        c->id = (uint32_t)i + 1;
        c->transport = NS_TRANSPORT_TCP;
        c->client.addr.family = c->server.addr.family = 4;
        c->client.addr.a[0] = 10; c->client.addr.a[3] = 2;
        c->server.addr.a[0] = 10; c->server.addr.a[3] = 1;
        c->client.port = (uint16_t)(700 + i);
        c->server.port = 2049;
    }
}

static inline void env_init(struct env *e, const struct sess_config *cfg) { env_init_cap(e, cfg, 64u << 20); }

static inline void env_free(struct env *e)
{
    sess_free(e->m);
    findings_free(e->fs);
    CHECK_EQ_U(e->mc.used[MEM_SESSIONS], 0);
}

static inline void sid_of(uint8_t *sid, unsigned n)
{
    memset(sid, 0, NS_SESSIONID_LEN);
    sid[0] = 0x5e;
    sid[15] = (uint8_t)n;
}

/* A COMPOUND call (minor 1) on connection conn. ops: 0-terminated list. */
static inline void call(struct ns_txn *t, uint64_t frame, int64_t ts, uint32_t conn, const uint16_t *ops)
{
    memset(t, 0, sizeof *t);
    t->kind = NS_TXN_NFS4;
    t->prog = 100003;
    t->vers = 4;
    t->proc = 1;
    t->call_frame = frame;
    t->call_ts_ns = t->last_send_ts_ns = ts;
    t->conn_id = conn;
    t->sends = 1;
    t->call_bytes = 200;
    t->u.v4.call.minor = 1;
    for (int i = 0; ops[i]; i++) t->u.v4.call.op[t->u.v4.call.nops++] = ops[i];
    t->u.v4.call.nops_wire = t->u.v4.call.nops;
    t->u.v4.call.walk_complete = true;
}

static inline void seq(struct ns_txn *t, unsigned sess, uint32_t slot, uint32_t seqid)
{
    t->u.v4.call.has_seq = true;
    sid_of(t->u.v4.call.seq.sessionid, sess);
    t->u.v4.call.seq.slotid = slot;
    t->u.v4.call.seq.sequenceid = seqid;
}

/* The reply: operations before fail_at NFS4_OK, the one at fail_at with
 * status (the COMPOUND stops there); status 0: all NFS4_OK. */
static inline void reply_at(struct ns_txn *t, uint64_t frame, int64_t ts, uint16_t fail_at, uint32_t status)
{
    t->reply_frame = frame;
    t->reply_ts_ns = ts;
    t->reply_stat = NS_REPLY_ACCEPTED;
    t->rpc_status = NS_RPC_SUCCESS;
    t->has_status = true;
    t->status = status;
    t->reply_bytes = 300;
    struct nfs4_reply *r = &t->u.v4.reply;
    r->status = status;
    uint16_t n = status ? fail_at + 1 : t->u.v4.call.nops;
    for (uint16_t i = 0; i < n; i++) { r->resop[i] = t->u.v4.call.op[i]; r->res_status[i] = i + 1 == n ? status : 0; }
    r->nres = n;
    r->walk_complete = true;
    r->has_seq = false;
    if (t->u.v4.call.has_seq && (status == 0 || fail_at > 0)) {
        r->has_seq = true;
        memcpy(r->seq.sessionid, t->u.v4.call.seq.sessionid, NS_SESSIONID_LEN);
        r->seq.slotid = t->u.v4.call.seq.slotid;
        r->seq.sequenceid = t->u.v4.call.seq.sequenceid;
        r->seq.highest_slotid = r->seq.target_highest_slotid = 63;
    }
}

/* All NFS4_OK (status 0), or the first operation fails with status. */
static inline void reply(struct ns_txn *t, uint64_t frame, int64_t ts, uint32_t status)
{
    reply_at(t, frame, ts, 0, status);
}

static inline void slots_limits(struct ns_txn *t, uint32_t hs, uint32_t target)
{
    t->u.v4.reply.seq.highest_slotid = hs;
    t->u.v4.reply.seq.target_highest_slotid = target;
}

/* Call + reply handed to the model in order (call event, reply event, done). */
static inline void run(struct env *e, struct ns_txn *t)
{
    sess_on_call(e->m, t, &e->conns[t->conn_id - 1], NULL);
    if (t->reply_frame) sess_on_reply(e->m, t, &e->conns[t->conn_id - 1], false, NULL);
    sess_on_txn_done(e->m, t, !t->reply_frame);
}

/* EXCHANGE_ID (frames f, f+1) then CREATE_SESSION (f+2, f+3) granting `granted` of `asked` fore slots. */
static inline void mount(struct env *e, uint64_t f, int64_t ts, uint32_t conn, uint64_t clientid, unsigned sess,
                         uint32_t sp, uint32_t asked, uint32_t granted)
{
    struct ns_txn t;
    static const uint16_t ex[] = {OP_EXCHANGE_ID, 0}, cs[] = {OP_CREATE_SESSION, 0};
    call(&t, f, ts, conn, ex);
    struct nfs4_setup_args *sa = &t.u.v4.call.setup;
    sa->has_exchange_id = true;
    sa->exchange_id.owner_len = sa->exchange_id.owner_wire_len = 5;
    memcpy(sa->exchange_id.owner, "hostA", 5);
    sa->exchange_id.state_protect = sp;
    reply(&t, f + 1, ts + MS, 0);
    struct nfs4_setup_res *sr = &t.u.v4.reply.setup;
    sr->has_exchange_id = true;
    sr->exchange_id.clientid = clientid;
    sr->exchange_id.sequenceid = 1;
    sr->exchange_id.state_protect = sp;
    sr->exchange_id.server_major_len = 3;
    memcpy(sr->exchange_id.server_major, "srv", 3);
    run(e, &t);
    call(&t, f + 2, ts + 2 * MS, conn, cs);
    sa->has_create_session = true;
    sa->create_session.clientid = clientid;
    sa->create_session.sequence = 1;
    sa->create_session.fore.maxrequests = asked;
    sa->create_session.back.maxrequests = 1;
    reply(&t, f + 3, ts + 3 * MS, 0);
    sr->has_create_session = true;
    sid_of(sr->create_session.sessionid, sess);
    sr->create_session.sequence = 1;
    sr->create_session.fore.maxrequests = granted;
    sr->create_session.back.maxrequests = 1;
    run(e, &t);
}

/* The finding of this kind (the only one expected), or NULL. */
static inline const struct ns_finding *finding(struct env *e, const char *kind, unsigned *n)
{
    const struct ns_finding *const *v;
    size_t nv = findings_sorted(e->fs, &v);
    const struct ns_finding *r = NULL;
    *n = 0;
    for (size_t i = 0; i < nv; i++)
        if (strcmp(v[i]->kind, kind) == 0) { r = v[i]; (*n)++; }
    return r;
}

static inline size_t nfindings(struct env *e)
{
    const struct ns_finding *const *v;
    return findings_sorted(e->fs, &v);
}

/* ---- what the findings store's listener was told ---- */

#define TLOG_MAX 8192
struct tlog {
    const struct findings *fs;
    unsigned n, empty_msgs;
    struct { uint32_t id; uint64_t frame; char kind[NS_FINDING_KIND_MAX]; } ev[TLOG_MAX];
};

static inline void tlog_fn(void *ctx, const struct ns_finding *x, uint64_t frame)
{
    struct tlog *l = ctx;
    /* the message is rendered when read (issue 21): a listener that wants
     * it asks, as the analyzer's event delivery does */
    if (!findings_render(l->fs, x)->message[0]) l->empty_msgs++;
    if (l->n == TLOG_MAX) return;
    l->ev[l->n].id = x->id;
    l->ev[l->n].frame = frame;
    memcpy(l->ev[l->n].kind, x->kind, sizeof x->kind);
    l->n++;
}

static inline void tlog_attach(struct env *e, struct tlog *l)
{
    memset(l, 0, sizeof *l);
    l->fs = e->fs;
    findings_set_listener(e->fs, tlog_fn, l);
}

/* The frames told for findings of kind (0s left out), in the order told. */
static inline unsigned tlog_frames(const struct tlog *l, const char *kind, uint64_t *out, unsigned max)
{
    unsigned k = 0;
    for (unsigned i = 0; i < l->n; i++)
        if (l->ev[i].frame && strcmp(l->ev[i].kind, kind) == 0 && k < max) out[k++] = l->ev[i].frame;
    return k;
}

/* ---- the findings at one moment, to compare with a later one ---- */

#define FSNAP_MAX 64
struct fsnap {
    size_t n;
    struct ns_finding f[FSNAP_MAX];
};

static inline void fsnap_take(struct env *e, struct fsnap *s)
{
    const struct ns_finding *const *v;
    s->n = findings_sorted(e->fs, &v);
    CHECK(s->n <= FSNAP_MAX);
    for (size_t i = 0; i < s->n && i < FSNAP_MAX; i++) s->f[i] = *v[i];
}

/* Same findings, field by field (the generation aside). */
static inline bool fsnap_same(const struct fsnap *a, const struct fsnap *b)
{
    if (a->n != b->n) return false;
    for (size_t i = 0; i < a->n && i < FSNAP_MAX; i++) {
        const struct ns_finding *x = &a->f[i], *y = &b->f[i];
        if (x->id != y->id || strcmp(x->kind, y->kind) || x->severity != y->severity ||
            x->first_ts_ns != y->first_ts_ns || x->last_ts_ns != y->last_ts_ns || x->count != y->count ||
            x->has_session != y->has_session || memcmp(x->sessionid, y->sessionid, 16) ||
            x->has_client != y->has_client || x->clientid != y->clientid || x->nconns != y->nconns ||
            memcmp(x->conns, y->conns, sizeof x->conns) || x->nframes != y->nframes ||
            memcmp(x->frames, y->frames, sizeof x->frames) || strcmp(x->message, y->message) ||
            strcmp(x->rfc, y->rfc)) {
            fprintf(stderr, "finding %zu (%s) differs\n", i, x->kind);
            return false;
        }
    }
    return true;
}

#endif
