/* Test-only XDR builder for hand-made NFSv3 / MOUNT v3 messages (RFC 1813).
 * A fixed buffer; overflowing it aborts the test. */
#ifndef NFSSCOPE_XDR_BUILD3_H
#define NFSSCOPE_XDR_BUILD3_H
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define XB3_CAP 16384

struct xb3 {
    uint8_t buf[XB3_CAP];
    uint32_t len;
};

static inline void xb3_init(struct xb3 *b) { b->len = 0; }

static inline void xb3_raw(struct xb3 *b, const void *p, uint32_t n)
{
    if (n > XB3_CAP - b->len) abort();
    if (n) memcpy(b->buf + b->len, p, n);
    b->len += n;
}

static inline void xb3_u32(struct xb3 *b, uint32_t v)
{
    uint8_t w[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    xb3_raw(b, w, 4);
}

static inline void xb3_u64(struct xb3 *b, uint64_t v)
{
    xb3_u32(b, (uint32_t)(v >> 32));
    xb3_u32(b, (uint32_t)v);
}

static inline void xb3_pad(struct xb3 *b, uint32_t n)
{
    static const uint8_t z[4] = {0, 0, 0, 0};
    xb3_raw(b, z, (4 - (n & 3)) & 3);
}

/* Fixed-length opaque (with padding). */
static inline void xb3_fixed(struct xb3 *b, const void *p, uint32_t n)
{
    xb3_raw(b, p, n);
    xb3_pad(b, n);
}

/* Variable-length opaque / string. */
static inline void xb3_opaque(struct xb3 *b, const void *p, uint32_t n)
{
    xb3_u32(b, n);
    xb3_fixed(b, p, n);
}

static inline void xb3_str(struct xb3 *b, const char *s) { xb3_opaque(b, s, (uint32_t)strlen(s)); }

/* nfs_fh3 of n bytes: seed, seed+1, ... */
static inline void xb3_fh(struct xb3 *b, uint8_t seed, uint32_t n)
{
    uint8_t fh[128];
    for (uint32_t i = 0; i < n && i < sizeof fh; i++) fh[i] = (uint8_t)(seed + i);
    xb3_opaque(b, fh, n);
}

static inline void xb3_fattr3(struct xb3 *b, uint32_t type)
{
    xb3_u32(b, type);        /* ftype3 */
    xb3_u32(b, 0644);        /* mode */
    xb3_u32(b, 1);           /* nlink */
    xb3_u32(b, 1000);        /* uid */
    xb3_u32(b, 1000);        /* gid */
    xb3_u64(b, 4096);        /* size */
    xb3_u64(b, 8192);        /* used */
    xb3_u64(b, 0);           /* rdev */
    xb3_u64(b, 0x1234);      /* fsid */
    xb3_u64(b, 42);          /* fileid */
    for (int i = 0; i < 3; i++) xb3_u64(b, 0x5f000000ULL << 32 | (uint32_t)i); /* times */
}

static inline void xb3_post_op_attr(struct xb3 *b, bool present)
{
    xb3_u32(b, present);
    if (present) xb3_fattr3(b, 1);
}

static inline void xb3_wcc_data(struct xb3 *b, bool pre, bool post)
{
    xb3_u32(b, pre);
    if (pre) {
        xb3_u64(b, 4096); /* size */
        xb3_u64(b, 1);    /* mtime */
        xb3_u64(b, 2);    /* ctime */
    }
    xb3_post_op_attr(b, post);
}

/* sattr3: every field set when all is true (times to client time), none else. */
static inline void xb3_sattr3(struct xb3 *b, bool all)
{
    xb3_u32(b, all); if (all) xb3_u32(b, 0755);
    xb3_u32(b, all); if (all) xb3_u32(b, 0);
    xb3_u32(b, all); if (all) xb3_u32(b, 0);
    xb3_u32(b, all); if (all) xb3_u64(b, 0);
    xb3_u32(b, all ? 2 : 0); if (all) xb3_u64(b, 7);
    xb3_u32(b, all ? 1 : 0);
}

static inline void xb3_diropargs3(struct xb3 *b, uint8_t seed, const char *name)
{
    xb3_fh(b, seed, 32);
    xb3_str(b, name);
}

#endif
