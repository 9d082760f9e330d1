/* Storms (clusters of one error kind, N within W seconds), GRACE_STUCK,
 * SLOT_LIMITED severity, CONN_NOT_BOUND causes, READ_PLUS accounting. */
#include "session_build.h"

static const uint16_t GA[] = {OP_SEQUENCE, OP_PUTROOTFH, OP_GETATTR, 0};

static uint64_t g_frame = 100;

/* A SEQUENCE call at ms on session sess (slot 0, seqid seqid) answered status at ms + 1. */
static void req(struct env *e, unsigned sess, int64_t ms, uint32_t seqid, uint32_t status, uint32_t conn)
{
    struct ns_txn t;
    call(&t, g_frame++, ms * MS, conn, GA);
    seq(&t, sess, 0, seqid);
    reply(&t, g_frame++, (ms + 1) * MS, status);
    run(e, &t);
}

static void test_storms(void)
{
    struct sess_config cfg = {5, 1 * SEC, 0, 0};
    struct env e;
    env_init(&e, &cfg);
    uint32_t q = 1;
    /* 6 BADSESSION 0.5 s apart: one cluster, never 5 within 1 s: no storm */
    for (int i = 0; i < 6; i++) req(&e, 1, i * 500, q++, 10052, 1);
    /* 6 more at 10 s, 0.1 s apart: 5 within 1 s: a storm of 6 (frames 124, 126, ...) */
    for (int i = 0; i < 6; i++) req(&e, 1, 10000 + i * 100, q++, 10052, 1 + (uint32_t)(i & 1));
    /* 20 s: a new cluster of 1 */
    req(&e, 1, 20000, q++, 10052, 1);
    /* another session: 4 DELAY only: no storm */
    for (int i = 0; i < 4; i++) req(&e, 2, 30000 + i, (uint32_t)i + 1, 10008, 3);
    sess_finish(e.m, INT64_MAX);
    unsigned n;
    const struct ns_finding *f = finding(&e, "BADSESSION_STORM", &n);
    CHECK_EQ_U(n, 1);
    if (f) {
        CHECK_EQ_U(f->count, 6);
        CHECK_EQ_U(f->severity, NS_SEV_CRITICAL);
        CHECK_EQ_U(f->nframes, 6);
        CHECK_EQ_U(f->frames[0], 113); /* requests 1..6 used frames 100..111 */
        CHECK_EQ_U(f->frames[5], 123);
        CHECK_EQ_U(f->first_ts_ns, 10001 * MS);
        CHECK_EQ_U(f->last_ts_ns, 10501 * MS);
        CHECK(f->nconns == 2 && f->conns[0] == 1 && f->conns[1] == 2);
        CHECK(f->has_session);
        CHECK(strstr(f->message, "6 NFS4ERR_BADSESSION replies in 0.5 s (peak 6 per second)") != NULL);
    }
    finding(&e, "DELAY_STORM", &n);
    CHECK_EQ_U(n, 0);
    /* and a client that kept using the session after its first refusal
     * (reply frame 101): the 12 later calls, DEAD_SESSION_USE */
    f = finding(&e, "DEAD_SESSION_USE", &n);
    CHECK_EQ_U(n, 1);
    if (f) {
        CHECK_EQ_U(f->count, 12);
        CHECK_EQ_U(f->frames[0], 101);
        CHECK_EQ_U(f->frames[1], 102);
    }
    CHECK_EQ_U(nfindings(&e), 2);
    env_free(&e);
}

/* A storm keeps its first 8 frames and counts the whole cluster. */
static void test_storm_default(void)
{
    struct env e;
    env_init(&e, NULL);
    g_frame = 1;
    for (int i = 0; i < 30; i++) req(&e, 1, i * 100, (uint32_t)i + 2, 10063, 1); /* 3 s, 30 errors */
    sess_finish(e.m, INT64_MAX);
    unsigned n;
    const struct ns_finding *f = finding(&e, "SEQ_MISORDERED_STORM", &n);
    CHECK_EQ_U(n, 1);
    if (f) {
        CHECK_EQ_U(f->count, 30);
        CHECK_EQ_U(f->nframes, 8);
        CHECK_EQ_U(f->frames[0], 2);
        CHECK_EQ_U(f->frames[7], 16);
    }
    f = finding(&e, "SEQ_MISORDERED", &n);
    CHECK(n == 1 && f && f->count == 30);
    CHECK_EQ_U(nfindings(&e), 2);
    env_free(&e);
}

static const uint16_t RC[] = {OP_SEQUENCE, OP_RECLAIM_COMPLETE, 0};
static const uint16_t OPEN[] = {OP_SEQUENCE, OP_PUTFH, OP_OPEN, 0};

static void open_grace(struct env *e, unsigned sess, int64_t ms, uint32_t seqid, uint32_t conn)
{
    struct ns_txn t;
    call(&t, g_frame++, ms * MS, conn, OPEN);
    seq(&t, sess, 0, seqid);
    reply_at(&t, g_frame++, (ms + 1) * MS, 2, 10013);
    run(e, &t);
}

