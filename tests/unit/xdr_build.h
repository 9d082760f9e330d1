/* Test-only XDR builder for hand-made NFSv4 COMPOUND / CB_COMPOUND messages
 * (RFC 4506 encoding, RFC 8881 / 7862 / 8276 types). A fixed buffer;
 * overflowing it aborts the test. Plus helpers to decode a built message from
 * an exact-size heap copy (so ASan sees any over-read) or as spans with holes. */
#ifndef NFSSCOPE_XDR_BUILD_H
#define NFSSCOPE_XDR_BUILD_H
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nfsscope/msg.h"
#include "xdr.h"

#define XB_CAP 65536

struct xb {
    uint8_t buf[XB_CAP];
    uint32_t len;
};

static inline void xb_init(struct xb *b) { b->len = 0; }

static inline void xb_raw(struct xb *b, const void *p, uint32_t n)
{
    if (n > XB_CAP - b->len) abort();
    if (n) memcpy(b->buf + b->len, p, n);
    b->len += n;
}

static inline void xb_zeros(struct xb *b, uint32_t n)
{
    if (n > XB_CAP - b->len) abort();
    memset(b->buf + b->len, 0, n);
    b->len += n;
}

static inline void xb_u32(struct xb *b, uint32_t v)
{
    uint8_t w[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    xb_raw(b, w, 4);
}

static inline void xb_u64(struct xb *b, uint64_t v)
{
    xb_u32(b, (uint32_t)(v >> 32));
    xb_u32(b, (uint32_t)v);
}

static inline void xb_bool(struct xb *b, bool v) { xb_u32(b, v ? 1 : 0); }

static inline void xb_pad(struct xb *b, uint32_t n) { xb_zeros(b, (4 - (n & 3)) & 3); }

/* Fixed-length opaque (padded). */
static inline void xb_fixed(struct xb *b, const void *p, uint32_t n)
{
    xb_raw(b, p, n);
    xb_pad(b, n);
}

/* Variable-length opaque / string. */
static inline void xb_opaque(struct xb *b, const void *p, uint32_t n)
{
    xb_u32(b, n);
    xb_fixed(b, p, n);
}

static inline void xb_str(struct xb *b, const char *s) { xb_opaque(b, s, (uint32_t)strlen(s)); }

/* An opaque<> of n bytes filled with byte v. */
static inline void xb_filled(struct xb *b, uint32_t n, uint8_t v)
{
    xb_u32(b, n);
    if (n > XB_CAP - b->len) abort();
    memset(b->buf + b->len, v, n);
    b->len += n;
    xb_pad(b, n);
}

/* ---- NFSv4 types ---- */

static inline void xb_stateid(struct xb *b, uint32_t seq)
{
    xb_u32(b, seq);
    uint8_t other[12];
    for (int i = 0; i < 12; i++) other[i] = (uint8_t)(0xa0 + i);
    xb_raw(b, other, 12);
}

static inline void xb_bitmap(struct xb *b, uint32_t n, const uint32_t *w)
{
    xb_u32(b, n);
    for (uint32_t i = 0; i < n; i++) xb_u32(b, w[i]);
}

/* fattr4 with size (attr 4) and mode (attr 33): bitmap {0x10, 0x2}, 12 bytes. */
static inline void xb_fattr(struct xb *b)
{
    const uint32_t w[2] = {0x10, 0x2};
    xb_bitmap(b, 2, w);
    xb_u32(b, 12);
    xb_u64(b, 4096);
    xb_u32(b, 0644);
}

static inline void xb_change_info(struct xb *b)
{
    xb_bool(b, true);
    xb_u64(b, 100);
    xb_u64(b, 101);
}

static inline void xb_fh(struct xb *b, uint8_t len, uint8_t v) { xb_filled(b, len, v); }

static inline void xb_owner(struct xb *b, uint64_t clientid, const char *owner)
{
    xb_u64(b, clientid);
    xb_str(b, owner);
}

static inline void xb_sessionid(struct xb *b, uint8_t v)
{
    uint8_t s[16];
    for (int i = 0; i < 16; i++) s[i] = (uint8_t)(v + i);
    xb_raw(b, s, 16);
}

static inline void xb_nfstime(struct xb *b)
{
    xb_u64(b, 1700000000);
    xb_u32(b, 5);
}

static inline void xb_call_hdr(struct xb *b, const char *tag, uint32_t minor, uint32_t nops)
{
    xb_str(b, tag);
    xb_u32(b, minor);
    xb_u32(b, nops);
}

static inline void xb_cb_call_hdr(struct xb *b, const char *tag, uint32_t minor, uint32_t ident,
                                  uint32_t nops)
{
    xb_str(b, tag);
    xb_u32(b, minor);
    xb_u32(b, ident);
    xb_u32(b, nops);
}

static inline void xb_reply_hdr(struct xb *b, uint32_t status, const char *tag, uint32_t nres)
{
    xb_u32(b, status);
    xb_str(b, tag);
    xb_u32(b, nres);
}

/* SEQUENCE4args / CB_SEQUENCE4args without the referring calls. */
static inline void xb_seq_args(struct xb *b, uint8_t sid, uint32_t seq, uint32_t slot,
                               uint32_t hi, bool cache)
{
    xb_sessionid(b, sid);
    xb_u32(b, seq);
    xb_u32(b, slot);
    xb_u32(b, hi);
    xb_bool(b, cache);
}

/* ---- decoding a built message ---- */

struct xb_run {
    int rc;
    uint8_t err;
    uint32_t pos;       /* reader position after the walk */
    uint32_t remaining;
};

/* Decode the first n bytes of b from an exact-size heap copy. */
static inline struct xb_run xb_decode(const struct xb *b, uint32_t n, int (*fn)(struct xdr *, void *),
                                      void *out)
{
    uint8_t *p = malloc(n ? n : 1);
    if (!p) abort();
    memcpy(p, b->buf, n);
    struct xdr x;
    xdr_init_mem(&x, p, n);
    struct xb_run r;
    r.rc = fn(&x, out);
    r.err = x.err;
    r.pos = xdr_pos(&x);
    r.remaining = xdr_remaining(&x);
    free(p);
    return r;
}

/* Decode b with bytes [hole_off, hole_off + hole_len) not captured. */
static inline struct xb_run xb_decode_hole(const struct xb *b, uint32_t hole_off, uint32_t hole_len,
                                           int (*fn)(struct xdr *, void *), void *out)
{
    uint32_t tail = b->len - hole_off - hole_len;
    uint8_t *a = malloc(hole_off ? hole_off : 1), *c = malloc(tail ? tail : 1);
    if (!a || !c) abort();
    memcpy(a, b->buf, hole_off);
    memcpy(c, b->buf + hole_off + hole_len, tail);
    struct ns_span sp[3] = {{a, hole_off}, {NULL, hole_len}, {c, tail}};
    struct ns_msg m = {sp, 3, b->len};
    struct xdr x;
    xdr_init(&x, &m);
    struct xb_run r;
    r.rc = fn(&x, out);
    r.err = x.err;
    r.pos = xdr_pos(&x);
    r.remaining = xdr_remaining(&x);
    free(a);
    free(c);
    return r;
}

#endif
