/* Record marking (RFC 5531 §11): a record is one or more fragments, each
 * behind a 4-byte mark whose top bit says "last fragment" and whose low 31
 * bits are the fragment length. Every message handed out is rebuilt here from
 * its spans into bytes plus a hole map and compared with what was sent. */
#include <stdlib.h>

#include "check.h"
#include "rpc_msg.h"
#include "rpc_record.h"

#define MAXMSG 64

struct got {
    uint32_t len;
    uint8_t *b, *hole;
    bool trunc;
    int dir;
};

static struct got got[MAXMSG];
static unsigned ngot;

static void clear_got(void)
{
    for (unsigned i = 0; i < ngot; i++) { free(got[i].b); free(got[i].hole); }
    ngot = 0;
}

static void on_msg(void *ctx, int dir, const struct ns_msg *m, bool truncated, uint64_t frame, int64_t ts)
{
    (void)frame;
    (void)ts;
    (void)ctx;
    if (ngot == MAXMSG) { CHECK(!"too many messages"); return; }
    struct got *g = &got[ngot++];
    g->len = m->len;
    g->b = calloc(1, m->len + 1);
    g->hole = calloc(1, m->len + 1);
    g->trunc = truncated;
    g->dir = dir;
    uint32_t pos = 0;
    for (uint32_t i = 0; i < m->nspans; i++) {
        CHECK(pos + m->spans[i].len <= m->len);
        if (pos + m->spans[i].len > m->len) return;
        if (m->spans[i].data) memcpy(g->b + pos, m->spans[i].data, m->spans[i].len);
        else memset(g->hole + pos, 1, m->spans[i].len);
        pos += m->spans[i].len;
    }
    CHECK_EQ_U(pos, m->len);
}

/* Like the analyzer: a call that looks like one is believed; a reply only if
 * its XID belongs to a call we know (here: the XIDs the tests use, 0x10..0x5f). */
static bool plausible(void *ctx, int dir, const uint8_t *p, uint32_t n, uint32_t len, bool expected)
{
    (void)ctx;
    (void)dir;
    (void)expected;
    bool is_reply;
    uint32_t xid;
    if (!rpc_looks_like(p, n, len, &is_reply, &xid)) return false;
    return !is_reply || (xid >= 0x10 && xid < 0x60);
}

struct env {
    struct memcap mc;
    struct rec_stats st;
    struct rec_ctx c;
    struct rec_dir r;
};

static void env_init(struct env *e, bool in_sync)
{
    memset(e, 0, sizeof *e);
    memcap_init(&e->mc, 64u << 20);
    e->c = (struct rec_ctx){&e->mc, &e->st, on_msg, plausible, NULL, NULL, 0, 0};
    rec_init(&e->r, in_sync);
    clear_got();
}

static void env_done(struct env *e)
{
    rec_release(&e->c, &e->r);
    CHECK_EQ_U(e->mc.used[MEM_REASSEMBLY], 0);
    CHECK_EQ_U(e->mc.total_used, 0);
}

/* Feed n bytes as a freshly allocated chunk (ASan sees any over-read). */
static void feed(struct env *e, const uint8_t *p, uint32_t n)
{
    uint8_t *c = malloc(n ? n : 1);
    memcpy(c, p, n);
    rec_data(&e->c, &e->r, 0, c, n);
    free(c);
}

/* Messages: a CALL header (RFC 5531 call_body, AUTH_NONE cred and verf)
 * or an accepted SUCCESS REPLY, then body bytes. */
struct msg { uint8_t b[4096]; uint32_t n; };

static void put32(uint8_t *p, uint32_t v) { p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v; }

static void mk_call(struct msg *m, uint32_t xid, uint32_t body, uint8_t fill)
{
    uint32_t w[10] = {xid, 0, 2, 100003, 3, 1, 0, 0, 0, 0};
    for (int i = 0; i < 10; i++) put32(m->b + 4 * i, w[i]);
    memset(m->b + 40, fill, body);
    m->n = 40 + body;
}

static void mk_reply(struct msg *m, uint32_t xid, uint32_t body, uint8_t fill)
{
    uint32_t w[6] = {xid, 1, 0, 0, 0, 0};
    for (int i = 0; i < 6; i++) put32(m->b + 4 * i, w[i]);
    memset(m->b + 24, fill, body);
    m->n = 24 + body;
}

