/* The bounded reader: every read inside bounds works; every read outside
 * sets the right sticky error and never touches memory it should not. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "xdr.h"

/* Place n bytes at the very end of a page followed by an inaccessible page,
 * so any over-read faults at once. */
static uint8_t *guarded(const uint8_t *src, size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *base = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) abort();
    mprotect(base + pg, pg, PROT_NONE);
    uint8_t *p = base + pg - n;
    memcpy(p, src, n);
    return p;
}

static void test_mem(void)
{
    const uint8_t b[] = {0, 0, 0, 7, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 1, 0, 0, 0, 2,
                         0, 0, 0, 3, 'a', 'b', 'c', 0};
    uint8_t *g = guarded(b, sizeof b);
    struct xdr x;
    xdr_init_mem(&x, g, sizeof b);
    CHECK_EQ_U(xdr_u32(&x), 7);
    CHECK_EQ_U(xdr_i32(&x), (unsigned long long)(int64_t)-2);
    CHECK_EQ_U(xdr_u64(&x), 0x100000002ULL);
    uint8_t s[8] = {0};
    CHECK_EQ_U(xdr_opaque(&x, s, sizeof s, 16), 3);
    CHECK(memcmp(s, "abc", 3) == 0);
    CHECK(xdr_ok(&x));
    CHECK_EQ_U(xdr_remaining(&x), 0);
    CHECK_EQ_U(xdr_u32(&x), 0);
    CHECK_EQ_U(x.err, XDR_ERR_SHORT);
    /* sticky: later reads return 0 */
    CHECK_EQ_U(xdr_u32(&x), 0);

    /* a partial word at the end */
    xdr_init_mem(&x, g + sizeof b - 3, 3);
    CHECK_EQ_U(xdr_u32(&x), 0);
    CHECK_EQ_U(x.err, XDR_ERR_SHORT);
}

static void test_opaque_limits(void)
{
    const uint8_t big[] = {0, 0, 0, 9, 1, 2, 3, 4};          /* claims 9, has 4 */
    const uint8_t huge[] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
    struct xdr x;
    xdr_init_mem(&x, guarded(big, sizeof big), sizeof big);
    CHECK_EQ_U(xdr_skip_opaque(&x, 100), 0);
    CHECK_EQ_U(x.err, XDR_ERR_BAD);
    xdr_init_mem(&x, guarded(big, sizeof big), sizeof big);
    xdr_skip_opaque(&x, 8); /* over max */
    CHECK_EQ_U(x.err, XDR_ERR_BAD);
    xdr_init_mem(&x, guarded(huge, sizeof huge), sizeof huge);
    CHECK_EQ_U(xdr_count(&x, 4), 0);
    CHECK_EQ_U(x.err, XDR_ERR_BAD);
    const uint8_t cnt[] = {0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2};
    xdr_init_mem(&x, guarded(cnt, sizeof cnt), sizeof cnt);
    CHECK_EQ_U(xdr_count(&x, 4), 2);
    CHECK(xdr_ok(&x));
    const uint8_t bad_bool[] = {0, 0, 0, 2};
    xdr_init_mem(&x, guarded(bad_bool, 4), 4);
    xdr_bool(&x);
    CHECK_EQ_U(x.err, XDR_ERR_BAD);
}

