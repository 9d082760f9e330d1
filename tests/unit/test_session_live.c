/* Findings complete while frames are fed: the store's listener is told of
 * every occurrence with its frame and a written message; settle brings the
 * rest up to date and is idempotent; finish adds nothing a settled model
 * does not already show, and twice is once. */
#include "session_build.h"

static const uint16_t GA[] = {OP_SEQUENCE, OP_PUTROOTFH, OP_GETATTR, 0};
static const uint16_t RD[] = {OP_SEQUENCE, OP_PUTFH, OP_READ, 0};
static const uint16_t OPEN[] = {OP_SEQUENCE, OP_PUTFH, OP_OPEN, 0};
static const uint16_t RC[] = {OP_SEQUENCE, OP_RECLAIM_COMPLETE, 0};

/* Call frame f at f ms on session sess, answered with status in frame f + 1. */
static void req(struct env *e, uint64_t f, unsigned sess, uint32_t slot, uint32_t seqid, const uint16_t *ops,
                uint32_t status, uint32_t conn)
{
    struct ns_txn t;
    call(&t, f, (int64_t)f * MS, conn, ops);
    seq(&t, sess, slot, seqid);
    reply(&t, f + 1, (int64_t)(f + 1) * MS, status);
    slots_limits(&t, 3, 3);
    run(e, &t);
}

/* Keyed rules: each occurrence is told with its frame, the message already
 * counting it; nothing changes at the end. */
static void test_keyed(void)
{
    struct env e;
    env_init(&e, NULL);
    struct tlog l;
    tlog_attach(&e, &l);
    mount(&e, 1, 0, 1, 0x11, 1, NS_SP4_NONE, 8, 4); /* SLOT_LIMITED: told with frames 3 and 4 */
    uint64_t fr[16];
    CHECK_EQ_U(tlog_frames(&l, "SLOT_LIMITED", fr, 16), 2);
    CHECK(fr[0] == 3 && fr[1] == 4);
    req(&e, 10, 1, 0, 1, GA, 0, 1);
    req(&e, 12, 1, 0, 3, GA, 10063, 1); /* SLOT_SEQ_GAP (call 12), SEQ_MISORDERED (reply 13) */
    unsigned n;
    const struct ns_finding *f = finding(&e, "SEQ_MISORDERED", &n);
    CHECK(n == 1 && f && strstr(f->message, "1 request refused with NFS4ERR_SEQ_MISORDERED: 1 sequence ID skipped"));
    req(&e, 14, 1, 0, 3, GA, 0, 1);     /* REPLAY (call 14) */
    req(&e, 16, 1, 0, 5, GA, 10063, 2); /* SLOT_SEQ_GAP (16), SEQ_MISORDERED (17) */
    req(&e, 18, 1, 0, 5, RD, 0, 1);     /* FALSE_RETRY (18) */
    f = finding(&e, "SEQ_MISORDERED", &n);
    CHECK(n == 1 && f && strstr(f->message, "2 requests refused with NFS4ERR_SEQ_MISORDERED: 2 sequence ID skipped"));
    f = finding(&e, "SLOT_SEQ_GAP", &n);
    CHECK(n == 1 && f && strncmp(f->message, "2 SEQUENCE calls", 16) == 0);
    CHECK_EQ_U(tlog_frames(&l, "SEQ_MISORDERED", fr, 16), 2);
    CHECK(fr[0] == 13 && fr[1] == 17);
    CHECK_EQ_U(tlog_frames(&l, "SLOT_SEQ_GAP", fr, 16), 2);
    CHECK(fr[0] == 12 && fr[1] == 16);
    CHECK_EQ_U(tlog_frames(&l, "REPLAY", fr, 16), 1);
    CHECK_EQ_U(fr[0], 14);
    CHECK_EQ_U(tlog_frames(&l, "FALSE_RETRY", fr, 16), 1);
    CHECK_EQ_U(fr[0], 18);
    CHECK_EQ_U(l.empty_msgs, 0);

    /* settle, then finish: the same findings, nothing more told */
    sess_settle(e.m, 20 * MS);
    struct fsnap *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    fsnap_take(&e, a);
    unsigned told = l.n;
    sess_settle(e.m, 20 * MS); /* idempotent */
    CHECK_EQ_U(l.n, told);
    sess_finish(e.m, 20 * MS);
    fsnap_take(&e, b);
    CHECK(fsnap_same(a, b));
    CHECK_EQ_U(l.n, told);
    sess_finish(e.m, 20 * MS); /* twice is once */
    fsnap_take(&e, b);
    CHECK(fsnap_same(a, b));
    CHECK_EQ_U(l.n, told);
    CHECK_EQ_U(b->n, 5);
    CHECK_EQ_U(l.empty_msgs, 0);
    free(a);
    free(b);
    env_free(&e);
}

