/* The one bounded reader every decoder uses (RFC 4506 XDR, big-endian).
 *
 * Contract: no function ever reads outside the message. A read past the end
 * of the message sets XDR_ERR_SHORT; a read of bytes that fall in a hole (not
 * captured) sets XDR_ERR_TRUNC; a decoder that finds an impossible value calls
 * xdr_fail(x, XDR_ERR_BAD). The first error sticks: every later read returns 0
 * and moves nothing, so a decoder checks xdr_ok() once per structure.
 * Skipping (xdr_skip, xdr_skip_opaque) may cross holes without error. */
#ifndef NFSSCOPE_XDR_H
#define NFSSCOPE_XDR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nfsscope/msg.h"

enum xdr_err {
    XDR_OK = 0,
    XDR_ERR_SHORT = 1, /* message ended: invalid */
    XDR_ERR_TRUNC = 2, /* bytes not captured: a property of the capture */
    XDR_ERR_BAD = 3,   /* a value that cannot be (count too big, bad enum) */
};

/* The fast paths are a few instructions each and run for every field of
 * every message: always inline them (an LTO build would otherwise outline
 * them again, by its whole-program growth limits). */
#if defined(__GNUC__)
#define XDR_INLINE __attribute__((always_inline))
#else
#define XDR_INLINE
#endif

struct xdr {
    const uint8_t *p, *end;   /* captured bytes of the current span */
    const struct ns_msg *msg; /* NULL for a plain memory buffer */
    uint32_t span;            /* index of the current span */
    uint32_t span_start;      /* message offset of the current span */
    uint32_t hole_off;        /* offset inside the current span when it is a hole */
    uint32_t len;             /* message length */
    uint8_t err;
};

/* Read a message made of spans. */
void xdr_init_slow(struct xdr *x, const struct ns_msg *m);
static inline XDR_INLINE void xdr_init(struct xdr *x, const struct ns_msg *m)
{
    /* fast path: the first span holds captured bytes (every whole frame) */
    if (m->nspans && m->spans[0].data && m->spans[0].len && m->len) {
        x->msg = m;
        x->len = m->len;
        x->span = x->span_start = x->hole_off = 0;
        x->err = XDR_OK;
        x->p = m->spans[0].data;
        x->end = x->p + (m->spans[0].len < m->len ? m->spans[0].len : m->len);
        return;
    }
    xdr_init_slow(x, m);
}
/* Read a plain buffer of n captured bytes. */
static inline XDR_INLINE void xdr_init_mem(struct xdr *x, const uint8_t *p, size_t n)
{
    if (n > UINT32_MAX) n = UINT32_MAX;
    if (!p) n = 0;
    x->p = p;
    x->end = p ? p + n : p;
    x->msg = NULL;
    x->span = x->span_start = x->hole_off = 0;
    x->len = (uint32_t)n;
    x->err = XDR_OK;
}

static inline bool xdr_ok(const struct xdr *x) { return x->err == XDR_OK; }
void xdr_fail(struct xdr *x, enum xdr_err e);

/* Offset of the next byte in the message; bytes left (holes included). */
uint32_t xdr_pos_spans(const struct xdr *x);
static inline XDR_INLINE uint32_t xdr_pos(const struct xdr *x)
{
    if (!x->msg) return x->len - (uint32_t)(x->end - x->p); /* a plain buffer */
    return xdr_pos_spans(x);
}
static inline XDR_INLINE uint32_t xdr_remaining(const struct xdr *x)
{
    if (x->err) return 0;
    return x->len - xdr_pos(x);
}

/* Slow path of the reads below; not for direct use. */
void xdr_read_slow(struct xdr *x, uint8_t *out, uint32_t n);

static inline XDR_INLINE uint32_t xdr_u32(struct xdr *x)
{
    if ((size_t)(x->end - x->p) >= 4) {
        const uint8_t *q = x->p;
        x->p += 4;
        return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
    }
    uint8_t b[4];
    xdr_read_slow(x, b, 4);
    if (x->err) return 0;
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}
static inline XDR_INLINE int32_t xdr_i32(struct xdr *x) { return (int32_t)xdr_u32(x); }
static inline XDR_INLINE uint64_t xdr_u64(struct xdr *x)
{
    uint64_t hi = xdr_u32(x);
    return hi << 32 | xdr_u32(x);
}
/* Byte-level reads for link/IP/transport headers (big-endian unless _le). */
uint8_t xdr_u8_slow(struct xdr *x);
uint16_t xdr_u16_slow(struct xdr *x);
static inline XDR_INLINE uint8_t xdr_u8(struct xdr *x)
{
    if (x->p != x->end) return *x->p++;
    return xdr_u8_slow(x);
}
static inline XDR_INLINE uint16_t xdr_u16(struct xdr *x)
{
    if ((size_t)(x->end - x->p) >= 2) {
        const uint8_t *q = x->p;
        x->p += 2;
        return (uint16_t)(q[0] << 8 | q[1]);
    }
    return xdr_u16_slow(x);
}
/* The next byte, the reader not moved (an IP version nibble); false when it
 * is not there. Copying the reader to peek would stall: it was just written. */
