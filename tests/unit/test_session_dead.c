/* Sessions the server does not know (NFS4ERR_BADSESSION) or destroyed, their
 * use after that, recovery, DEAD_SESSION_USE, and the memory cap on them
 * (session_dead.c). */
#include "session_build.h"

#define BADSESSION 10052

static void bind_conn(struct ns_txn *t, uint64_t frame, int64_t ts, uint32_t conn, unsigned sess)
{
    static const uint16_t ops[] = {OP_BIND_CONN, 0};
    call(t, frame, ts, conn, ops);
    t->u.v4.call.setup.has_bind_conn = true;
    sid_of(t->u.v4.call.setup.bind_conn.sessionid, sess);
    t->u.v4.call.setup.bind_conn.dir = 3;
}

static void seq_call(struct ns_txn *t, uint64_t frame, int64_t ts, uint32_t conn, unsigned sess, uint32_t seqid)
{
    static const uint16_t ops[] = {OP_SEQUENCE, OP_PUTROOTFH, OP_GETATTR, 0};
    call(t, frame, ts, conn, ops);
    seq(t, sess, 0, seqid);
}

static const struct ns_session_view *view(struct env *e, unsigned sess)
{
    uint8_t sid[16];
    sid_of(sid, sess);
    return sess_session_by_id(e->m, sid);
}

/* Named only by a BIND_CONN_TO_SESSION and SEQUENCEs the server refused:
 * listed (it used to appear nowhere), dead from the first refusal; two calls
 * sent after it make DEAD_SESSION_USE. */
static void test_never_created(void)
{
    struct env e;
    env_init(&e, NULL);
    struct ns_txn t;
    bind_conn(&t, 10, 0, 1, 7);
    reply(&t, 11, 1 * MS, BADSESSION);
    run(&e, &t);
    const struct ns_session_view *v = view(&e, 7);
    CHECK(v != NULL);
    if (!v) return;
    CHECK(v->never_created && v->mid_capture);
    CHECK_EQ_U(v->dead, NS_SESS_BADSESSION);
    CHECK_EQ_U(v->dead_frame, 11);
    CHECK_EQ_U(v->badsession_replies, 1);
    CHECK_EQ_U(v->nconns, 1);
    CHECK_EQ_U(v->conns[0].conn_id, 1);
    unsigned n;
    seq_call(&t, 12, 2 * MS, 2, 7, 1);
    reply(&t, 13, 3 * MS, BADSESSION);
    run(&e, &t);
    CHECK_EQ_U(v->calls_after_dead, 1);
    CHECK(finding(&e, "DEAD_SESSION_USE", &n) == NULL); /* one late call: not yet */
    seq_call(&t, 14, 4 * MS, 2, 7, 2);
    reply(&t, 15, 5 * MS, BADSESSION);
    run(&e, &t);
    CHECK_EQ_U(v->calls_after_dead, 2);
    CHECK_EQ_U(v->after_dead_first_frame, 12);
    CHECK_EQ_U(v->after_dead_last_frame, 14);
    CHECK_EQ_U(v->badsession_replies, 3);
    CHECK_EQ_U(v->badsession_first_frame, 11);
    CHECK_EQ_U(v->badsession_last_frame, 15);
    CHECK_EQ_U(v->nconns, 2);
    const struct ns_finding *f = finding(&e, "DEAD_SESSION_USE", &n);
    CHECK_EQ_U(n, 1);
    if (!f) { env_free(&e); return; }
    CHECK_EQ_U(f->count, 2);
    CHECK_EQ_U(f->severity, NS_SEV_ERROR);
    CHECK(f->has_session && f->sessionid[15] == 7);
    CHECK_EQ_U(f->nframes, 5); /* the death, then each call after it and its reply */
    uint64_t want[] = {11, 12, 13, 14, 15};
    for (unsigned i = 0; i < 5 && i < f->nframes; i++) CHECK_EQ_U(f->frames[i], want[i]);
    CHECK_EQ_U(f->nconns, 1);
    CHECK_EQ_U(f->conns[0], 2);
    CHECK(strstr(f->message, "never created in the capture") != NULL);
    CHECK(strstr(f->message, "never recovered") != NULL);
    CHECK(strstr(f->message, "10.0.0.2") != NULL);
    env_free(&e);
}