/* Spans with holes: words split across spans, skips across holes, reads in holes. */
static void test_spans(void)
{
    const uint8_t a[] = {0, 0, 0, 1, 0, 0};   /* word 1, then half of word 2 */
    const uint8_t b[] = {0, 2, 0, 0, 0, 4};   /* rest of word 2, then opaque len 4 */
    const uint8_t c[] = {0, 0, 0, 5};         /* after a 4-byte hole: word 5 */
    struct ns_span sp[4] = {{guarded(a, 6), 6}, {guarded(b, 6), 6}, {NULL, 4}, {guarded(c, 4), 4}};
    struct ns_msg m = {sp, 4, 20};
    struct xdr x;
    xdr_init(&x, &m);
    CHECK_EQ_U(xdr_u32(&x), 1);
    CHECK_EQ_U(xdr_u32(&x), 2);
    CHECK_EQ_U(xdr_pos(&x), 8);
    CHECK_EQ_U(xdr_skip_opaque(&x, 8), 4); /* its bytes are the hole */
    CHECK(xdr_ok(&x));
    CHECK_EQ_U(xdr_pos(&x), 16);
    CHECK_EQ_U(xdr_u32(&x), 5);
    CHECK_EQ_U(xdr_remaining(&x), 0);
    CHECK(xdr_ok(&x));

    xdr_init(&x, &m);
    xdr_skip(&x, 13);        /* into the hole */
    CHECK_EQ_U(xdr_pos(&x), 13);
    CHECK_EQ_U(xdr_remaining(&x), 7);
    xdr_u32(&x);             /* reading in the hole */
    CHECK_EQ_U(x.err, XDR_ERR_TRUNC);

    xdr_init(&x, &m);
    xdr_skip(&x, 14);
    xdr_skip(&x, 2);         /* leave the hole exactly at its end */
    CHECK_EQ_U(xdr_u32(&x), 5);
    CHECK(xdr_ok(&x));
    xdr_skip(&x, 1);
    CHECK_EQ_U(x.err, XDR_ERR_SHORT);

    /* copying an opaque whose bytes are in a hole: truncated */
    xdr_init(&x, &m);
    xdr_skip(&x, 8);
    uint8_t out[4];
    xdr_opaque(&x, out, sizeof out, 8);
    CHECK_EQ_U(x.err, XDR_ERR_TRUNC);
}

/* Every split point of a byte string into two spans gives the same reads. */
static void test_every_split(void)
{
    uint8_t buf[24];
    for (unsigned i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 7 + 1);
    for (unsigned cut = 0; cut <= sizeof buf; cut++) {
        struct ns_span sp[2] = {{buf, cut}, {buf + cut, (uint32_t)(sizeof buf - cut)}};
        struct ns_msg m = {sp, 2, sizeof buf};
        struct xdr x, y;
        xdr_init(&x, &m);
        xdr_init_mem(&y, buf, sizeof buf);
        for (int k = 0; k < 3; k++) CHECK_EQ_U(xdr_u64(&x), xdr_u64(&y));
        CHECK(xdr_ok(&x));
        CHECK_EQ_U(xdr_remaining(&x), 0);
    }
}

/* A sub-reader stops at its limit, also in the middle of a span. */
static void test_sub(void)
{
    const uint8_t a[] = {0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3};
    struct ns_span sp[2] = {{a, 6}, {a + 6, 6}};
    struct ns_msg m = {sp, 2, 12};
    struct xdr x, s;
    xdr_init(&x, &m);
    xdr_u32(&x);
    xdr_sub(&x, 4, &s);
    CHECK_EQ_U(xdr_u32(&s), 2);
    CHECK_EQ_U(xdr_remaining(&s), 0);
    xdr_u32(&s);
    CHECK_EQ_U(s.err, XDR_ERR_SHORT);
    CHECK_EQ_U(xdr_u32(&x), 2); /* parent did not move */
    xdr_init(&x, &m);
    xdr_sub(&x, 2, &s);
    xdr_u32(&s);
    CHECK_EQ_U(s.err, XDR_ERR_SHORT);
    xdr_init_mem(&x, a, sizeof a);
    xdr_sub(&x, 8, &s);
    CHECK_EQ_U(xdr_u64(&s), 0x100000002ULL);
    CHECK_EQ_U(xdr_u8(&s), 0);
    CHECK_EQ_U(s.err, XDR_ERR_SHORT);
    xdr_sub(&x, 13, &s);
    CHECK_EQ_U(x.err, XDR_ERR_SHORT);
    const uint8_t le[] = {2, 0, 0, 0, 0x12, 0x34};
    xdr_init_mem(&x, le, sizeof le);
    CHECK_EQ_U(xdr_u32_le(&x), 2);
    CHECK_EQ_U(xdr_u16(&x), 0x1234);
}

int main(void)
{
    test_sub();
    test_mem();
    test_opaque_limits();
    test_spans();
    test_every_split();
    return check_done("test_xdr");
}
