/* Clients and sessions: EXCHANGE_ID / CREATE_SESSION / BIND_CONN_TO_SESSION /
 * DESTROY_SESSION, how each connection got bound, nconnect and trunking,
 * re-established clients, server trunking, CONN_NOT_BOUND diagnosis, caps. */
#include "session_build.h"

static const uint16_t GA[] = {OP_SEQUENCE, OP_PUTROOTFH, OP_GETATTR, 0};

static const struct ns_session_conn *conn_of(const struct ns_session_view *s, uint32_t id)
{
    for (uint32_t i = 0; i < s->nconns; i++)
        if (s->conns[i].conn_id == id) return &s->conns[i];
    return NULL;
}

static void test_binding(void)
{
    struct env e;
    env_init(&e, NULL);
    e.conns[3].server.addr.a[3] = 9; /* c4 goes to another server address */
    mount(&e, 1, 0, 1, 0x11, 1, NS_SP4_MACH_CRED, 16, 16);
    struct ns_txn t;
    /* c2 uses the session unbound: CONN_NOT_BOUND (SP4_MACH_CRED forbids implicit binding) */
    call(&t, 10, 10 * MS, 2, GA);
    seq(&t, 1, 0, 1);
    reply(&t, 11, 11 * MS, 10055);
    run(&e, &t);
    /* c2 binds: FORE_OR_BOTH asked, BOTH granted */
    static const uint16_t bc[] = {OP_BIND_CONN, 0};
    call(&t, 12, 12 * MS, 2, bc);
    t.u.v4.call.setup.has_bind_conn = true;
    sid_of(t.u.v4.call.setup.bind_conn.sessionid, 1);
    t.u.v4.call.setup.bind_conn.dir = 3;
    reply(&t, 13, 13 * MS, 0);
    t.u.v4.reply.setup.has_bind_conn = true;
    sid_of(t.u.v4.reply.setup.bind_conn.sessionid, 1);
    t.u.v4.reply.setup.bind_conn.dir = 3;
    run(&e, &t);
    call(&t, 14, 14 * MS, 2, GA);
    seq(&t, 1, 0, 2);
    reply(&t, 15, 15 * MS, 0);
    run(&e, &t);
    /* c3 (same addresses, another port): answered NFS4_OK without a bind -> implicit */
    call(&t, 16, 16 * MS, 3, GA);
    seq(&t, 1, 1, 1);
    reply(&t, 17, 17 * MS, 0);
    run(&e, &t);
    /* c4 to another server address */
    call(&t, 18, 18 * MS, 4, GA);
    seq(&t, 1, 2, 1);
    reply(&t, 19, 19 * MS, 0);
    run(&e, &t);
    /* DESTROY_SESSION on c1 */
    static const uint16_t ds[] = {OP_DESTROY_SESSION, 0};
    call(&t, 20, 20 * MS, 1, ds);
    t.u.v4.call.setup.has_destroy_session = true;
    sid_of(t.u.v4.call.setup.destroy_session_id, 1);
    reply(&t, 21, 21 * MS, 0);
    run(&e, &t);
    sess_finish(e.m, INT64_MAX);

    CHECK_EQ_U(sess_session_count(e.m), 1);
    const struct ns_session_view *s = sess_session(e.m, 0);
    CHECK(s->destroyed && s->destroy_frame == 21);
    CHECK(s->has_client && s->clientid == 0x11);
    CHECK_EQ_U(s->nconns, 4);
    const struct ns_session_conn *c = conn_of(s, 1);
    CHECK(c && c->method == NS_BIND_CREATE_SESSION && c->fore && !c->back && c->bind_frame == 4);
    c = conn_of(s, 2);
    CHECK(c && c->method == NS_BIND_BIND_CONN && c->fore && c->back && c->dir_requested == 3 && c->dir_granted == 3);
    CHECK(c && c->calls == 2 && c->bytes == 2 * 200 + 2 * 300);
    CHECK(c && c->not_bound_errors == 1);
    c = conn_of(s, 3);
    CHECK(c && c->method == NS_BIND_SEQUENCE && c->fore && c->bind_frame == 17);
    CHECK(s->back_same);
    CHECK(s->nconnect);
    CHECK(s->trunked);
    CHECK_EQ_U(s->calls, 4);
    CHECK_EQ_U(s->errors, 1);
    CHECK(s->nstatus == 1 && s->status[0].status == 10055 && s->status[0].count == 1);
    CHECK_EQ_U(s->ops[OP_GETATTR], 4);

    unsigned n;
    const struct ns_finding *f = finding(&e, "CONN_NOT_BOUND", &n);
    CHECK_EQ_U(n, 1);
    if (f) {
        CHECK(f->count == 1 && f->frames[0] == 11 && f->conns[0] == 2 && f->severity == NS_SEV_ERROR);
        CHECK(strstr(f->message, "SP4_MACH_CRED") != NULL);
        CHECK(strstr(f->rfc, "2.10.3.1") != NULL);
    }
    CHECK_EQ_U(nfindings(&e), 1);
    env_free(&e);
}

