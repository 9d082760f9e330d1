/* The slot table of a session and the slot rules, on a hand-made exchange
 * whose numbers are worked out in the comments. */
#include "session_build.h"

static const uint16_t GA[] = {OP_SEQUENCE, OP_PUTROOTFH, OP_GETATTR, 0};
static const uint16_t RD[] = {OP_SEQUENCE, OP_PUTFH, OP_READ, 0};

/* SEQUENCE call on session 1 at ms, answered at rms (0: not answered here). */
static void sq(struct env *e, struct ns_txn *t, uint64_t f, int64_t ms, uint32_t slot, uint32_t seqid, const uint16_t *ops)
{
    call(t, f, ms * MS, 1, ops);
    seq(t, 1, slot, seqid);
    sess_on_call(e->m, t, &e->conns[0], NULL);
}

static void ans(struct env *e, struct ns_txn *t, uint64_t f, int64_t ms, uint32_t status, uint32_t hs, uint32_t target)
{
    reply(t, f, ms * MS, status);
    slots_limits(t, hs, target);
    sess_on_reply(e->m, t, &e->conns[0], false, NULL);
    sess_on_txn_done(e->m, t, false);
}

static void test_rules(void)
{
    struct env e;
    env_init(&e, NULL);
    mount(&e, 1, 0, 1, 0x11, 1, 0, 8, 4); /* frames 1-4, 0..3 ms: 8 slots asked, 4 granted */
    struct ns_txn a[4], t, g, h;
    /* four in flight (10..13 ms): every granted slot busy from 13 ms to the first reply at 20 ms */
    for (int i = 0; i < 4; i++) sq(&e, &a[i], 10 + (uint64_t)i, 10 + i, (uint32_t)i, 1, GA);
    for (int i = 0; i < 4; i++) ans(&e, &a[i], 20 + (uint64_t)i, 20 + i, 0, 3, 3);
    sq(&e, &t, 30, 30, 0, 3, GA);             /* slot 0: 1 -> 3: SLOT_SEQ_GAP */
    ans(&e, &t, 31, 31, 10063, 0, 0);         /* SEQ_MISORDERED, skipped ahead */
    sq(&e, &t, 32, 32, 0, 3, GA);             /* same seqid, same ops: REPLAY */
    ans(&e, &t, 33, 33, 0, 3, 3);
    sq(&e, &t, 34, 34, 1, 1, RD);             /* slot 1 seqid 1 again, other ops: FALSE_RETRY */
    ans(&e, &t, 35, 35, 10076, 0, 0);
    sq(&e, &t, 36, 36, 5, 1, GA);             /* slot 5 > sr_highest_slotid 3: SLOT_ABOVE_GRANTED */
    ans(&e, &t, 37, 37, 10053, 0, 0);
    sq(&e, &t, 38, 38, 2, 2, GA);             /* target 3 -> 1 with only itself outstanding: not a shrink */
    ans(&e, &t, 39, 39, 0, 3, 1);
    sq(&e, &g, 40, 40, 0, 4, GA);
    sq(&e, &h, 41, 41, 1, 2, GA);
    ans(&e, &g, 42, 42, 0, 3, 0);             /* target 1 -> 0 with 2 outstanding > 0 + 1: SLOT_TABLE_SHRUNK */
    ans(&e, &h, 43, 43, 0, 3, 0);             /* not lower than 0 */
    sess_finish(e.m, INT64_MAX);

    CHECK_EQ_U(sess_session_count(e.m), 1);
    const struct ns_session_view *s = sess_session(e.m, 0);
    CHECK(!s->mid_capture);
    CHECK_EQ_U(s->fore_requested.maxrequests, 8);
    CHECK_EQ_U(s->fore_granted.maxrequests, 4);
    CHECK_EQ_U(s->calls, 11);
    CHECK_EQ_U(s->errors, 3);
    CHECK_EQ_U(s->highest_slot_used, 5);
    CHECK_EQ_U(s->max_outstanding, 4);
    CHECK_EQ_U(s->outstanding, 0);
    CHECK_EQ_U(s->outstanding_hist[1], 7);
    CHECK_EQ_U(s->outstanding_hist[2], 2);
    CHECK_EQ_U(s->outstanding_hist[3], 1);
    CHECK_EQ_U(s->outstanding_hist[4], 1);
    CHECK_EQ_U(s->saturated_calls, 1);
    CHECK_EQ_U(s->saturated_ns, 7 * MS);
    /* span: CREATE_SESSION call (2 ms) to the last reply (43 ms) */
    CHECK_EQ_U(s->first_ts_ns, 2 * MS);
    CHECK_EQ_U(s->last_ts_ns, 43 * MS);
    CHECK(s->saturated_fraction > 7.0 / 41 - 1e-9 && s->saturated_fraction < 7.0 / 41 + 1e-9);
    CHECK(s->saturated_calls_fraction > 1.0 / 11 - 1e-9 && s->saturated_calls_fraction < 1.0 / 11 + 1e-9);
    CHECK_EQ_U(s->granted_slots, 4);
    CHECK_EQ_U(s->nhistory, 3); /* 3/3 at frame 20, 3/1 at 39, 3/0 at 42 */
    CHECK_EQ_U(s->history[1].frame, 39);
    CHECK_EQ_U(s->history[2].target_highest_slotid, 0);
    CHECK_EQ_U(s->nslots, 6);
    CHECK_EQ_U(s->slots[0].last_call_seqid, 4);
    CHECK_EQ_U(s->slots[0].last_ok_seqid, 4);
    CHECK_EQ_U(s->slots[1].last_call_seqid, 2);
    CHECK(s->slots[5].used && !s->slots[5].has_ok && !s->slots[5].in_flight);
    CHECK(!s->slots[4].used);

    unsigned n;
    const struct ns_finding *f = finding(&e, "SLOT_LIMITED", &n);
    CHECK_EQ_U(n, 1);
    if (f) {
        CHECK_EQ_U(f->severity, NS_SEV_WARNING); /* ran into the limit */
        CHECK_EQ_U(f->nframes, 2);
        CHECK_EQ_U(f->frames[0], 3);
        CHECK_EQ_U(f->frames[1], 4);
        CHECK(f->has_session && f->has_client && f->clientid == 0x11);
    }
    static const struct { const char *kind; uint64_t frame; uint8_t sev; } want[] = {
        {"SLOT_SEQ_GAP", 30, NS_SEV_WARNING}, {"SEQ_MISORDERED", 31, NS_SEV_ERROR}, {"REPLAY", 32, NS_SEV_INFO},
        {"FALSE_RETRY", 34, NS_SEV_ERROR},   {"SLOT_ABOVE_GRANTED", 36, NS_SEV_WARNING},
        {"SLOT_TABLE_SHRUNK", 42, NS_SEV_WARNING},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        f = finding(&e, want[i].kind, &n);
        CHECK_EQ_U(n, 1);
        if (!f) continue;
        CHECK_EQ_U(f->count, 1);
        CHECK_EQ_U(f->nframes, 1);
        CHECK_EQ_U(f->frames[0], want[i].frame);
        CHECK_EQ_U(f->severity, want[i].sev);
        CHECK(f->nconns == 1 && f->conns[0] == 1);
    }
    f = finding(&e, "SEQ_MISORDERED", &n);
    CHECK(f && strstr(f->message, "1 sequence ID skipped ahead") != NULL);
    CHECK_EQ_U(nfindings(&e), 7);
    env_free(&e);
}