struct stream { uint8_t b[65536]; uint32_t n; };

/* Append m as a record of fragments of the given sizes (the rest goes last). */
static void put_record(struct stream *s, const struct msg *m, const uint32_t *frags, unsigned nfrags)
{
    uint32_t at = 0;
    for (unsigned i = 0; i <= nfrags; i++) {
        uint32_t len = i < nfrags ? frags[i] : m->n - at;
        put32(s->b + s->n, (i == nfrags ? 0x80000000u : 0) | len);
        memcpy(s->b + s->n + 4, m->b + at, len);
        s->n += 4 + len;
        at += len;
    }
}

static bool same_msg(const struct got *g, const struct msg *m)
{
    if (g->len != m->n) return false;
    for (uint32_t i = 0; i < m->n; i++)
        if (g->hole[i] || g->b[i] != m->b[i]) return false;
    return true;
}

/* The four messages of the split tests. */
static struct msg A, B, C, D;
static struct stream S;

static void build_stream(void)
{
    mk_call(&A, 0x1001, 8, 0xa1);        /* 48 bytes, one fragment */
    mk_reply(&B, 0x1001, 100, 0xb2);     /* 124 bytes: 30, 0 (not last), 94 */
    mk_call(&C, 0x1002, 0, 0);           /* 40 bytes, one fragment */
    mk_reply(&D, 0x1002, 0, 0);          /* 24 bytes: 0 (not last), 24 */
    S.n = 0;
    put_record(&S, &A, NULL, 0);
    static const uint32_t fb[2] = {30, 0};
    put_record(&S, &B, fb, 2);
    put_record(&S, &C, NULL, 0);
    static const uint32_t fd[1] = {0};
    put_record(&S, &D, fd, 1);
}

static bool got_abcd(void)
{
    return ngot == 4 && same_msg(&got[0], &A) && same_msg(&got[1], &B) && same_msg(&got[2], &C) &&
           same_msg(&got[3], &D) && !got[0].trunc && !got[1].trunc && !got[2].trunc && !got[3].trunc;
}

static void test_single_and_multi(void)
{
    struct env e;
    build_stream();
    CHECK_EQ_U(S.n, 4 + 48 + 4 + 30 + 4 + 4 + 94 + 4 + 40 + 4 + 4 + 24);
    env_init(&e, true);
    feed(&e, S.b, S.n);
    CHECK(got_abcd());
    CHECK_EQ_U(e.st.messages, 4);
    CHECK_EQ_U(e.st.zero_length_fragments, 2);
    CHECK_EQ_U(e.st.bad_marks, 0);
    CHECK_EQ_U(e.st.resyncs, 0);
    env_done(&e);

    /* a three-fragment record 50 + 40 + 50 */
    struct msg m;
    struct stream s = {.n = 0};
    mk_call(&m, 7, 100, 0x33);
    static const uint32_t f3[2] = {50, 40};
    put_record(&s, &m, f3, 2);
    CHECK_EQ_U(s.n, 140 + 12);
    env_init(&e, true);
    feed(&e, s.b, s.n);
    CHECK_EQ_U(ngot, 1);
    CHECK(ngot == 1 && same_msg(&got[0], &m) && !got[0].trunc);
    env_done(&e);
}

static void test_every_split(void)
{
    build_stream();
    struct env e;
    unsigned bad = 0;
    for (uint32_t cut = 0; cut <= S.n; cut++) {
        env_init(&e, true);
        feed(&e, S.b, cut);
        feed(&e, S.b + cut, S.n - cut);
        if (!got_abcd() || e.st.messages != 4 || e.st.zero_length_fragments != 2) {
            bad++;
            fprintf(stderr, "split at %u: %u messages\n", cut, ngot);
        }
        env_done(&e);
    }
    CHECK_EQ_U(bad, 0);
    /* one byte at a time */
    env_init(&e, true);
    for (uint32_t i = 0; i < S.n; i++) feed(&e, S.b + i, 1);
    CHECK(got_abcd());
    env_done(&e);
    /* three chunks at every pair of cuts */
    bad = 0;
    for (uint32_t a = 0; a <= S.n; a += 3)
        for (uint32_t b = a; b <= S.n; b += 5) {
            env_init(&e, true);
            feed(&e, S.b, a);
            feed(&e, S.b + a, b - a);
            feed(&e, S.b + b, S.n - b);
            if (!got_abcd()) bad++;
            env_done(&e);
        }
    CHECK_EQ_U(bad, 0);
}

