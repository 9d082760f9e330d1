/* Record marking with snapshot-length holes (issue 20, "Snaplen"): a message
 * the snaplen cut remembers the frame that delivered its first byte (its
 * record mark and header: rec_dir.head_frame) and says it was cut
 * (snap_cut), and is handed over dated by that frame; a message cut only by
 * a gap, or whole, is dated by its last byte's. */
#include <stdlib.h>

#include "check.h"
#include "rpc_msg.h"
#include "rpc_record.h"

struct seen {
    unsigned n;
    uint32_t len[8];
    bool trunc[8], snap_cut[8];
    uint64_t head[8], at[8];
    uint64_t dated[8];     /* the frame and time it was handed over with (rec_msg_fn) */
    int64_t dated_ts[8];
};

struct env {
    struct memcap mc;
    struct rec_stats st;
    struct rec_ctx c;
    struct rec_dir r;
    struct seen s;
};

static void on_msg(void *ctx, int dir, const struct ns_msg *m, bool truncated, uint64_t frame, int64_t ts)
{
    (void)dir;
    struct env *e = ctx;
    if (e->s.n == 8) { CHECK(!"too many messages"); return; }
    unsigned i = e->s.n++;
    e->s.len[i] = m->len;
    e->s.trunc[i] = truncated;
    e->s.snap_cut[i] = e->r.snap_cut;
    e->s.head[i] = e->r.head_frame;
    e->s.at[i] = e->c.frame;
    e->s.dated[i] = frame;
    e->s.dated_ts[i] = ts;
}

static bool plausible(void *ctx, int dir, const uint8_t *p, uint32_t n, uint32_t len, bool expected)
{
    (void)ctx;
    (void)dir;
    (void)expected;
    bool is_reply;
    uint32_t xid;
    return rpc_looks_like(p, n, len, &is_reply, &xid);
}

static void env_init(struct env *e)
{
    memset(e, 0, sizeof *e);
    memcap_init(&e->mc, 64u << 20);
    e->c = (struct rec_ctx){&e->mc, &e->st, on_msg, plausible, e, NULL, 0, 0};
    rec_init(&e->r, true);
}

static void env_done(struct env *e)
{
    rec_release(&e->c, &e->r);
    CHECK_EQ_U(e->mc.total_used, 0);
}

/* A reply record of len bytes (last fragment): mark, xid, REPLY, accepted,
 * null verifier, SUCCESS, then zeros. */
static uint8_t *reply_rec(uint32_t xid, uint32_t len)
{
    uint8_t *b = calloc(1, len + 4);
    uint32_t w[] = {0x80000000u | len, xid, 1, 0, 0, 0, 0};
    for (unsigned i = 0; i < sizeof w / sizeof w[0]; i++) {
        b[4 * i] = (uint8_t)(w[i] >> 24);
        b[4 * i + 1] = (uint8_t)(w[i] >> 16);
        b[4 * i + 2] = (uint8_t)(w[i] >> 8);
        b[4 * i + 3] = (uint8_t)w[i];
    }
    return b;
}

static void at(struct env *e, uint64_t frame)
{
    e->c.frame = frame; /* as the transport sets it for the bytes it hands over */
    e->c.ts = (int64_t)frame * 1000;
}

/* -s 96 over 1448-byte segments: 30 bytes captured of each; the reply's
 * header is in frame 10, its last bytes in frame 33. */
static void test_cut_in_every_segment(void)
{
    struct env e;
    env_init(&e);
    uint32_t len = 32896;
    uint8_t *b = reply_rec(0x41, len);
    uint32_t off = 0, frame = 10;
    while (off < len + 4) {
        uint32_t seg = len + 4 - off < 1448 ? len + 4 - off : 1448;
        at(&e, frame);
        rec_data(&e.c, &e.r, 0, b + off, seg < 30 ? seg : 30);
        if (seg > 30) rec_hole_snaplen(&e.c, &e.r, 0, seg - 30);
        off += seg;
        frame++;
    }
    CHECK_EQ_U(e.s.n, 1);
    CHECK_EQ_U(e.s.len[0], len);
    CHECK(e.s.trunc[0]);
    CHECK(e.s.snap_cut[0]);
    CHECK_EQ_U(e.s.head[0], 10);      /* the frame of its header */
    CHECK_EQ_U(e.s.at[0], frame - 1); /* not the frame of its last byte */
    CHECK_EQ_U(e.s.dated[0], 10);     /* dated by its header's frame and time */
    CHECK_EQ_U(e.s.dated_ts[0], 10000);
    CHECK_EQ_U(e.r.head_ts, 10000);
    CHECK(!e.r.snap_cut);             /* reset for the next message */
    free(b);
    env_done(&e);
}