/* Calls already in flight (or resent) when the refusal came are not use
 * after the death: a client with several slots busy gets BADSESSION on each. */
static void test_in_flight_not_counted(void)
{
    struct env e;
    env_init(&e, NULL);
    struct ns_txn a, b;
    seq_call(&a, 1, 0, 1, 8, 1);
    a.u.v4.call.seq.slotid = 0;
    seq_call(&b, 2, 1 * MS, 1, 8, 1);
    b.u.v4.call.seq.slotid = 1;
    sess_on_call(e.m, &a, &e.conns[0], NULL);
    sess_on_call(e.m, &b, &e.conns[0], NULL);
    reply(&a, 3, 2 * MS, BADSESSION);
    reply(&b, 4, 3 * MS, BADSESSION);
    sess_on_reply(e.m, &a, &e.conns[0], false, NULL);
    sess_on_reply(e.m, &b, &e.conns[0], false, NULL);
    const struct ns_session_view *v = view(&e, 8);
    CHECK(v && v->never_created && v->badsession_replies == 2 && v->calls_after_dead == 0 && v->dead_frame == 3);
    unsigned n;
    CHECK(finding(&e, "DEAD_SESSION_USE", &n) == NULL);
    env_free(&e);
}

/* Created, destroyed, then used twice: DEAD_SESSION_USE (error); a
 * CREATE_SESSION of the same client later: recovered, the finding a warning. */
static void test_destroyed_then_used(void)
{
    struct env e;
    env_init(&e, NULL);
    mount(&e, 1, 0, 1, 0xc1, 3, 0, 16, 16);
    struct ns_txn t;
    static const uint16_t ds[] = {OP_DESTROY_SESSION, 0};
    call(&t, 10, 10 * MS, 1, ds);
    t.u.v4.call.setup.has_destroy_session = true;
    sid_of(t.u.v4.call.setup.destroy_session_id, 3);
    reply(&t, 11, 11 * MS, 0);
    run(&e, &t);
    const struct ns_session_view *v = view(&e, 3);
    CHECK(v && v->destroyed && v->dead == NS_SESS_DESTROYED && v->dead_frame == 11 && !v->never_created);
    for (unsigned i = 0; i < 2; i++) {
        seq_call(&t, 12 + 2 * i, (12 + 2 * i) * MS, 1, 3, 1 + i);
        reply(&t, 13 + 2 * i, (13 + 2 * i) * MS, BADSESSION);
        run(&e, &t);
    }
    unsigned n;
    const struct ns_finding *f = finding(&e, "DEAD_SESSION_USE", &n);
    CHECK(f && n == 1 && f->count == 2 && f->severity == NS_SEV_ERROR);
    CHECK(f && f->has_client && f->clientid == 0xc1);
    CHECK(f && strstr(f->message, "DESTROY_SESSION") != NULL);
    CHECK_EQ_U(v->recovered_frame, 0);
    mount(&e, 20, 20 * MS, 1, 0xc1, 4, 0, 16, 16); /* CREATE_SESSION reply: frame 23 */
    CHECK_EQ_U(v->recovered_frame, 23);
    f = finding(&e, "DEAD_SESSION_USE", &n);
    CHECK(f && f->severity == NS_SEV_WARNING && strstr(f->message, "recovered") != NULL);
    CHECK(f && strstr(f->message, "frame 23") != NULL);
    env_free(&e);
}

/* A server restart: the session CREATE_SESSION made is refused; the client
 * gets a new client ID (EXCHANGE_ID) and a new session from the same
 * address: recovered, no finding (no call after the refusal). */