/* A hole inside a body: the message keeps its length, the hole is where it
 * was, and it is marked truncated. */
static void test_hole_in_body(void)
{
    build_stream();
    struct env e;
    /* B's first fragment body starts at 4+48+4 = 56; hole over B bytes [10,20) */
    uint32_t h = 56 + 10;
    env_init(&e, true);
    feed(&e, S.b, h);
    rec_hole(&e.c, &e.r, 0, 10);
    feed(&e, S.b + h + 10, S.n - h - 10);
    CHECK_EQ_U(ngot, 4);
    if (ngot == 4) {
        CHECK(same_msg(&got[0], &A));
        CHECK_EQ_U(got[1].len, B.n);
        CHECK(got[1].trunc);
        bool ok = true;
        for (uint32_t i = 0; i < B.n; i++) {
            bool in = i >= 10 && i < 20;
            if (got[1].hole[i] != in || (!in && got[1].b[i] != B.b[i])) ok = false;
        }
        CHECK(ok);
        CHECK(same_msg(&got[2], &C) && !got[2].trunc);
        CHECK(same_msg(&got[3], &D));
    }
    env_done(&e);

    /* A hole that ends B exactly: B's last 94-byte fragment is all hole;
     * the next mark is where it should be, so sync is kept. */
    uint32_t last_frag = 56 + 30 + 4 + 4;   /* body of the 94-byte fragment */
    env_init(&e, true);
    feed(&e, S.b, last_frag);
    rec_hole(&e.c, &e.r, 0, 94);
    CHECK_EQ_U(ngot, 2);
    feed(&e, S.b + last_frag + 94, S.n - last_frag - 94);
    CHECK_EQ_U(ngot, 4);
    if (ngot == 4) {
        CHECK(got[1].trunc);
        CHECK_EQ_U(got[1].len, 124);
        bool ok = true;
        for (uint32_t i = 0; i < 124; i++)
            if (got[1].hole[i] != (i >= 30) || (i < 30 && got[1].b[i] != B.b[i])) ok = false;
        CHECK(ok);
        CHECK(same_msg(&got[2], &C));
    }
    CHECK_EQ_U(e.st.resyncs, 0);
    env_done(&e);
}

/* A hole swallowing a record mark: sync is lost and found again at the next
 * record whose mark and header look like RPC. */
static void test_resync(void)
{
    struct msg m1, m2, m3, m4;
    mk_call(&m1, 0x11, 60, 0xee);
    mk_call(&m2, 0x12, 200, 0xee);
    mk_reply(&m3, 0x11, 16, 0xee);
    mk_call(&m4, 0x13, 4, 0xee);
    struct stream s = {.n = 0};
    put_record(&s, &m1, NULL, 0);
    uint32_t m2_at = s.n;
    put_record(&s, &m2, NULL, 0);
    put_record(&s, &m3, NULL, 0);
    put_record(&s, &m4, NULL, 0);

    /* the hole: last 20 bytes of m1, m2's mark and its first 60 bytes */
    struct env e;
    env_init(&e, true);
    uint32_t hs = m2_at - 20, he = m2_at + 4 + 60;
    feed(&e, s.b, hs);
    rec_hole(&e.c, &e.r, 0, he - hs);
    feed(&e, s.b + he, s.n - he);
    CHECK_EQ_U(ngot, 3);
    if (ngot == 3) {
        CHECK_EQ_U(got[0].len, m1.n);
        CHECK(got[0].trunc);
        bool ok = true;
        for (uint32_t i = 0; i < m1.n; i++)
            if (got[0].hole[i] != (i >= m1.n - 20) || (i < m1.n - 20 && got[0].b[i] != m1.b[i])) ok = false;
        CHECK(ok);
        CHECK(same_msg(&got[1], &m3) && !got[1].trunc);
        CHECK(same_msg(&got[2], &m4));
    }
    CHECK_EQ_U(e.st.resyncs, 1);
    CHECK_EQ_U(e.st.bad_marks, 0);
    env_done(&e);

    /* the hole starts exactly on m2's mark */
    env_init(&e, true);
    feed(&e, s.b, m2_at);
    CHECK_EQ_U(ngot, 1);
    rec_hole(&e.c, &e.r, 0, 10);
    feed(&e, s.b + m2_at + 10, s.n - m2_at - 10);
    CHECK_EQ_U(ngot, 3);
    if (ngot == 3) CHECK(same_msg(&got[0], &m1) && same_msg(&got[1], &m3) && same_msg(&got[2], &m4));
    env_done(&e);

    /* picked up mid-stream (inside m1's body): nothing until a plausible record */
    env_init(&e, false);
    feed(&e, s.b + 4 + 40 + 5, s.n - 4 - 40 - 5);
    CHECK_EQ_U(ngot, 3);
    if (ngot == 3) CHECK(same_msg(&got[0], &m2) && same_msg(&got[1], &m3) && same_msg(&got[2], &m4));
    env_done(&e);
}