static void test_grace(void)
{
    struct env e;
    env_init(&e, NULL);
    /* client 0x31: RECLAIM_COMPLETE refused (CONN_NOT_BOUND), GRACE for 100 s */
    mount(&e, 1, 0, 1, 0x31, 1, NS_SP4_NONE, 16, 16);
    struct ns_txn t;
    call(&t, 10, 10 * MS, 2, RC);
    t.u.v4.call.setup.has_reclaim_complete = true;
    seq(&t, 1, 0, 1);
    reply(&t, 11, 11 * MS, 10055);
    run(&e, &t);
    g_frame = 20;
    for (int i = 0; i < 11; i++) open_grace(&e, 1, 1000 + i * 10000, (uint32_t)i + 2, 1 + (uint32_t)(i % 2));
    /* client 0x32: RECLAIM_COMPLETE done, GRACE for 100 s: not stuck on the client's side */
    mount(&e, 200, 0, 3, 0x32, 2, NS_SP4_NONE, 16, 16);
    call(&t, 210, 5 * MS, 3, RC);
    t.u.v4.call.setup.has_reclaim_complete = true;
    seq(&t, 2, 0, 1);
    reply(&t, 211, 6 * MS, 0);
    run(&e, &t);
    g_frame = 300;
    for (int i = 0; i < 11; i++) open_grace(&e, 2, 1000 + i * 10000, (uint32_t)i + 2, 3);
    /* client 0x33: no RECLAIM_COMPLETE, GRACE for 50 s only */
    mount(&e, 400, 0, 4, 0x33, 3, NS_SP4_NONE, 16, 16);
    g_frame = 500;
    for (int i = 0; i < 6; i++) open_grace(&e, 3, 1000 + i * 10000, (uint32_t)i + 1, 4);
    sess_finish(e.m, INT64_MAX);
    unsigned n;
    const struct ns_finding *f = finding(&e, "GRACE_STUCK", &n);
    CHECK_EQ_U(n, 1);
    if (f) {
        CHECK_EQ_U(f->count, 11);
        CHECK(f->has_client && f->clientid == 0x31 && !f->has_session);
        CHECK_EQ_U(f->nframes, 8);
        CHECK_EQ_U(f->frames[0], 11);  /* the refused RECLAIM_COMPLETE */
        CHECK_EQ_U(f->frames[1], 21);  /* then the first GRACE replies */
        CHECK_EQ_U(f->frames[7], 33);
        CHECK(f->nconns == 2 && f->conns[0] == 1 && f->conns[1] == 2);
        CHECK_EQ_U(f->first_ts_ns, 1001 * MS);
        CHECK_EQ_U(f->last_ts_ns, 101001 * MS);
        CHECK(strstr(f->message, "failed and was never retried") != NULL);
    }
    CHECK_EQ_U(sess_client(e.m, 0)->grace_replies, 11);
    CHECK_EQ_U(sess_client(e.m, 0)->reclaim_complete_failed, 1);
    CHECK_EQ_U(sess_client(e.m, 1)->reclaim_complete_ok, 1);
    /* the first RECLAIM_COMPLETE on the unbound c2, SP4_NONE: no protection seen */
    f = finding(&e, "CONN_NOT_BOUND", &n);
    CHECK(n == 1 && f && strstr(f->message, "does not show bound at the time") != NULL);
    env_free(&e);
}

/* Options: a shorter grace period makes client 0x33's 50 s stuck too. */
static void test_grace_option(void)
{
    struct sess_config cfg = {0, 0, 40 * SEC, 0};
    struct env e;
    env_init(&e, &cfg);
    mount(&e, 400, 0, 4, 0x33, 3, NS_SP4_NONE, 16, 16);
    g_frame = 500;
    for (int i = 0; i < 6; i++) open_grace(&e, 3, 1000 + i * 10000, (uint32_t)i + 1, 4);
    sess_finish(e.m, INT64_MAX);
    unsigned n;
    const struct ns_finding *f = finding(&e, "GRACE_STUCK", &n);
    CHECK(n == 1 && f && f->count == 6 && f->frames[0] == 501 && strstr(f->message, "never sent"));
    env_free(&e);
}

/* SLOT_LIMITED stays info when the table never fills; nothing when granted all. */
static void test_slot_limited(void)
{
    struct env e;
    env_init(&e, NULL);
    mount(&e, 1, 0, 1, 0x41, 1, NS_SP4_NONE, 64, 10);
    mount(&e, 5, 0, 2, 0x42, 2, NS_SP4_NONE, 16, 16);
    g_frame = 10;
    for (int i = 0; i < 5; i++) req(&e, 1, 10 + i * 2, (uint32_t)i + 1, 0, 1);
    sess_finish(e.m, INT64_MAX);
    unsigned n;
    const struct ns_finding *f = finding(&e, "SLOT_LIMITED", &n);
    CHECK_EQ_U(n, 1);
    if (f) {
        CHECK_EQ_U(f->severity, NS_SEV_INFO);
        CHECK(f->nframes == 2 && f->frames[0] == 3 && f->frames[1] == 4 && f->count == 1);
        CHECK(strstr(f->message, "asked 64 fore-channel slots and the server granted 10") != NULL);
    }
    CHECK_EQ_U(nfindings(&e), 1);
    env_free(&e);
}