static inline XDR_INLINE bool xdr_peek_u8(const struct xdr *x, uint8_t *v)
{
    if (x->p != x->end) {
        *v = *x->p;
        return true;
    }
    struct xdr c = *x;
    *v = xdr_u8(&c);
    return xdr_ok(&c);
}
uint32_t xdr_u32_le(struct xdr *x);
/* Make sub a reader of the next n bytes of x (x does not move). Fails x with
 * XDR_ERR_SHORT if fewer than n bytes remain. */
void xdr_sub(struct xdr *x, uint32_t n, struct xdr *sub);
/* Pointer to the next n captured contiguous bytes, advancing past them, or
 * NULL (reader unchanged) when they are not contiguous and captured. */
const uint8_t *xdr_peek_contig(struct xdr *x, uint32_t n);

/* The captured bytes from the current position up to the next hole or the
 * end of the current span: *n of them (NULL and 0 when the next byte was not
 * captured). The reader does not move. */
static inline const uint8_t *xdr_captured_run(const struct xdr *x, uint32_t *n)
{
    *n = x->p && !x->err ? (uint32_t)(x->end - x->p) : 0;
    return *n ? x->p : NULL;
}

/* Slow paths of the reads below (a span boundary, a hole, an error); not
 * for direct use. The inline fast paths handle what lies inside the current
 * span and behave exactly as the slow paths would there. */
void xdr_bytes_slow(struct xdr *x, uint8_t *out, uint32_t n);
void xdr_skip_slow(struct xdr *x, uint32_t n);
uint32_t xdr_opaque_slow(struct xdr *x, uint8_t *out, uint32_t outcap, uint32_t max);
uint32_t xdr_count_slow(struct xdr *x, uint32_t min_item_bytes);

static inline uint32_t xdr_pad4(uint32_t n) { return (4 - (n & 3)) & 3; }

/* A bool is 0 or 1 on the wire; anything else is XDR_ERR_BAD. */
static inline XDR_INLINE bool xdr_bool(struct xdr *x)
{
    uint32_t v = xdr_u32(x);
    if (v > 1) xdr_fail(x, XDR_ERR_BAD);
    return v == 1;
}

/* Copy n bytes (no padding) into out. On error out is zero-filled. */
static inline XDR_INLINE void xdr_bytes(struct xdr *x, uint8_t *out, uint32_t n)
{
    if (x->p && (size_t)(x->end - x->p) >= n) {
        memcpy(out, x->p, n);
        x->p += n;
        return;
    }
    xdr_bytes_slow(x, out, n);
}
/* Skip n bytes (no padding); may cross holes. */
static inline XDR_INLINE void xdr_skip(struct xdr *x, uint32_t n)
{
    if (x->p && (size_t)(x->end - x->p) > n) { /* stay inside the span */
        x->p += n;
        return;
    }
    xdr_skip_slow(x, n);
}
/* Fixed-length opaque: n bytes then padding to 4. */
static inline XDR_INLINE void xdr_fixed(struct xdr *x, uint8_t *out, uint32_t n)
{
    xdr_bytes(x, out, n);
    xdr_skip(x, xdr_pad4(n));
}
/* Variable opaque/string: read the length, refuse (XDR_ERR_BAD) a length over
 * max or over what remains, copy min(len, outcap) bytes into out (out may be
 * NULL when outcap is 0), skip the rest and the padding. Copying bytes inside a
 * hole sets XDR_ERR_TRUNC; skipping them does not. Returns the wire length. */
static inline XDR_INLINE uint32_t xdr_opaque(struct xdr *x, uint8_t *out, uint32_t outcap, uint32_t max)
{
    size_t run = (size_t)(x->end - x->p);
    if (run >= 4) {
        const uint8_t *q = x->p;
        uint32_t len = (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
        /* all of it (and its padding) in this span: it is within what remains */
        if (len <= max && (uint64_t)len + xdr_pad4(len) <= run - 4) {
            uint32_t copy = len < outcap ? len : outcap;
            if (copy) memcpy(out, q + 4, copy);
            x->p = q + 4 + len + xdr_pad4(len);
            return len;
        }
    }
    return xdr_opaque_slow(x, out, outcap, max);
}
/* Skip a variable opaque of at most max bytes; returns its length. */
static inline XDR_INLINE uint32_t xdr_skip_opaque(struct xdr *x, uint32_t max) { return xdr_opaque(x, NULL, 0, max); }
/* Array count: refuse (XDR_ERR_BAD, returns 0) a count whose items, at least
 * min_item_bytes each, cannot fit in what remains. Use before any loop. */
static inline XDR_INLINE uint32_t xdr_count(struct xdr *x, uint32_t min_item_bytes)
{
    size_t run = (size_t)(x->end - x->p);
    if (run >= 4) {
        const uint8_t *q = x->p;
        uint32_t n = (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
        if ((uint64_t)n * (min_item_bytes ? min_item_bytes : 1) <= run - 4) { /* fits in this span */
            x->p = q + 4;
            return n;
        }
    }
    return xdr_count_slow(x, min_item_bytes);
}

#endif