/* Snaplen 96 over IPv4 with TCP timestamps leaves 30 bytes of each segment:
 * a record mark and 26 bytes of header (XID, type, rpcvers, prog, vers, proc
 * and half a credential flavor). A direction that must find its first record
 * (picked up mid-stream, or a connection on a port not known to be RPC) has
 * nothing else to go by: calls so cut must still start a record (tshark
 * decodes them), and the marks then carry it from record to record. */
static void test_sync_on_cut_headers(void)
{
    struct msg m[4];
    mk_call(&m[0], 0x31, 300, 0xee);
    mk_call(&m[1], 0x32, 40, 0xee);
    mk_reply(&m[2], 0x31, 200, 0xee); /* a reply: believed once its call is known */
    mk_call(&m[3], 0x33, 1000, 0xee);
    struct env e;
    env_init(&e, false);
    for (int i = 0; i < 4; i++) {
        struct stream s = {.n = 0};
        put_record(&s, &m[i], NULL, 0);
        feed(&e, s.b, 30);
        rec_hole(&e.c, &e.r, 0, s.n - 30);
    }
    CHECK_EQ_U(ngot, 4);
    for (unsigned i = 0; i < ngot && i < 4; i++) {
        CHECK_EQ_U(got[i].len, m[i].n);
        CHECK(got[i].trunc);
        CHECK(memcmp(got[i].b, m[i].b, 26) == 0);
    }
    CHECK_EQ_U(e.st.resyncs, 0);
    env_done(&e);

    /* Not RPC: the same cut chunks with rpcvers 3, or a zero program. */
    struct msg bad = m[0];
    put32(bad.b + 8, 3);
    env_init(&e, false);
    struct stream s = {.n = 0};
    put_record(&s, &bad, NULL, 0);
    feed(&e, s.b, 30);
    rec_hole(&e.c, &e.r, 0, s.n - 30);
    bad = m[0];
    put32(bad.b + 12, 0);
    s.n = 0;
    put_record(&s, &bad, NULL, 0);
    feed(&e, s.b, 30);
    rec_hole(&e.c, &e.r, 0, s.n - 30);
    CHECK_EQ_U(ngot, 0);
    env_done(&e);

    /* Fewer than 20 header bytes (no version number) are not enough. */
    env_init(&e, false);
    s.n = 0;
    put_record(&s, &m[0], NULL, 0);
    feed(&e, s.b, 4 + 16);
    rec_hole(&e.c, &e.r, 0, s.n - 20);
    CHECK_EQ_U(ngot, 0);
    env_done(&e);
}

/* Picked up mid-stream, the first record boundary split over two or three
 * chunks at every offset of the mark and the header: the bytes before a
 * chunk's end that cannot be judged yet are carried to the next chunk, so
 * the record is still found (issue 20). */