static void exchange_id(struct env *e, uint64_t f, uint32_t conn, const char *owner, uint64_t clientid)
{
    struct ns_txn t;
    static const uint16_t ex[] = {OP_EXCHANGE_ID, 0};
    call(&t, f, (int64_t)f * MS, conn, ex);
    t.u.v4.call.setup.has_exchange_id = true;
    t.u.v4.call.setup.exchange_id.owner_len = t.u.v4.call.setup.exchange_id.owner_wire_len = (uint8_t)strlen(owner);
    memcpy(t.u.v4.call.setup.exchange_id.owner, owner, strlen(owner));
    reply(&t, f + 1, (int64_t)(f + 1) * MS, 0);
    struct nfs4_setup_res *r = &t.u.v4.reply.setup;
    r->has_exchange_id = true;
    r->exchange_id.clientid = clientid;
    r->exchange_id.sequenceid = 7;
    r->exchange_id.server_major_len = 4;
    memcpy(r->exchange_id.server_major, "srvA", 4);
    r->exchange_id.scope_len = 2;
    memcpy(r->exchange_id.scope, "sc", 2);
    run(e, &t);
}

static void test_clients(void)
{
    struct env e;
    env_init(&e, NULL);
    e.conns[1].server.addr.a[3] = 9;
    exchange_id(&e, 1, 1, "hostA", 0x21);
    exchange_id(&e, 3, 1, "hostB", 0x22);
    exchange_id(&e, 5, 1, "hostA", 0x23); /* hostA again: new client ID, re-established */
    exchange_id(&e, 7, 2, "hostA", 0x23); /* the same server owner at another address: trunking */
    /* CREATE_SESSION with a csa_sequence that is not due: SEQ_MISORDERED per client */
    struct ns_txn t;
    static const uint16_t cs[] = {OP_CREATE_SESSION, 0};
    call(&t, 9, 9 * MS, 1, cs);
    t.u.v4.call.setup.has_create_session = true;
    t.u.v4.call.setup.create_session.clientid = 0x22;
    t.u.v4.call.setup.create_session.sequence = 9;
    reply(&t, 10, 10 * MS, 10063);
    run(&e, &t);
    sess_finish(e.m, INT64_MAX);
    CHECK_EQ_U(sess_client_count(e.m), 3);
    const struct ns_client_view *a = sess_client(e.m, 0), *b = sess_client(e.m, 1), *c = sess_client(e.m, 2);
    CHECK(a->clientid == 0x21 && a->replaces_clientid == 0 && a->from_exchange_id);
    CHECK(b->clientid == 0x22 && b->eir_sequenceid == 7 && b->create_session_next == 7);
    CHECK(c->clientid == 0x23 && c->replaces_clientid == 0x21);
    CHECK(c->exchange_call_frame == 5 && c->conn_id == 1);
    CHECK_EQ_U(a->server_addrs, 2);
    CHECK_EQ_U(c->server_addrs, 2);
    unsigned n;
    const struct ns_finding *f = finding(&e, "SEQ_MISORDERED", &n);
    CHECK_EQ_U(n, 1);
    if (f) {
        CHECK(!f->has_session && f->has_client && f->clientid == 0x22 && f->frames[0] == 10);
        CHECK(strstr(f->message, "csa_sequence 9 where 7") != NULL);
    }
    CHECK_EQ_U(sess_session_count(e.m), 0);
    env_free(&e);
}

/* More sessions than the table holds: the least recently active sixteenth
 * goes, counted; the others keep their order. */
static void test_cap(void)
{
    struct env e;
    env_init_cap(&e, NULL, 1ull << 30);
    struct ns_txn t;
    for (unsigned i = 0; i < SESS_SESSIONS_MAX + 10; i++) {
        call(&t, i + 1, (int64_t)(i + 1) * MS, 1, GA);
        t.u.v4.call.has_seq = true;
        memset(t.u.v4.call.seq.sessionid, 0, 16);
        memcpy(t.u.v4.call.seq.sessionid, &i, sizeof i);
        t.u.v4.call.seq.sequenceid = 1;
        run(&e, &t);
    }
    CHECK_EQ_U(sess_session_count(e.m), SESS_SESSIONS_MAX - SESS_SESSIONS_MAX / 16 + 10);
    CHECK_EQ_U(sess_stats(e.m)->sessions_evicted, SESS_SESSIONS_MAX / 16);
    const struct ns_session_view *s = sess_session(e.m, 0);
    unsigned first;
    memcpy(&first, s->sessionid, sizeof first);
    CHECK_EQ_U(first, SESS_SESSIONS_MAX / 16); /* 0..1023 evicted */
    s = sess_session(e.m, sess_session_count(e.m) - 1);
    memcpy(&first, s->sessionid, sizeof first);
    CHECK_EQ_U(first, SESS_SESSIONS_MAX + 9);
    uint8_t sid[16] = {0};
    unsigned k = SESS_SESSIONS_MAX + 9;
    memcpy(sid, &k, sizeof k);
    CHECK(sess_find(e.m, sid) != NULL);
    k = 3;
    memcpy(sid, &k, sizeof k);
    CHECK(sess_find(e.m, sid) == NULL);
    env_free(&e);
}

/* A tiny memory cap: nothing is stored, nothing crashes. */
static void test_memcap(void)
{
    struct env e;
    env_init_cap(&e, NULL, 1000);
    mount(&e, 1, 0, 1, 0x11, 1, 0, 16, 8);
    struct ns_txn t;
    call(&t, 10, 10 * MS, 1, GA);
    seq(&t, 1, 0, 1);
    reply(&t, 11, 11 * MS, 10055);
    run(&e, &t);
    sess_finish(e.m, INT64_MAX);
    CHECK(sess_session_count(e.m) <= 1);
    env_free(&e);
}

int main(void)
{
    test_binding();
    test_clients();
    test_cap();
    test_memcap();
    return check_done("test_session_table");
}