/* SLOT_LIMITED: warning from the call that fills the granted slots (told
 * without a frame); its figures are brought up to date by settle. */
static void test_slot_limited(void)
{
    struct env e;
    env_init(&e, NULL);
    struct tlog l;
    tlog_attach(&e, &l);
    mount(&e, 1, 0, 1, 0x11, 1, NS_SP4_NONE, 8, 2); /* 2 of 8 */
    unsigned n;
    const struct ns_finding *f = finding(&e, "SLOT_LIMITED", &n);
    CHECK(n == 1 && f && f->severity == NS_SEV_INFO);
    struct ns_txn a, b;
    call(&a, 10, 10 * MS, 1, GA);
    seq(&a, 1, 0, 1);
    sess_on_call(e.m, &a, &e.conns[0], NULL);
    f = finding(&e, "SLOT_LIMITED", &n);
    CHECK(f && f->severity == NS_SEV_INFO);
    unsigned before = l.n;
    call(&b, 11, 11 * MS, 1, GA); /* 2 outstanding = 2 granted */
    seq(&b, 1, 1, 1);
    sess_on_call(e.m, &b, &e.conns[0], NULL);
    f = finding(&e, "SLOT_LIMITED", &n);
    CHECK(f && f->severity == NS_SEV_WARNING);
    CHECK(l.n == before + 1 && l.ev[before].frame == 0);
    reply(&a, 20, 20 * MS, 0);
    slots_limits(&a, 1, 1);
    sess_on_reply(e.m, &a, &e.conns[0], false, NULL);
    reply(&b, 21, 21 * MS, 0);
    slots_limits(&b, 1, 1);
    sess_on_reply(e.m, &b, &e.conns[0], false, NULL);
    /* all busy from 11 to 20 ms of the session's 2 (CREATE_SESSION) to 21 ms: 9/19 = 47.4% */
    sess_settle(e.m, 30 * MS);
    f = finding(&e, "SLOT_LIMITED", &n);
    CHECK(f && strstr(f->message, "busy 47.4% of the time (1 calls)") != NULL);
    unsigned told = l.n;
    sess_settle(e.m, 31 * MS);
    sess_finish(e.m, 31 * MS);
    sess_finish(e.m, 31 * MS);
    CHECK_EQ_U(l.n, told);
    CHECK_EQ_U(l.empty_msgs, 0);
    env_free(&e);
}

/* A storm: every error of the cluster told with its frame, all 30 of them
 * (the store keeps 8), the ones before the threshold when it is reached. */
static void test_storm_frames(void)
{
    struct env e;
    env_init(&e, NULL); /* 20 within 10 s */
    struct tlog l;
    tlog_attach(&e, &l);
    for (uint32_t i = 0; i < 30; i++) req(&e, 1 + 2 * i, 1, 0, i + 2, GA, 10063, 1); /* replies 2, 4, ... 60 */
    uint64_t fr[64];
    CHECK_EQ_U(tlog_frames(&l, "SEQ_MISORDERED_STORM", fr, 64), 30);
    for (unsigned i = 0; i < 30; i++) CHECK_EQ_U(fr[i], 2 + 2 * i);
    /* the first 20 told together when the 20th (frame 40) came, after SEQ_MISORDERED took it in */
    unsigned first = 0;
    while (first < l.n && strcmp(l.ev[first].kind, "SEQ_MISORDERED_STORM")) first++;
    CHECK(first > 0 && first + 20 < l.n);
    if (first > 0 && first + 20 < l.n) {
        CHECK(strcmp(l.ev[first - 1].kind, "SEQ_MISORDERED") == 0 && l.ev[first - 1].frame == 40);
        for (unsigned i = first; i < first + 20; i++) CHECK_EQ_S(l.ev[i].kind, "SEQ_MISORDERED_STORM");
        CHECK(strcmp(l.ev[first + 20].kind, "SEQ_MISORDERED") == 0 && l.ev[first + 20].frame == 42);
    }
    unsigned n;
    const struct ns_finding *f = finding(&e, "SEQ_MISORDERED_STORM", &n);
    CHECK(n == 1 && f && f->count == 30 && f->nframes == 8);
    /* replies at 2..60 ms */
    CHECK(f && strstr(f->message, "30 NFS4ERR_SEQ_MISORDERED replies in 0.1 s (peak 30 per second) on c1") != NULL);
    CHECK_EQ_U(l.empty_msgs, 0);
    unsigned told = l.n;
    sess_finish(e.m, INT64_MAX);
    CHECK_EQ_U(l.n, told);
    env_free(&e);
}

/* A cluster longer than first 8 + N before it storms: those in between are
 * not told (only the first 8 and the last N are kept). N = 5 within 1 s:
 * 10 errors 0.9 s apart (0..8.1 s), then 5 more 0.1 s apart (8.2..8.6 s).
 * The 14th (8.5 s) is the first with 5 within 1 s (8.1..8.5). */