static void test_sync_across_chunks(void)
{
    struct msg m1, m2, m3;
    mk_call(&m1, 0x11, 300, 0xee);
    mk_call(&m2, 0x12, 20, 0xee);
    mk_reply(&m3, 0x12, 60, 0xee);
    struct stream s = {.n = 0};
    put_record(&s, &m1, NULL, 0);
    uint32_t a2 = s.n;
    put_record(&s, &m2, NULL, 0);
    put_record(&s, &m3, NULL, 0);
    uint32_t from = 4 + 40 + 100; /* inside m1's body */
    unsigned bad = 0;
    for (uint32_t k1 = 0; k1 <= 44; k1++) {
        for (uint32_t k2 = k1; k2 <= 44; k2++) {
            struct env e;
            env_init(&e, false);
            feed(&e, s.b + from, a2 + k1 - from);
            feed(&e, s.b + a2 + k1, k2 - k1);
            feed(&e, s.b + a2 + k2, s.n - a2 - k2);
            if (ngot != 2 || !same_msg(&got[0], &m2) || !same_msg(&got[1], &m3)) bad++;
            if (e.st.resyncs != 0 || e.st.false_starts != 0) bad++;
            env_done(&e);
        }
    }
    CHECK_EQ_U(bad, 0);
    /* one byte per chunk */
    struct env e;
    env_init(&e, false);
    for (uint32_t i = from; i < s.n; i++) feed(&e, s.b + i, 1);
    CHECK_EQ_U(ngot, 2);
    if (ngot == 2) CHECK(same_msg(&got[0], &m2) && same_msg(&got[1], &m3));
    env_done(&e);
}

static void put_fake_call(uint8_t *p, uint32_t xid, uint32_t len)
{
    uint32_t w[11] = {0x80000000u | len, xid, 0, 2, 100003, 3, 1, 0, 0, 0, 0};
    for (int i = 0; i < 11; i++) put32(p + 4 * i, w[i]);
}

/* A false start: a record header inside a WRITE's data, picked up first,
 * whose length runs over real records (m2, m3) into m3's data. The mark
 * expected at its end is not one: the stream goes on at the next boundary
 * of the chain found inside the false record (m2 -> m3 -> m4), not at a
 * second false header lying in m3's data after the false record's end. */
static void test_false_start(void)
{
    struct msg m1, m2, m3, m4, m5;
    mk_call(&m1, 0x11, 300, 0xee);
    mk_call(&m2, 0x12, 20, 0xee);
    mk_call(&m3, 0x13, 400, 0xee);
    mk_call(&m4, 0x14, 30, 0xee);
    mk_reply(&m5, 0x14, 10, 0xee);
    uint32_t a2 = 4 + m1.n, a3 = a2 + 4 + m2.n;
    uint32_t f1 = 4 + 40 + 50, f2 = a3 + 4 + 40 + 100;
    put_fake_call(m1.b + 40 + 50, 0x51, f2 - 30 - (f1 + 4));
    put_fake_call(m3.b + 40 + 100, 0x52, 100);
    struct stream s = {.n = 0};
    put_record(&s, &m1, NULL, 0);
    put_record(&s, &m2, NULL, 0);
    put_record(&s, &m3, NULL, 0);
    put_record(&s, &m4, NULL, 0);
    put_record(&s, &m5, NULL, 0);
    for (uint32_t chunk = 1; chunk <= 2048; chunk *= 2) {
        struct env e;
        env_init(&e, false);
        for (uint32_t i = 4 + 40 + 10; i < s.n; i += chunk) feed(&e, s.b + i, i + chunk <= s.n ? chunk : s.n - i);
        CHECK_EQ_U(ngot, 3);
        if (ngot == 3) {
            CHECK_EQ_U(got[0].len, f2 - 30 - (f1 + 4)); /* the false record itself was handed out */
            CHECK(same_msg(&got[1], &m4) && same_msg(&got[2], &m5));
        }
        CHECK_EQ_U(e.st.false_starts, 1);
        CHECK_EQ_U(e.st.msgs_lost, 1); /* m3, whose head was inside the false record */
        env_done(&e);
    }
}

