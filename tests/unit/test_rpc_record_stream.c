/* Large records stream through the record layer (rpc_record.h): a 1 MiB
 * record fed in 1448-byte segments comes out as its head, a hole (the
 * skipped middle, not counted as truncation) and its tail, with the memory
 * held bounded by REC_HEAD + 2 * REC_TAIL; a reader skipping the data across
 * the hole still reads the fields after it (an operation after a WRITE's
 * data); a record the caller needs whole is kept whole; a loss after the
 * middle marks the message truncated; a record of several fragments is kept
 * whole. Expected values come from the bytes sent. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rpc_record.h"
#include "xdr.h"

#define BIG (1u << 20)
#define SEG 1448

static uint8_t *src;      /* the record's message bytes */
static struct {
    unsigned n;
    uint32_t len, nspans, hole_bytes, tail_from;
    bool trunc, head_ok, tail_ok, after_ok;
} out;
static struct {
    unsigned n;
    uint32_t len;
    bool zero_tail;
    bool answer;
} ask;

static uint8_t byte_at(uint32_t i) { return (uint8_t)(i * 2654435761u >> 13); }

/* A message: 8 header bytes, u32 data length, the data, padding to 4,
 * then two words after the data (0xfeedf00d, 0x600d600d). */
static uint32_t make(uint32_t len)
{
    free(src);
    src = malloc(len);
    for (uint32_t i = 0; i < len; i++) src[i] = byte_at(i);
    uint32_t data = len - 8 - 4 - 8;
    uint8_t w[4] = {(uint8_t)(data >> 24), (uint8_t)(data >> 16), (uint8_t)(data >> 8), (uint8_t)data};
    memcpy(src + 8, w, 4);
    static const uint8_t after[8] = {0xfe, 0xed, 0xf0, 0x0d, 0x60, 0x0d, 0x60, 0x0d};
    memcpy(src + len - 8, after, 8);
    return len;
}

/* The decoder's walk: header, skip the opaque data, read what follows. */
static bool walk(const struct ns_msg *m)
{
    struct xdr x;
    xdr_init(&x, m);
    xdr_skip(&x, 8);
    uint32_t n = xdr_u32(&x);
    xdr_skip(&x, n);
    uint32_t a = xdr_u32(&x), b = xdr_u32(&x);
    return xdr_ok(&x) && a == 0xfeedf00d && b == 0x600d600d;
}

static void on_msg(void *ctx, int dir, const struct ns_msg *m, bool truncated, uint64_t frame, int64_t ts)
{
    (void)frame;
    (void)ts;
    (void)ctx, (void)dir;
    out.n++;
    out.len = m->len;
    out.nspans = m->nspans;
    out.trunc = truncated;
    out.hole_bytes = 0;
    out.head_ok = out.tail_ok = true;
    uint32_t pos = 0;
    out.tail_from = 0;
    for (uint32_t i = 0; i < m->nspans; i++) {
        const struct ns_span *s = &m->spans[i];
        if (!s->data) {
            out.hole_bytes += s->len;
            out.tail_from = pos + s->len;
        } else {
            bool same = memcmp(s->data, src + pos, s->len) == 0;
            if (pos < REC_HEAD) out.head_ok &= same;
            else out.tail_ok &= same;
        }
        pos += s->len;
    }
    out.after_ok = walk(m);
}

static bool plausible(void *ctx, int dir, const uint8_t *p, uint32_t n, uint32_t len, bool expected)
{
    (void)ctx, (void)dir, (void)p, (void)n, (void)len, (void)expected;
    return true;
}

static bool skippable(void *ctx, int dir, const struct ns_msg *trial)
{
    (void)ctx, (void)dir;
    ask.n++;
    ask.len = trial->len;
    const struct ns_span *last = &trial->spans[trial->nspans - 1];
    ask.zero_tail = last->data && last->len == REC_TAIL;
    for (uint32_t i = 0; ask.zero_tail && i < last->len; i++) ask.zero_tail = last->data[i] == 0;
    return ask.answer;
}

struct env {
    struct memcap mc;
    struct rec_stats st;
    struct rec_ctx c;
    struct rec_dir r;
};

static void env_init(struct env *e, bool answer)
{
    memset(e, 0, sizeof *e);
    memset(&out, 0, sizeof out);
    memset(&ask, 0, sizeof ask);
    ask.answer = answer;
    memcap_init(&e->mc, 64u << 20);
    e->c = (struct rec_ctx){&e->mc, &e->st, on_msg, plausible, NULL, skippable, 0, 0};
    rec_init(&e->r, true);
}

static void env_done(struct env *e)
{
    rec_release(&e->c, &e->r);
    CHECK_EQ_U(e->mc.used[MEM_REASSEMBLY], 0);
}

static void mark(struct env *e, uint32_t len, bool last)
{
    uint8_t m[4] = {(uint8_t)((len >> 24) | (last ? 0x80 : 0)), (uint8_t)(len >> 16), (uint8_t)(len >> 8), (uint8_t)len};
    rec_data(&e->c, &e->r, 0, m, 4);
}