/* A session seen only from SEQUENCE traffic: no gap on first sight of a
 * slot, gaps after; in flight reuse on another connection; a retransmission
 * of the same XID is a REPLAY. */
static void test_mid_capture(void)
{
    struct env e;
    env_init(&e, NULL);
    struct ns_txn t, u;
    sq(&e, &t, 5, 5, 2, 100, GA); /* slot 2 first seen at 100: no gap */
    ans(&e, &t, 6, 6, 0, 15, 15);
    sq(&e, &t, 7, 7, 2, 102, GA); /* 100 -> 102: gap */
    call(&u, 8, 8 * MS, 2, GA);   /* slot 2 again on c2 while frame 7 is in flight */
    seq(&u, 1, 2, 103);
    sess_on_call(e.m, &u, &e.conns[1], NULL);
    reply(&u, 9, 9 * MS, 10063);
    sess_on_reply(e.m, &u, &e.conns[1], false, NULL);
    sess_on_retransmit(e.m, &t, 10, 10 * MS, NULL); /* frame 7 resent */
    sess_on_txn_done(e.m, &u, false);
    sess_on_txn_done(e.m, &t, true); /* never answered */
    sess_finish(e.m, INT64_MAX);
    const struct ns_session_view *s = sess_session(e.m, 0);
    CHECK(s && s->mid_capture && !s->has_client && !s->has_requested);
    CHECK_EQ_U(s->nconns, 2);
    CHECK_EQ_U(s->granted_slots, 16);
    CHECK_EQ_U(s->outstanding, 0);
    CHECK_EQ_U(s->max_outstanding, 1); /* the reuse replaced the call in flight */
    unsigned n;
    const struct ns_finding *f = finding(&e, "SLOT_SEQ_GAP", &n);
    CHECK(n == 1 && f && f->count == 1 && f->frames[0] == 7);
    f = finding(&e, "SEQ_MISORDERED", &n);
    CHECK(n == 1 && f && f->frames[0] == 9 && f->conns[0] == 2);
    CHECK(f && strstr(f->message, "another connection") != NULL);
    f = finding(&e, "REPLAY", &n);
    CHECK(n == 1 && f && f->frames[0] == 10);
    CHECK_EQ_U(nfindings(&e), 3);
    env_free(&e);
}

/* SEQUENCE out of place: second op (the session named), or missing. */
static void test_sequence_pos(void)
{
    struct env e;
    env_init(&e, NULL);
    struct ns_txn t;
    static const uint16_t late[] = {OP_PUTROOTFH, OP_SEQUENCE, OP_GETATTR, 0}, none[] = {OP_PUTROOTFH, OP_GETATTR, 0},
                          ex[] = {OP_EXCHANGE_ID, 0};
    call(&t, 1, MS, 1, late);
    t.u.v4.call.seq_late = true;
    sid_of(t.u.v4.call.seq.sessionid, 3);
    run(&e, &t);
    call(&t, 2, 2 * MS, 1, none);
    run(&e, &t);
    call(&t, 3, 3 * MS, 1, ex); /* session-less: fine */
    run(&e, &t);
    call(&t, 4, 4 * MS, 1, none);
    t.u.v4.call.minor = 0; /* NFSv4.0: no sessions */
    run(&e, &t);
    unsigned n;
    const struct ns_finding *f = finding(&e, "SEQUENCE_POS", &n);
    CHECK_EQ_U(n, 2);
    CHECK_EQ_U(nfindings(&e), 2);
    (void)f;
    CHECK_EQ_U(sess_session_count(e.m), 0); /* an out-of-place SEQUENCE creates no session */
    env_free(&e);
}

int main(void)
{
    test_rules();
    test_mid_capture();
    test_sequence_pos();
    return check_done("test_session_slots");
}