static void test_storm_long_cluster(void)
{
    struct sess_config cfg = {5, 1 * SEC, 0, 0};
    struct env e;
    env_init(&e, &cfg);
    struct tlog l;
    tlog_attach(&e, &l);
    struct ns_txn t;
    uint64_t f = 1;
    for (uint32_t i = 0; i < 15; i++, f += 2) {
        int64_t ms = i < 10 ? 900 * (int64_t)i : 8100 + 100 * (int64_t)(i - 9);
        call(&t, f, ms * MS, 1, GA);
        seq(&t, 1, 0, i + 1);
        reply(&t, f + 1, ms * MS + 1, 10052); /* BADSESSION: replies in frames 2, 4, ..., 30 */
        run(&e, &t);
    }
    uint64_t fr[32];
    CHECK_EQ_U(tlog_frames(&l, "BADSESSION_STORM", fr, 32), 14);
    for (unsigned i = 0; i < 8; i++) CHECK_EQ_U(fr[i], 2 + 2 * i);      /* the first 8: 2..16 */
    for (unsigned i = 0; i < 5; i++) CHECK_EQ_U(fr[8 + i], 20 + 2 * i); /* the ring: 20..28 (18 untold) */
    CHECK_EQ_U(fr[13], 30);                                               /* then the 15th as it came */
    unsigned n;
    const struct ns_finding *x = finding(&e, "BADSESSION_STORM", &n);
    CHECK(n == 1 && x && x->count == 15);
    env_free(&e);
}

static void open_grace(struct env *e, uint64_t f, int64_t ms, uint32_t seqid)
{
    struct ns_txn t;
    call(&t, f, ms * MS, 1, OPEN);
    seq(&t, 1, 0, seqid);
    reply_at(&t, f + 1, (ms + 1) * MS, 2, 10013);
    run(e, &t);
}

/* GRACE_STUCK appears on the first GRACE reply more than 90 s after the
 * first one; time alone raises nothing; finish does not add it again. */
static void test_grace(void)
{
    struct env e;
    env_init(&e, NULL);
    struct tlog l;
    tlog_attach(&e, &l);
    mount(&e, 1, 0, 1, 0x31, 1, NS_SP4_NONE, 16, 16);
    struct ns_txn t;
    call(&t, 10, 10 * MS, 1, RC);
    t.u.v4.call.setup.has_reclaim_complete = true;
    seq(&t, 1, 0, 1);
    reply(&t, 11, 11 * MS, 10055); /* RECLAIM_COMPLETE failed */
    run(&e, &t);
    /* GRACE at 1 s, 31 s, 61 s, 91 s: 90 s apart, not more */
    for (uint32_t i = 0; i < 4; i++) open_grace(&e, 20 + 2 * i, 1000 + 30000 * (int64_t)i, i + 2);
    unsigned n;
    finding(&e, "GRACE_STUCK", &n);
    CHECK_EQ_U(n, 0);
    sess_settle(e.m, 500 * SEC); /* no GRACE reply since: no evidence the client is still in grace */
    finding(&e, "GRACE_STUCK", &n);
    CHECK_EQ_U(n, 0);
    open_grace(&e, 30, 91002, 6); /* 90.001 s after the first: stuck */
    const struct ns_finding *f = finding(&e, "GRACE_STUCK", &n);
    CHECK(n == 1 && f && f->count == 5 && f->nframes == 6);
    CHECK(f && strstr(f->message, "5 times over 90 s") && strstr(f->message, "failed and was never retried"));
    uint64_t fr[16];
    CHECK_EQ_U(tlog_frames(&l, "GRACE_STUCK", fr, 16), 6); /* the failed RECLAIM_COMPLETE, then the GRACE replies */
    CHECK(fr[0] == 11 && fr[1] == 21 && fr[5] == 31);
    open_grace(&e, 32, 95000, 7); /* taken in as it comes */
    f = finding(&e, "GRACE_STUCK", &n);
    CHECK(n == 1 && f && f->count == 6 && f->last_ts_ns == 95001 * MS);
    CHECK_EQ_U(tlog_frames(&l, "GRACE_STUCK", fr, 16), 7);
    CHECK_EQ_U(fr[6], 33);
    struct fsnap *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    fsnap_take(&e, a);
    sess_finish(e.m, 100 * SEC);
    sess_finish(e.m, 100 * SEC);
    fsnap_take(&e, b);
    CHECK(fsnap_same(a, b));
    finding(&e, "GRACE_STUCK", &n);
    CHECK_EQ_U(n, 1);
    CHECK_EQ_U(l.empty_msgs, 0);
    free(a);
    free(b);
    env_free(&e);
}

int main(void)
{
    test_keyed();
    test_slot_limited();
    test_storm_frames();
    test_storm_long_cluster();
    test_grace();
    return check_done("test_session_live");
}