/* Two messages: one whole (frame 3), then one cut in its own frame (4, the
 * -s 200 WRITE case) and completed there; then one whose tail is lost in a
 * gap (rec_hole): not snap_cut. */
static void test_whole_cut_gap(void)
{
    struct env e;
    env_init(&e);
    uint8_t *a = reply_rec(0x42, 40), *c = reply_rec(0x43, 5352), *d = reply_rec(0x44, 3000);
    at(&e, 3);
    rec_data(&e.c, &e.r, 0, a, 44);
    at(&e, 4);
    rec_data(&e.c, &e.r, 0, c, 134);
    rec_hole_snaplen(&e.c, &e.r, 0, 5356 - 134);
    at(&e, 5);
    rec_data(&e.c, &e.r, 0, d, 1448);
    at(&e, 7);
    rec_hole(&e.c, &e.r, 0, 3004 - 1448);
    CHECK_EQ_U(e.s.n, 3);
    CHECK(!e.s.trunc[0] && !e.s.snap_cut[0]);
    CHECK(e.s.trunc[1] && e.s.snap_cut[1]);
    CHECK_EQ_U(e.s.head[1], 4);
    CHECK(e.s.trunc[2] && !e.s.snap_cut[2]); /* a gap: dated as before, by its last byte */
    CHECK_EQ_U(e.s.head[2], 5);
    CHECK_EQ_U(e.s.dated[0], 3);
    CHECK_EQ_U(e.s.dated[1], 4);
    CHECK_EQ_U(e.s.dated[2], 7);             /* the frame of its last byte (the hole's) */
    CHECK_EQ_U(e.s.dated_ts[2], 7000);
    free(a);
    free(c);
    free(d);
    env_done(&e);
}

/* A reply in fragments of 8 KiB (marks at 0, 8196, 16392) over segments
 * of 1448 with 30 bytes captured: the second mark is in a cut range. The
 * message goes out as far as its fragments are known (its first, 8192
 * bytes), dated by its header's frame, and the stream seeks the next
 * record: the next reply, at the start of a segment, is found. */
static void test_later_mark_cut(void)
{
    struct env e;
    env_init(&e);
    uint8_t *b = reply_rec(0x45, 8192), *n = reply_rec(0x46, 100);
    b[0] = 0; /* not the last fragment */
    at(&e, 20);
    rec_data(&e.c, &e.r, 0, b, 30);
    rec_hole_snaplen(&e.c, &e.r, 0, 1448 - 30);
    uint32_t left = 3 * 8196 + 4 + 8192 - 1448, frame = 21;
    while (left) {
        uint32_t seg = left < 1448 ? left : 1448;
        at(&e, frame++);
        rec_hole_snaplen(&e.c, &e.r, 0, seg); /* nothing of it captured (a test: the data is no RPC) */
        left -= seg;
    }
    CHECK_EQ_U(e.s.n, 1);
    CHECK_EQ_U(e.s.len[0], 8192);
    CHECK(e.s.trunc[0] && e.s.snap_cut[0]);
    CHECK_EQ_U(e.s.head[0], 20);
    CHECK_EQ_U(e.s.dated[0], 20);
    at(&e, frame);
    rec_data(&e.c, &e.r, 0, n, 104);
    CHECK_EQ_U(e.s.n, 2);
    CHECK_EQ_U(e.s.len[1], 100);
    CHECK_EQ_U(e.s.dated[1], frame); /* whole, in one chunk: its frame */
    free(b);
    free(n);
    env_done(&e);
}

int main(void)
{
    test_later_mark_cut();
    test_cut_in_every_segment();
    test_whole_cut_gap();
    return check_done("test_rpc_record_snaplen");
}