static void io_reply(struct env *e, uint64_t f, uint8_t fhbyte, uint32_t op, uint32_t count, uint32_t dseg,
                     uint64_t dbytes, uint32_t hseg, uint64_t hbytes)
{
    struct ns_txn t;
    uint16_t ops[] = {OP_SEQUENCE, OP_PUTFH, (uint16_t)op, 0};
    call(&t, f, (int64_t)f * MS, 1, ops);
    seq(&t, 1, 0, (uint32_t)f);
    t.u.v4.call.io.has_io = true;
    t.u.v4.call.io.op = op;
    t.u.v4.call.io.fh.len = 4;
    memset(t.u.v4.call.io.fh.data, fhbyte, 4);
    reply(&t, f + 1, (int64_t)(f + 1) * MS, 0);
    struct nfs_io_res *r = &t.u.v4.reply.io;
    r->has_io = true;
    r->count = count;
    r->data_segments = dseg;
    r->data_bytes = dbytes;
    r->hole_segments = hseg;
    r->hole_bytes = hbytes;
    r->segments = dseg + hseg;
    run(e, &t);
}

static void test_read_plus(void)
{
    struct env e;
    env_init(&e, NULL);
    io_reply(&e, 10, 0xbb, OP_READ_PLUS, 4096, 1, 4096, 2, 61440);
    io_reply(&e, 12, 0xaa, OP_READ_PLUS, 0, 0, 0, 1, 1 << 20);
    io_reply(&e, 14, 0xbb, OP_READ, 8192, 0, 0, 0, 0);
    io_reply(&e, 16, 0xcc, OP_READ, 100, 0, 0, 0, 0);
    const struct ns_read_bytes *r = sess_read_totals(e.m);
    CHECK_EQ_U(r->read_plus_replies, 2);
    CHECK_EQ_U(r->data_segments, 1);
    CHECK_EQ_U(r->data_bytes, 4096);
    CHECK_EQ_U(r->hole_segments, 3);
    CHECK_EQ_U(r->hole_bytes, 61440 + (1 << 20));
    CHECK_EQ_U(r->read_replies, 2);
    CHECK_EQ_U(r->read_bytes, 8292);
    const struct ns_read_file *const *v;
    size_t n = sess_read_files(e.m, &v);
    CHECK_EQ_U(n, 3);
    if (n == 3) { /* sorted by handle bytes */
        CHECK(v[0]->fh.data[0] == 0xaa && v[0]->r.hole_bytes == 1 << 20 && v[0]->r.read_replies == 0);
        CHECK(v[1]->fh.data[0] == 0xbb && v[1]->r.read_plus_replies == 1 && v[1]->r.read_bytes == 8192);
        CHECK(v[2]->fh.data[0] == 0xcc && v[2]->r.read_plus_replies == 0 && v[2]->r.read_bytes == 100);
    }
    env_free(&e);
}

/* More file handles than the table holds: the least recently read sixteenth goes, totals stay whole. */
static void test_read_files_cap(void)
{
    struct env e;
    env_init_cap(&e, NULL, 1ull << 30);
    struct ns_txn t;
    uint16_t ops[] = {OP_SEQUENCE, OP_PUTFH, OP_READ, 0};
    for (uint32_t i = 0; i <= SESS_FILES_MAX; i++) {
        call(&t, 2 * i + 1, (int64_t)i * MS, 1, ops);
        t.u.v4.call.io.has_io = true;
        t.u.v4.call.io.op = OP_READ;
        t.u.v4.call.io.fh.len = 4;
        memcpy(t.u.v4.call.io.fh.data, &i, 4);
        reply(&t, 2 * i + 2, (int64_t)i * MS + 1, 0);
        t.u.v4.reply.io.has_io = true;
        t.u.v4.reply.io.count = 10;
        run(&e, &t);
    }
    const struct ns_read_file *const *v;
    CHECK_EQ_U(sess_read_files(e.m, &v), SESS_FILES_MAX - SESS_FILES_MAX / 16 + 1);
    CHECK_EQ_U(sess_stats(e.m)->files_evicted, SESS_FILES_MAX / 16);
    CHECK_EQ_U(sess_read_totals(e.m)->read_bytes, 10ull * (SESS_FILES_MAX + 1));
    env_free(&e);
}

int main(void)
{
    test_read_files_cap();
    test_storms();
    test_storm_default();
    test_grace();
    test_grace_option();
    test_slot_limited();
    test_read_plus();
    return check_done("test_session_findings");
}