static void test_lost_by_server(void)
{
    struct env e;
    env_init(&e, NULL);
    mount(&e, 1, 0, 1, 0x11, 4, 0, 16, 16);
    struct ns_txn t;
    seq_call(&t, 10, 10 * MS, 1, 4, 1);
    reply(&t, 11, 11 * MS, 0);
    run(&e, &t);
    seq_call(&t, 12, 12 * MS, 1, 4, 2);
    reply(&t, 13, 13 * MS, BADSESSION);
    run(&e, &t);
    const struct ns_session_view *v = view(&e, 4);
    CHECK(v && !v->never_created && v->dead == NS_SESS_BADSESSION && v->dead_frame == 13);
    mount(&e, 20, 20 * MS, 2, 0x22, 5, 0, 16, 16);
    CHECK_EQ_U(v->recovered_frame, 23);
    unsigned n;
    CHECK(finding(&e, "DEAD_SESSION_USE", &n) == NULL);
    env_free(&e);
}

/* Refused session IDs are entries of the session table: under its cap,
 * the least recently active evicted and counted. */
static void test_memcap(void)
{
    struct env e;
    env_init_cap(&e, NULL, 1ull << 30);
    struct ns_txn t;
    unsigned total = SESS_SESSIONS_MAX + 100;
    for (unsigned i = 0; i < total; i++) {
        bind_conn(&t, 2 * i + 1, (int64_t)i * MS, 1, 0);
        memcpy(t.u.v4.call.setup.bind_conn.sessionid + 4, &i, sizeof i);
        reply(&t, 2 * i + 2, (int64_t)i * MS + 1, BADSESSION);
        run(&e, &t);
    }
    CHECK(sess_session_count(e.m) <= SESS_SESSIONS_MAX);
    CHECK(sess_stats(e.m)->sessions_evicted >= 100);
    CHECK_EQ_U(sess_session_count(e.m) + sess_stats(e.m)->sessions_evicted, total);
    env_free(&e);
}

/* The client is named by its address: IPv6 as RFC 5952 writes it. */
static void test_ipv6_client(void)
{
    struct env e;
    env_init(&e, NULL);
    struct ns_addr *a = &e.conns[2].client.addr;
    memset(a, 0, sizeof *a);
    a->family = 6;
    a->a[0] = 0xfd; a->a[1] = 0x77; a->a[5] = 0x01; a->a[15] = 0x01; /* fd77:0:1::1 */
    struct ns_txn t;
    for (unsigned i = 0; i < 3; i++) {
        seq_call(&t, 1 + 2 * i, (1 + 2 * i) * MS, 3, 9, 1 + i);
        reply(&t, 2 + 2 * i, (2 + 2 * i) * MS, BADSESSION);
        run(&e, &t);
    }
    unsigned n;
    const struct ns_finding *f = finding(&e, "DEAD_SESSION_USE", &n);
    CHECK(f && f->count == 2 && strstr(f->message, "Client fd77:0:1::1 kept using") != NULL);
    env_free(&e);
}

/* A CREATE_SESSION looks at the last DEAD_WAIT_MAX dead sessions only (not
 * every session: hostile captures): the oldest waiting one is dropped,
 * counted, and not marked recovered. */
static void test_recovery_watch_bounded(void)
{
    struct env e;
    env_init(&e, NULL);
    struct ns_txn t;
    for (unsigned i = 0; i <= DEAD_WAIT_MAX; i++) {
        bind_conn(&t, 1 + 2 * i, (int64_t)(1 + 2 * i) * MS, 1, 100 + i);
        reply(&t, 2 + 2 * i, (int64_t)(2 + 2 * i) * MS, BADSESSION);
        run(&e, &t);
    }
    CHECK_EQ_U(sess_stats(e.m)->rules_dropped, 1);
    mount(&e, 1000, 1000 * MS, 1, 0x33, 99, 0, 16, 16); /* CREATE_SESSION reply: frame 1003 */
    const struct ns_session_view *first = view(&e, 100), *second = view(&e, 101), *last = view(&e, 100 + DEAD_WAIT_MAX);
    CHECK(first && first->dead == NS_SESS_BADSESSION && first->recovered_frame == 0);
    CHECK(second && second->recovered_frame == 1003);
    CHECK(last && last->recovered_frame == 1003);
    CHECK_EQ_U(e.m->ndead_wait, 0);
    env_free(&e);
}

int main(void)
{
    test_recovery_watch_bounded();
    test_ipv6_client();
    test_never_created();
    test_in_flight_not_counted();
    test_destroyed_then_used();
    test_lost_by_server();
    test_memcap();
    return check_done("test_session_dead");
}