/* Feed src[from..to) in segments of SEG bytes, each in its own allocation. */
static void feed(struct env *e, uint32_t from, uint32_t to)
{
    for (uint32_t at = from; at < to; at += SEG) {
        uint32_t n = to - at < SEG ? to - at : SEG;
        uint8_t *c = malloc(n);
        memcpy(c, src + at, n);
        rec_data(&e->c, &e->r, 0, c, n);
        free(c);
    }
}

static void test_streamed(void)
{
    struct env e;
    env_init(&e, true);
    uint32_t len = make(BIG);
    mark(&e, len, true);
    feed(&e, 0, len);
    CHECK_EQ_U(out.n, 1);
    CHECK_EQ_U(ask.n, 1);                    /* asked once */
    CHECK_EQ_U(ask.len, len);
    CHECK(ask.zero_tail);
    CHECK_EQ_U(out.len, len);
    CHECK(!out.trunc);                       /* skipped is not missing */
    CHECK_EQ_U(out.nspans, 3);               /* head, middle, tail */
    CHECK(out.head_ok && out.tail_ok);
    CHECK(out.hole_bytes > len - REC_HEAD - 2 * REC_TAIL - SEG && out.hole_bytes <= len - REC_HEAD - REC_TAIL);
    CHECK(len - out.tail_from >= REC_TAIL);  /* at least REC_TAIL bytes of tail */
    CHECK(out.after_ok);                     /* the words after the data are read */
    CHECK_EQ_U(e.st.streamed, 1);
    CHECK_EQ_U(e.st.streamed_bytes_skipped, out.hole_bytes);
    /* memory held for the record: the head, the tail area and the span table */
    CHECK(e.mc.pool_peak[MEM_REASSEMBLY] <= REC_HEAD + 2 * REC_TAIL + REC_MAX_SPANS * sizeof(struct rec_span));
    /* a second record on the same direction: same again */
    memset(&out, 0, sizeof out);
    mark(&e, len, true);
    feed(&e, 0, len);
    CHECK_EQ_U(out.n, 1);
    CHECK(out.head_ok && out.tail_ok && out.after_ok && !out.trunc);
    CHECK_EQ_U(e.st.streamed, 2);
    env_done(&e);
}

/* The caller's decoders need every byte (a READDIR reply): kept whole. */
static void test_kept_whole(void)
{
    struct env e;
    env_init(&e, false);
    uint32_t len = make(256u << 10);
    mark(&e, len, true);
    feed(&e, 0, len);
    CHECK_EQ_U(out.n, 1);
    CHECK_EQ_U(ask.n, 1);
    CHECK_EQ_U(out.nspans, 1);
    CHECK_EQ_U(out.hole_bytes, 0);
    CHECK(out.head_ok && out.tail_ok && out.after_ok);
    CHECK_EQ_U(e.st.kept_whole, 1);
    CHECK_EQ_U(e.st.streamed, 0);
    env_done(&e);
}

/* A loss after the middle began: the message is truncated; the bytes after
 * the loss are the tail. */
static void test_loss_while_streaming(void)
{
    struct env e;
    env_init(&e, true);
    uint32_t len = make(BIG);
    mark(&e, len, true);
    feed(&e, 0, 500000);
    rec_hole(&e.c, &e.r, 0, 20000);
    feed(&e, 520000, len);
    CHECK_EQ_U(out.n, 1);
    CHECK_EQ_U(out.len, len);
    CHECK(out.trunc);
    CHECK(out.head_ok && out.tail_ok && out.after_ok);
    env_done(&e);
}

/* Not the last fragment when the head fills: the record is kept whole. */
static void test_multi_fragment(void)
{
    struct env e;
    env_init(&e, true);
    uint32_t len = make(64u << 10);
    mark(&e, len / 2, false);
    feed(&e, 0, len / 2);
    mark(&e, len - len / 2, true);
    feed(&e, len / 2, len);
    CHECK_EQ_U(out.n, 1);
    CHECK_EQ_U(ask.n, 0);
    CHECK_EQ_U(out.hole_bytes, 0);
    CHECK(out.head_ok && out.tail_ok && out.after_ok);
    env_done(&e);
}

/* Small records (head + 2 tails or less) are never streamed. */
static void test_small(void)
{
    struct env e;
    env_init(&e, true);
    uint32_t len = make(REC_HEAD + 2 * REC_TAIL);
    mark(&e, len, true);
    feed(&e, 0, len);
    CHECK_EQ_U(out.n, 1);
    CHECK_EQ_U(out.hole_bytes, 0);
    CHECK(out.after_ok);
    CHECK_EQ_U(e.st.streamed, 0);
    env_done(&e);
}

int main(void)
{
    test_streamed();
    test_kept_whole();
    test_loss_while_streaming();
    test_multi_fragment();
    test_small();
    free(src);
    return check_done("test_rpc_record_stream");
}