/* A mark claiming ~2 GiB is not RPC: rejected, and the stream resyncs. */
static void test_huge_mark(void)
{
    struct msg m1, m2;
    mk_call(&m1, 0x21, 8, 0xee);
    mk_reply(&m2, 0x21, 8, 0xee);
    static const uint32_t marks[3] = {0xfffffff0u, 0x7fffffffu, 0x80000000u | ((8u << 20) + 1)};
    for (int k = 0; k < 3; k++) {
        struct stream s = {.n = 0};
        put_record(&s, &m1, NULL, 0);
        put32(s.b + s.n, marks[k]);
        memset(s.b + s.n + 4, 0xee, 40);
        s.n += 44;
        put_record(&s, &m2, NULL, 0);
        struct env e;
        env_init(&e, true);
        feed(&e, s.b, s.n);
        CHECK_EQ_U(e.st.bad_marks, 1);
        CHECK_EQ_U(e.st.resyncs, 1);
        CHECK_EQ_U(ngot, 2);
        if (ngot == 2) CHECK(same_msg(&got[0], &m1) && same_msg(&got[1], &m2));
        env_done(&e);
    }
    /* a last fragment shorter than any RPC message (RFC 5531 header >= 24) */
    struct stream s = {.n = 0};
    put32(s.b, 0x80000000u | 8);
    memset(s.b + 4, 0xee, 8);
    s.n = 12;
    put_record(&s, &m2, NULL, 0);
    struct env e;
    env_init(&e, true);
    feed(&e, s.b, s.n);
    CHECK_EQ_U(e.st.bad_marks, 1);
    CHECK_EQ_U(ngot, 1);
    if (ngot == 1) CHECK(same_msg(&got[0], &m2));
    env_done(&e);
}

/* Zero-length fragments that are not last are legal and add nothing. */
static void test_zero_fragments(void)
{
    struct msg m;
    mk_call(&m, 0x31, 60, 0x5a); /* 100 bytes */
    static const uint32_t f[5] = {0, 50, 0, 0, 25};
    struct stream s = {.n = 0};
    put_record(&s, &m, f, 5);
    CHECK_EQ_U(s.n, 100 + 6 * 4);
    struct env e;
    env_init(&e, true);
    feed(&e, s.b, s.n);
    CHECK_EQ_U(ngot, 1);
    if (ngot == 1) CHECK(same_msg(&got[0], &m) && !got[0].trunc);
    CHECK_EQ_U(e.st.zero_length_fragments, 3);
    env_done(&e);
    /* a record ending in a zero-length last fragment */
    static const uint32_t g[1] = {100};
    s.n = 0;
    put_record(&s, &m, g, 1);
    CHECK_EQ_U(s.n, 108);
    CHECK_EQ_U(s.b[104], 0x80);
    CHECK_EQ_U(s.b[107], 0);
    env_init(&e, true);
    feed(&e, s.b, s.n);
    CHECK_EQ_U(ngot, 1);
    if (ngot == 1) CHECK(same_msg(&got[0], &m));
    env_done(&e);
}

/* 300 holes in one message: more than REC_MAX_SPANS spans. The head and the
 * tail survive, the middle becomes one hole, the length is right. */
static void test_many_holes(void)
{
    struct msg m;
    mk_call(&m, 0x41, 2404 - 40, 0);
    for (uint32_t i = 40; i < 2404; i++) m.b[i] = (uint8_t)(i * 31 + 7);
    struct stream s = {.n = 0};
    put_record(&s, &m, NULL, 0);
    struct env e;
    env_init(&e, true);
    /* message bytes: 300 x (4 data, 4 hole), then 4 data */
    feed(&e, s.b, 4 + 4);
    for (uint32_t i = 0; i < 300; i++) {
        rec_hole(&e.c, &e.r, 0, 4);
        feed(&e, s.b + 4 + 8 * i + 8, 4);
    }
    CHECK_EQ_U(ngot, 1);
    if (ngot == 1) {
        CHECK_EQ_U(got[0].len, 2404);
        CHECK(got[0].trunc);
        /* 256 spans: the first 254 (127 data/hole pairs = 1016 bytes) as
         * sent, one hole to 2400, then the last 4 data bytes. */
        bool head = true, mid = true, tail = true;
        for (uint32_t i = 0; i < 1016; i++) {
            bool h = (i / 4) % 2 == 1;
            if (got[0].hole[i] != h || (!h && got[0].b[i] != m.b[i])) head = false;
        }
        for (uint32_t i = 1016; i < 2400; i++)
            if (!got[0].hole[i]) mid = false;
        for (uint32_t i = 2400; i < 2404; i++)
            if (got[0].hole[i] || got[0].b[i] != m.b[i]) tail = false;
        CHECK(head);
        CHECK(mid);
        CHECK(tail);
    }
    env_done(&e);
}

