/* The session and client tables keep entries in place: a view pointer stays
 * valid while its entry lives (through evictions of others and slot tables
 * growing), lookups by key find survivors and not evicted entries, listing
 * stays in order of first appearance. */
#include "session_build.h"

static const uint16_t GA[] = {OP_SEQUENCE, OP_PUTROOTFH, OP_GETATTR, 0};

static void sid_n(uint8_t *sid, unsigned n)
{
    memset(sid, 0, NS_SESSIONID_LEN);
    memcpy(sid, &n, sizeof n);
}

/* A SEQUENCE call on session n (slot, seqid 1) at ms, unanswered. */
static void use(struct env *e, unsigned n, uint32_t slot, int64_t ms, uint64_t frame)
{
    struct ns_txn t;
    call(&t, frame, ms * MS, 1, GA);
    t.u.v4.call.has_seq = true;
    sid_n(t.u.v4.call.seq.sessionid, n);
    t.u.v4.call.seq.slotid = slot;
    t.u.v4.call.seq.sequenceid = 1;
    sess_on_call(e->m, &t, &e->conns[0], NULL);
}

static unsigned id_of(const struct ns_session_view *v)
{
    unsigned n;
    memcpy(&n, v->sessionid, sizeof n);
    return n;
}

static void test_sessions(void)
{
    struct env e;
    env_init_cap(&e, NULL, 1ull << 30);
    uint8_t sid[16];
    for (unsigned i = 0; i < SESS_SESSIONS_MAX; i++) use(&e, i, 0, i + 1, i + 1);
    CHECK_EQ_U(sess_session_count(e.m), SESS_SESSIONS_MAX);
    sid_n(sid, 2);
    const struct ns_session_view *two = sess_session_by_id(e.m, sid);
    sid_n(sid, 5000);
    const struct ns_session_view *mid = sess_session_by_id(e.m, sid);
    CHECK(two && id_of(two) == 2 && mid && id_of(mid) == 5000);
    /* session 2 active again, on slot 100: its slot table grows under the view */
    use(&e, 2, 100, SESS_SESSIONS_MAX + 5, SESS_SESSIONS_MAX + 5);
    CHECK(two && two->nslots == 101 && two->slots && two->slots[100].used && two->slots[0].used);
    /* 10 more: a sixteenth goes, the least recently active: 0, 1, 3 .. 1024 */
    for (unsigned i = 0; i < 10; i++) use(&e, SESS_SESSIONS_MAX + i, 0, SESS_SESSIONS_MAX + 10 + i, 100000 + i);
    CHECK_EQ_U(sess_stats(e.m)->sessions_evicted, SESS_SESSIONS_MAX / 16);
    CHECK_EQ_U(sess_session_count(e.m), SESS_SESSIONS_MAX - SESS_SESSIONS_MAX / 16 + 10);
    sid_n(sid, 2);
    CHECK(sess_session_by_id(e.m, sid) == two);
    sid_n(sid, 5000);
    CHECK(sess_session_by_id(e.m, sid) == mid);
    CHECK(id_of(two) == 2 && two->slots[100].used && id_of(mid) == 5000);
    unsigned gone[] = {0, 1, 3, 700, 1024};
    for (unsigned i = 0; i < 5; i++) {
        sid_n(sid, gone[i]);
        CHECK(sess_session_by_id(e.m, sid) == NULL);
    }
    sid_n(sid, 1025);
    CHECK(sess_session_by_id(e.m, sid) != NULL);
    /* in order of first appearance */
    CHECK_EQ_U(id_of(sess_session(e.m, 0)), 2);
    CHECK_EQ_U(id_of(sess_session(e.m, 1)), 1025);
    unsigned prev = 2, ordered = 1;
    for (size_t i = 1; i < sess_session_count(e.m); i++) {
        unsigned k = id_of(sess_session(e.m, i));
        ordered &= k > prev;
        prev = k;
    }
    CHECK(ordered);
    CHECK_EQ_U(prev, SESS_SESSIONS_MAX + 9);
    /* the freed places are taken again: a new session is found and listed last */
    use(&e, 999999, 0, SESS_SESSIONS_MAX + 30, 200000);
    sid_n(sid, 999999);
    const struct ns_session_view *nv = sess_session_by_id(e.m, sid);
    CHECK(nv && nv == sess_session(e.m, sess_session_count(e.m) - 1));
    env_free(&e);
}

static void test_clients(void)
{
    struct env e;
    env_init_cap(&e, NULL, 1ull << 30);
    for (uint64_t id = 1; id <= SESS_CLIENTS_MAX; id++) CHECK(sess_client_get(e.m, id, (int64_t)id) != NULL);
    const struct ns_client_view *c7 = sess_client_by_id(e.m, 7), *c100 = sess_client_by_id(e.m, 100);
    CHECK(c7 && c7->clientid == 7 && c100 && c100->clientid == 100);
    sess_client_find(e.m, 1)->v.last_ts_ns = 1000000; /* client 1 active again: client 2 is the oldest */
    CHECK(sess_client_get(e.m, 0xabcdef, 1000001) != NULL);
    CHECK_EQ_U(sess_stats(e.m)->clients_evicted, 1);
    CHECK_EQ_U(sess_client_count(e.m), SESS_CLIENTS_MAX);
    CHECK(sess_client_by_id(e.m, 2) == NULL);
    CHECK(sess_client_by_id(e.m, 7) == c7 && sess_client_by_id(e.m, 100) == c100);
    CHECK(sess_client_by_id(e.m, 1) != NULL);
    CHECK(sess_client(e.m, 0)->clientid == 1 && sess_client(e.m, 1)->clientid == 3);
    CHECK_EQ_U(sess_client(e.m, SESS_CLIENTS_MAX - 1)->clientid, 0xabcdef);
    CHECK(sess_client_by_id(e.m, 0xabcdef) == sess_client(e.m, SESS_CLIENTS_MAX - 1));
    env_free(&e);
}

int main(void)
{
    test_sessions();
    test_clients();
    return check_done("test_session_store");
}
