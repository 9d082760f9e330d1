#include "xdr.h"

#include <string.h>

/* Position the reader at offset off of span i (i == nspans: end of message). */
static void enter_span(struct xdr *x, uint32_t i, uint32_t start, uint32_t off)
{
    x->span = i;
    x->span_start = start;
    x->hole_off = 0;
    if (i < x->msg->nspans && !x->msg->spans[i].data) {
        x->p = x->end = NULL;
        x->hole_off = off;
        return;
    }
    if (i < x->msg->nspans && x->msg->spans[i].data && start < x->len) {
        /* A sub-reader's limit may end inside a span: clamp the fast path. */
        uint32_t vis = x->msg->spans[i].len;
        if (vis > x->len - start) vis = x->len - start;
        x->p = x->msg->spans[i].data + off;
        x->end = x->msg->spans[i].data + vis;
    } else {
        x->p = x->end = NULL; /* end of message, or beyond a sub-reader's limit */
        x->hole_off = off;
    }
}

void xdr_init_slow(struct xdr *x, const struct ns_msg *m)
{
    memset(x, 0, sizeof *x);
    x->msg = m;
    x->len = m->len;
    enter_span(x, 0, 0, 0);
    /* Skip leading empty spans so the inline fast path sees data at once. */
    while (x->span < m->nspans && m->spans[x->span].len == 0)
        enter_span(x, x->span + 1, 0, 0);
}

void xdr_fail(struct xdr *x, enum xdr_err e)
{
    if (!x->err) x->err = (uint8_t)e;
    x->p = x->end = NULL;
}

uint32_t xdr_pos_spans(const struct xdr *x)
{
    if (x->span >= x->msg->nspans) return x->len;
    const struct ns_span *s = &x->msg->spans[x->span];
    if (!s->data || !x->p) return x->span_start + x->hole_off;
    return x->span_start + (uint32_t)(x->p - s->data);
}

/* Move forward n bytes; if out is non-NULL copy them, failing in a hole. */
static void advance(struct xdr *x, uint8_t *out, uint32_t n)
{
    if (x->err) return;
    if (!x->msg) {
        if ((size_t)(x->end - x->p) < n) { xdr_fail(x, XDR_ERR_SHORT); return; }
        if (out && n) memcpy(out, x->p, n);
        x->p += n;
        return;
    }
    uint32_t pos = xdr_pos(x);
    if (n > x->len - pos) { xdr_fail(x, XDR_ERR_SHORT); return; }
    while (n > 0 && x->span < x->msg->nspans) {
        const struct ns_span *s = &x->msg->spans[x->span];
        uint32_t in_span = pos - x->span_start;
        uint32_t avail = s->len - in_span;
        uint32_t take = n < avail ? n : avail;
        if (out && take) {
            if (!s->data) { xdr_fail(x, XDR_ERR_TRUNC); return; }
            memcpy(out, s->data + in_span, take);
            out += take;
        }
        n -= take;
        pos += take;
        if (take == avail)
            enter_span(x, x->span + 1, x->span_start + s->len, 0);
        else
            enter_span(x, x->span, x->span_start, in_span + take);
    }
}

void xdr_read_slow(struct xdr *x, uint8_t *out, uint32_t n)
{
    memset(out, 0, n);
    advance(x, out, n);
    if (x->err) memset(out, 0, n);
}

void xdr_bytes_slow(struct xdr *x, uint8_t *out, uint32_t n) { xdr_read_slow(x, out, n); }

void xdr_skip_slow(struct xdr *x, uint32_t n) { advance(x, NULL, n); }

uint32_t xdr_opaque_slow(struct xdr *x, uint8_t *out, uint32_t outcap, uint32_t max)
{
    uint32_t len = xdr_u32(x);
    if (x->err) return 0;
    if (len > max || len > xdr_remaining(x)) {
        xdr_fail(x, XDR_ERR_BAD);
        return 0;
    }
    uint32_t copy = len < outcap ? len : outcap;
    if (copy) xdr_bytes(x, out, copy);
    xdr_skip(x, len - copy);
    xdr_skip(x, xdr_pad4(len));
    return x->err ? 0 : len;
}

uint32_t xdr_count_slow(struct xdr *x, uint32_t min_item_bytes)
{
    uint32_t n = xdr_u32(x);
    if (x->err) return 0;
    if (min_item_bytes == 0) min_item_bytes = 1;
    if ((uint64_t)n * min_item_bytes > xdr_remaining(x)) {
        xdr_fail(x, XDR_ERR_BAD);
        return 0;
    }
    return n;
}

uint8_t xdr_u8_slow(struct xdr *x)
{
    uint8_t b = 0;
    xdr_bytes(x, &b, 1);
    return b;
}

uint16_t xdr_u16_slow(struct xdr *x)
{
    uint8_t b[2];
    xdr_bytes(x, b, 2);
    return (uint16_t)(b[0] << 8 | b[1]);
}

uint32_t xdr_u32_le(struct xdr *x)
{
    uint8_t b[4];
    xdr_bytes(x, b, 4);
    return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

void xdr_sub(struct xdr *x, uint32_t n, struct xdr *sub)
{
    if (n > xdr_remaining(x)) {
        xdr_fail(x, XDR_ERR_SHORT);
        *sub = *x;
        return;
    }
    *sub = *x;
    if (!x->msg) {
        sub->end = sub->p + n;
        sub->len = n;
        return;
    }
    sub->len = xdr_pos(x) + n;
    if (sub->p && (size_t)(sub->end - sub->p) > n) sub->end = sub->p + n;
}

const uint8_t *xdr_peek_contig(struct xdr *x, uint32_t n)
{
    if (x->err || !x->p || (size_t)(x->end - x->p) < n) return NULL;
    const uint8_t *q = x->p;
    x->p += n;
    return q;
}