/* Buffers come back to the memcap: a partial message, and after big ones. */
static void test_release(void)
{
    struct msg m;
    mk_call(&m, 0x51, 4000, 0x77);
    struct stream s = {.n = 0};
    put_record(&s, &m, NULL, 0);
    struct env e;
    env_init(&e, true);
    feed(&e, s.b, 2000);              /* half a message is buffered */
    CHECK(e.mc.used[MEM_REASSEMBLY] > 0);
    CHECK_EQ_U(ngot, 0);
    env_done(&e);                     /* checks used == 0 */

    /* a 600 KiB message in 1000-byte chunks: its buffer (over 256 KiB) is given back */
    static uint8_t big[4 + 600 * 1024];
    uint32_t blen = 600 * 1024;
    put32(big, 0x80000000u | blen);
    mk_call(&m, 0x52, 0, 0);
    memcpy(big + 4, m.b, 40);
    for (uint32_t i = 44; i < sizeof big; i++) big[i] = (uint8_t)i;
    env_init(&e, true);
    for (uint32_t at = 0; at < sizeof big; at += 1000)
        feed(&e, big + at, sizeof big - at < 1000 ? (uint32_t)(sizeof big - at) : 1000);
    CHECK_EQ_U(ngot, 1);
    if (ngot == 1) {
        CHECK_EQ_U(got[0].len, blen);
        CHECK(!got[0].trunc);
        CHECK(memcmp(got[0].b, big + 4, blen) == 0);
    }
    CHECK(e.mc.used[MEM_REASSEMBLY] <= REC_MAX_SPANS * sizeof(struct rec_span)); /* only the span table */
    env_done(&e);
}

/* Tight memory: no room for the span table drops the message and resyncs;
 * room for spans but not bytes keeps the length with holes. A message that
 * fits in one chunk needs no memory at all. */
static void test_tiny_memcap(void)
{
    struct msg m1, m2;
    mk_call(&m1, 0x55, 1000, 0xee);
    mk_reply(&m2, 0x55, 40, 0xee);
    struct stream s = {.n = 0};
    put_record(&s, &m1, NULL, 0);
    uint32_t m2_at = s.n;
    put_record(&s, &m2, NULL, 0);
    struct env e;
    env_init(&e, true);
    memcap_init(&e.mc, 1000);           /* reassembly pool 350 bytes: no span table */
    feed(&e, s.b, 500);
    feed(&e, s.b + 500, s.n - 500);
    CHECK_EQ_U(ngot, 1);
    if (ngot == 1) CHECK(same_msg(&got[0], &m2));
    CHECK_EQ_U(e.st.dropped_bytes, m1.n);
    CHECK_EQ_U(e.st.resyncs, 1);
    env_done(&e);

    env_init(&e, true);
    memcap_init(&e.mc, 10000);          /* 3500 bytes: span table (2048) but no 4096-byte buffer */
    feed(&e, s.b, 500);
    feed(&e, s.b + 500, m2_at - 500);
    feed(&e, s.b + m2_at, s.n - m2_at);
    CHECK_EQ_U(ngot, 2);
    if (ngot == 2) {
        CHECK_EQ_U(got[0].len, m1.n);
        CHECK(got[0].trunc);
        bool all_hole = true;
        for (uint32_t i = 0; i < m1.n; i++) all_hole &= got[0].hole[i] == 1;
        CHECK(all_hole);
        CHECK(same_msg(&got[1], &m2) && !got[1].trunc);
    }
    CHECK_EQ_U(e.st.dropped_bytes, m1.n);
    env_done(&e);
}

int main(void)
{
    test_single_and_multi();
    test_every_split();
    test_hole_in_body();
    test_resync();
    test_sync_on_cut_headers();
    test_sync_across_chunks();
    test_false_start();
    test_huge_mark();
    test_zero_fragments();
    test_many_holes();
    test_release();
    test_tiny_memcap();
    clear_got();
    return check_done("test_rpc_record");
}
