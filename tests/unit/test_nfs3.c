/* NFSv3 (RFC 1813) and MOUNT v3 decoding from hand-built XDR: every
 * procedure's call and reply (success and failure arms) decodes to its exact
 * end; every truncation fails cleanly; holes in payload data are crossed;
 * impossible counts are refused. Inputs sit at the end of a readable page. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "mount_decode.h"
#include "nfs3_decode.h"
#include "nfsscope/names.h"
#include "xdr_build3.h"

/* ---- guarded buffers ---- */

struct guard {
    uint8_t *base;
    size_t size;
    uint8_t *p;
};

/* Copy n bytes to the very end of a readable region followed by an
 * inaccessible page, so any over-read faults at once. */
static void guard_put(struct guard *g, const uint8_t *src, size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t data_pages = (n + pg - 1) / pg;
    if (data_pages == 0) data_pages = 1;
    g->size = (data_pages + 1) * pg;
    g->base = mmap(NULL, g->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->base == MAP_FAILED) abort();
    if (mprotect(g->base + data_pages * pg, pg, PROT_NONE) != 0) abort();
    g->p = g->base + data_pages * pg - n;
    if (n) memcpy(g->p, src, n);
}

static void guard_free(struct guard *g) { munmap(g->base, g->size); }

enum kind { CALL, REPLY_OK, REPLY_ERR };

struct decoded {
    int rc;
    uint8_t err;
    uint32_t remaining;
    struct nfs3_call call;
    struct nfs3_reply reply;
};

static void decode_mem(enum kind k, uint32_t proc, const uint8_t *p, uint32_t n, struct decoded *d)
{
    struct guard g;
    guard_put(&g, p, n);
    struct xdr x;
    xdr_init_mem(&x, g.p, n);
    if (k == CALL) d->rc = nfs3_decode_call(&x, proc, &d->call);
    else d->rc = nfs3_decode_reply(&x, proc, &d->reply);
    d->err = x.err;
    d->remaining = xdr_remaining(&x);
    guard_free(&g);
}

/* ---- message builders, one per procedure ---- */

#define ST_ERR 70u /* NFS3ERR_STALE */

static void build_call(uint32_t proc, struct xb3 *b)
{
    xb3_init(b);
    switch (proc) {
    case 0: break;
    case 1: case 5: case 18: case 19: case 20: /* GETATTR READLINK FSSTAT FSINFO PATHCONF */
        xb3_fh(b, 0x10, 28);
        break;
    case 2: /* SETATTR */
        xb3_fh(b, 0x10, 28);
        xb3_sattr3(b, true);
        xb3_u32(b, 1);
        xb3_u64(b, 99); /* guard ctime */
        break;
    case 3: xb3_diropargs3(b, 0x20, "passwd"); break;
    case 4: xb3_fh(b, 0x10, 28); xb3_u32(b, 0x3f); break; /* ACCESS */
    case 6: /* READ */
        xb3_fh(b, 0x30, 36);
        xb3_u64(b, 0x100000000ULL);
        xb3_u32(b, 65536);
        break;
    case 7: { /* WRITE */
        uint8_t data[13];
        memset(data, 0xab, sizeof data);
        xb3_fh(b, 0x30, 36);
        xb3_u64(b, 8192);
        xb3_u32(b, sizeof data);
        xb3_u32(b, 1); /* DATA_SYNC */
        xb3_opaque(b, data, sizeof data);
        break;
    }
    case 8: /* CREATE, GUARDED */
        xb3_diropargs3(b, 0x20, "newfile.txt");
        xb3_u32(b, 1);
        xb3_sattr3(b, true);
        break;
    case 9: xb3_diropargs3(b, 0x20, "subdir"); xb3_sattr3(b, false); break; /* MKDIR */
    case 10: /* SYMLINK */
        xb3_diropargs3(b, 0x20, "link");
        xb3_sattr3(b, false);
        xb3_str(b, "../target/path");
        break;
    case 11: /* MKNOD, character device */
        xb3_diropargs3(b, 0x20, "ttyX");
        xb3_u32(b, 4);
        xb3_sattr3(b, true);
        xb3_u32(b, 4);
        xb3_u32(b, 64);
        break;
    case 12: xb3_diropargs3(b, 0x20, "gone"); break;   /* REMOVE */
    case 13: xb3_diropargs3(b, 0x20, "olddir"); break; /* RMDIR */
    case 14: /* RENAME */
        xb3_diropargs3(b, 0x20, "from-name");
        xb3_diropargs3(b, 0x40, "to-name");
        break;
    case 15: /* LINK */
        xb3_fh(b, 0x50, 32);
        xb3_diropargs3(b, 0x20, "hardlink");
        break;
    case 16: /* READDIR */
        xb3_fh(b, 0x10, 28);
        xb3_u64(b, 0);
        xb3_u64(b, 0);
        xb3_u32(b, 4096);
        break;
    case 17: /* READDIRPLUS */
        xb3_fh(b, 0x10, 28);
        xb3_u64(b, 0);
        xb3_u64(b, 0);
        xb3_u32(b, 4096);
        xb3_u32(b, 32768);
        break;
    case 21: /* COMMIT */
        xb3_fh(b, 0x30, 36);
        xb3_u64(b, 4096);
        xb3_u32(b, 1 << 20);
        break;
    default: abort();
    }
}

static void readdir_entries(struct xb3 *b, bool plus, unsigned n)
{
    static const char *const names[] = {".", "..", "a", "file-with-a-longer-name", "z"};
    for (unsigned i = 0; i < n; i++) {
        xb3_u32(b, 1);            /* value_follows */
        xb3_u64(b, 100 + i);      /* fileid */
        xb3_str(b, names[i % 5]); /* name */
        xb3_u64(b, i + 1);        /* cookie */
        if (plus) {
            xb3_post_op_attr(b, i % 2 == 0);
            xb3_u32(b, i % 3 != 2); /* name_handle follows */
            if (i % 3 != 2) xb3_fh(b, (uint8_t)i, 24 + 4 * (i % 3));
        }
    }
    xb3_u32(b, 0); /* no more entries */
    xb3_u32(b, 1); /* eof */
}

static void build_reply(uint32_t proc, bool ok, struct xb3 *b)
{
    xb3_init(b);
    if (proc == 0) return;
    xb3_u32(b, ok ? 0 : ST_ERR);
    switch (proc) {
    case 1: if (ok) xb3_fattr3(b, 2); break;
    case 2: case 12: case 13: xb3_wcc_data(b, ok, true); break;
    case 3: /* LOOKUP */
        if (ok) { xb3_fh(b, 0x60, 40); xb3_post_op_attr(b, true); }
        xb3_post_op_attr(b, ok);
        break;
    case 4: xb3_post_op_attr(b, true); if (ok) xb3_u32(b, 0x1f); break;
    case 5: xb3_post_op_attr(b, false); if (ok) xb3_str(b, "/some/where"); break;
    case 6: /* READ */
        xb3_post_op_attr(b, true);
        if (ok) {
            uint8_t data[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
            xb3_u32(b, sizeof data);
            xb3_u32(b, 1);
            xb3_opaque(b, data, sizeof data);
        }
        break;
    case 7: /* WRITE */
        xb3_wcc_data(b, true, true);
        if (ok) {
            xb3_u32(b, 13);
            xb3_u32(b, 2); /* FILE_SYNC */
            xb3_fixed(b, "VERIFIER", 8);
        }
        break;
    case 8: case 9: case 10: case 11: /* CREATE MKDIR SYMLINK MKNOD */
        if (ok) {
            xb3_u32(b, 1);
            xb3_fh(b, 0x70, 44);
            xb3_post_op_attr(b, true);
        }
        xb3_wcc_data(b, true, ok);
        break;
    case 14: xb3_wcc_data(b, true, true); xb3_wcc_data(b, false, ok); break; /* RENAME */
    case 15: xb3_post_op_attr(b, ok); xb3_wcc_data(b, true, true); break;    /* LINK */
    case 16: case 17:
        xb3_post_op_attr(b, true);
        if (ok) {
            xb3_fixed(b, "COOKIEVF", 8);
            readdir_entries(b, proc == 17, 5);
        }
        break;
    case 18: /* FSSTAT */
        xb3_post_op_attr(b, true);
        if (ok) {
            for (int i = 0; i < 6; i++) xb3_u64(b, 1000u * (unsigned)i);
            xb3_u32(b, 0);
        }
        break;
    case 19: /* FSINFO */
        xb3_post_op_attr(b, false);
        if (ok) {
            for (int i = 0; i < 7; i++) xb3_u32(b, 1u << 20);
            xb3_u64(b, ~0ULL);
            xb3_u32(b, 0);
            xb3_u32(b, 1);
            xb3_u32(b, 0x1b);
        }
        break;
    case 20: /* PATHCONF */
        xb3_post_op_attr(b, true);
        if (ok) {
            xb3_u32(b, 32000);
            xb3_u32(b, 255);
            xb3_u32(b, 1); xb3_u32(b, 1); xb3_u32(b, 0); xb3_u32(b, 1);
        }
        break;
    case 21: xb3_wcc_data(b, true, true); if (ok) xb3_fixed(b, "VERIFIER", 8); break;
    default: abort();
    }
}

/* ---- generic: exact end, every truncation, every two-span split ---- */

static void check_exact_and_truncations(enum kind k, uint32_t proc, const struct xb3 *b)
{
    struct decoded d;
    decode_mem(k, proc, b->buf, b->len, &d);
    if (d.rc != 0 || d.remaining != 0)
        fprintf(stderr, "  proc %u kind %d: rc %d err %u remaining %u\n", proc, k, d.rc, d.err, d.remaining);
    CHECK_EQ_U(d.rc, 0);
    CHECK_EQ_U(d.remaining, 0);
    CHECK(k == CALL ? d.call.walk_complete : d.reply.walk_complete);
    for (uint32_t n = 0; n < b->len; n++) {
        decode_mem(k, proc, b->buf, n, &d);
        if (d.rc != -2)
            fprintf(stderr, "  proc %u kind %d cut at %u of %u: rc %d\n", proc, k, n, b->len, d.rc);
        CHECK_EQ_U(d.rc, (unsigned long long)-2);
        CHECK(d.err == XDR_ERR_SHORT || d.err == XDR_ERR_BAD);
        CHECK(k == CALL ? !d.call.walk_complete : !d.reply.walk_complete);
    }
    /* the same bytes in two captured spans, cut anywhere: same result */
    for (uint32_t cut = 0; cut <= b->len; cut++) {
        struct ns_span sp[2] = {{b->buf, cut}, {b->buf + cut, b->len - cut}};
        struct ns_msg m = {sp, 2, b->len};
        struct xdr x;
        xdr_init(&x, &m);
        struct nfs3_call c;
        struct nfs3_reply r;
        int rc = k == CALL ? nfs3_decode_call(&x, proc, &c) : nfs3_decode_reply(&x, proc, &r);
        CHECK_EQ_U(rc, 0);
        CHECK_EQ_U(xdr_remaining(&x), 0);
    }
}

static void test_all_procs(void)
{
    struct xb3 b;
    for (uint32_t proc = 0; proc <= 21; proc++) {
        build_call(proc, &b);
        check_exact_and_truncations(CALL, proc, &b);
        build_reply(proc, true, &b);
        check_exact_and_truncations(REPLY_OK, proc, &b);
        build_reply(proc, false, &b);
        check_exact_and_truncations(REPLY_ERR, proc, &b);
    }
    /* unknown procedure */
    struct decoded d;
    decode_mem(CALL, 22, b.buf, b.len, &d);
    CHECK_EQ_U(d.rc, (unsigned long long)-1);
    decode_mem(REPLY_OK, 1000, b.buf, b.len, &d);
    CHECK_EQ_U(d.rc, (unsigned long long)-1);
}

/* ---- key fields ---- */

static bool fh_is(const uint8_t *fh, uint32_t len, uint8_t seed, uint32_t want_len)
{
    if (len != want_len) return false;
    for (uint32_t i = 0; i < len; i++)
        if (fh[i] != (uint8_t)(seed + i)) return false;
    return true;
}

static bool name_is(const struct nfs3_call *c, const char *s)
{
    size_t n = strlen(s);
    return c->name_len == n && c->name_wire_len == n && memcmp(c->name, s, n) == 0;
}

static void test_call_fields(void)
{
    struct xb3 b;
    struct decoded d;

    build_call(1, &b);
    decode_mem(CALL, 1, b.buf, b.len, &d);
    CHECK_EQ_U(d.call.proc, 1);
    CHECK(fh_is(d.call.fh, d.call.fh_len, 0x10, 28));
    CHECK(!d.call.io.has_io);

    static const struct { uint32_t proc; const char *name; } named[] = {
        {3, "passwd"}, {8, "newfile.txt"}, {9, "subdir"}, {10, "link"}, {11, "ttyX"},
        {12, "gone"}, {13, "olddir"}, {14, "from-name"},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        build_call(named[i].proc, &b);
        decode_mem(CALL, named[i].proc, b.buf, b.len, &d);
        CHECK(name_is(&d.call, named[i].name));
        CHECK(fh_is(d.call.fh, d.call.fh_len, 0x20, 32));
    }
    build_call(15, &b); /* LINK: the file's handle, the new link's name */
    decode_mem(CALL, 15, b.buf, b.len, &d);
    CHECK(name_is(&d.call, "hardlink"));
    CHECK(fh_is(d.call.fh, d.call.fh_len, 0x50, 32));

    build_call(6, &b);
    decode_mem(CALL, 6, b.buf, b.len, &d);
    CHECK(d.call.io.has_io);
    CHECK_EQ_U(d.call.io.op, 6);
    CHECK_EQ_U(d.call.io.offset, 0x100000000ULL);
    CHECK_EQ_U(d.call.io.count, 65536);
    CHECK(fh_is(d.call.io.fh.data, d.call.io.fh.len, 0x30, 36));

    build_call(7, &b);
    decode_mem(CALL, 7, b.buf, b.len, &d);
    CHECK(d.call.io.has_io);
    CHECK_EQ_U(d.call.io.op, 7);
    CHECK_EQ_U(d.call.io.offset, 8192);
    CHECK_EQ_U(d.call.io.count, 13);
    CHECK_EQ_U(d.call.io.stable, 1);
    CHECK(fh_is(d.call.io.fh.data, d.call.io.fh.len, 0x30, 36));

    build_call(21, &b);
    decode_mem(CALL, 21, b.buf, b.len, &d);
    CHECK(d.call.io.has_io);
    CHECK_EQ_U(d.call.io.op, 21);
    CHECK_EQ_U(d.call.io.offset, 4096);
    CHECK_EQ_U(d.call.io.count, 1 << 20);

    /* a long name: kept up to NS_NAME_MAX, wire length reported */
    char longname[200];
    memset(longname, 'n', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    xb3_init(&b);
    xb3_diropargs3(&b, 1, longname);
    decode_mem(CALL, 3, b.buf, b.len, &d);
    CHECK_EQ_U(d.rc, 0);
    CHECK_EQ_U(d.call.name_len, NS_NAME_MAX);
    CHECK_EQ_U(d.call.name_wire_len, 199);

    /* CREATE EXCLUSIVE and UNCHECKED, MKNOD of each type */
    for (uint32_t how = 0; how < 3; how++) {
        xb3_init(&b);
        xb3_diropargs3(&b, 1, "x");
        xb3_u32(&b, how);
        if (how == 2) xb3_fixed(&b, "12345678", 8);
        else xb3_sattr3(&b, how == 1);
        decode_mem(CALL, 8, b.buf, b.len, &d);
        CHECK_EQ_U(d.rc, 0);
        CHECK_EQ_U(d.remaining, 0);
    }
    for (uint32_t type = 1; type <= 7; type++) {
        xb3_init(&b);
        xb3_diropargs3(&b, 1, "dev");
        xb3_u32(&b, type);
        if (type == 3 || type == 4) { xb3_sattr3(&b, false); xb3_u64(&b, 0x800000001ULL); }
        else if (type == 6 || type == 7) xb3_sattr3(&b, true);
        decode_mem(CALL, 11, b.buf, b.len, &d);
        CHECK_EQ_U(d.rc, 0);
        CHECK_EQ_U(d.remaining, 0);
    }
}

static void test_reply_fields(void)
{
    struct xb3 b;
    struct decoded d;

    build_reply(3, true, &b);
    decode_mem(REPLY_OK, 3, b.buf, b.len, &d);
    CHECK_EQ_U(d.reply.status, 0);
    CHECK(fh_is(d.reply.obj_fh, d.reply.obj_fh_len, 0x60, 40));
    build_reply(3, false, &b);
    decode_mem(REPLY_ERR, 3, b.buf, b.len, &d);
    CHECK_EQ_U(d.reply.status, 70);
    CHECK_EQ_S(ns_nfs3_status_name(d.reply.status), "NFS3ERR_STALE");
    CHECK_EQ_U(d.reply.obj_fh_len, 0);

    build_reply(8, true, &b);
    decode_mem(REPLY_OK, 8, b.buf, b.len, &d);
    CHECK(fh_is(d.reply.obj_fh, d.reply.obj_fh_len, 0x70, 44));

    build_reply(6, true, &b);
    decode_mem(REPLY_OK, 6, b.buf, b.len, &d);
    CHECK(d.reply.io.has_io);
    CHECK_EQ_U(d.reply.io.count, 10);
    CHECK(d.reply.io.eof);
    build_reply(6, false, &b);
    decode_mem(REPLY_ERR, 6, b.buf, b.len, &d);
    CHECK(!d.reply.io.has_io);
    CHECK_EQ_U(d.reply.status, ST_ERR);

    build_reply(7, true, &b);
    decode_mem(REPLY_OK, 7, b.buf, b.len, &d);
    CHECK(d.reply.io.has_io);
    CHECK_EQ_U(d.reply.io.count, 13);
    CHECK_EQ_U(d.reply.io.committed, 2);
    CHECK(d.reply.has_verf);
    CHECK(memcmp(d.reply.verf, "VERIFIER", 8) == 0);

    build_reply(21, true, &b);
    decode_mem(REPLY_OK, 21, b.buf, b.len, &d);
    CHECK(d.reply.io.has_io);
    CHECK(d.reply.has_verf);
    CHECK(memcmp(d.reply.verf, "VERIFIER", 8) == 0);

    build_reply(16, true, &b);
    decode_mem(REPLY_OK, 16, b.buf, b.len, &d);
    CHECK_EQ_U(d.reply.dir_entries, 5);
    CHECK(d.reply.dir_eof);
}

static void test_readdirplus(void)
{
    struct xb3 b;
    struct decoded d;
    for (unsigned n = 0; n <= 40; n += 8) {
        xb3_init(&b);
        xb3_u32(&b, 0);
        xb3_post_op_attr(&b, true);
        xb3_fixed(&b, "COOKIEVF", 8);
        readdir_entries(&b, true, n);
        decode_mem(REPLY_OK, 17, b.buf, b.len, &d);
        CHECK_EQ_U(d.rc, 0);
        CHECK_EQ_U(d.remaining, 0);
        CHECK_EQ_U(d.reply.dir_entries, n);
        CHECK(d.reply.dir_eof);
    }
    /* not eof */
    xb3_init(&b);
    xb3_u32(&b, 0);
    xb3_post_op_attr(&b, false);
    xb3_fixed(&b, "COOKIEVF", 8);
    readdir_entries(&b, true, 3);
    b.buf[b.len - 1] = 0;
    decode_mem(REPLY_OK, 17, b.buf, b.len, &d);
    CHECK_EQ_U(d.rc, 0);
    CHECK_EQ_U(d.reply.dir_entries, 3);
    CHECK(!d.reply.dir_eof);
    /* an entry handle over NFS3_FHSIZE is invalid */
    xb3_init(&b);
    xb3_u32(&b, 0);
    xb3_post_op_attr(&b, false);
    xb3_fixed(&b, "COOKIEVF", 8);
    xb3_u32(&b, 1); xb3_u64(&b, 1); xb3_str(&b, "x"); xb3_u64(&b, 1);
    xb3_u32(&b, 0); xb3_u32(&b, 1); xb3_fh(&b, 0, 65);
    xb3_u32(&b, 0); xb3_u32(&b, 1);
    decode_mem(REPLY_OK, 17, b.buf, b.len, &d);
    CHECK_EQ_U(d.rc, (unsigned long long)-2);
    CHECK_EQ_U(d.err, XDR_ERR_BAD);
}

/* ---- holes: payload data not captured ---- */

static void test_write_hole(void)
{
    const uint32_t data_len = 1u << 20;
    struct xb3 h;
    xb3_init(&h);
    xb3_fh(&h, 0x30, 36);
    xb3_u64(&h, 1ULL << 33);
    xb3_u32(&h, data_len);
    xb3_u32(&h, 2); /* FILE_SYNC */
    xb3_u32(&h, data_len);
    /* a -s 256 style capture: the header and 40 payload bytes, then a hole */
    uint8_t head[XB3_CAP];
    memcpy(head, h.buf, h.len);
    memset(head + h.len, 0xee, 40);
    struct guard g;
    guard_put(&g, head, h.len + 40);
    struct ns_span sp[2] = {{g.p, h.len + 40}, {NULL, data_len - 40}};
    struct ns_msg m = {sp, 2, h.len + data_len};
    struct xdr x;
    struct nfs3_call c;
    xdr_init(&x, &m);
    CHECK_EQ_U(nfs3_decode_call(&x, 7, &c), 0);
    CHECK(c.walk_complete);
    CHECK(c.io.has_io);
    CHECK_EQ_U(c.io.count, data_len);
    CHECK_EQ_U(c.io.stable, 2);
    CHECK_EQ_U(c.io.offset, 1ULL << 33);
    CHECK(fh_is(c.io.fh.data, c.io.fh.len, 0x30, 36));
    CHECK_EQ_U(xdr_remaining(&x), 0);

    /* the hole starts inside the header (before stable): truncated, and what
     * was read stays valid */
    struct ns_span sp2[2] = {{g.p, h.len - 8}, {NULL, data_len + 8}};
    struct ns_msg m2 = {sp2, 2, h.len + data_len};
    xdr_init(&x, &m2);
    CHECK_EQ_U(nfs3_decode_call(&x, 7, &c), (unsigned long long)-2);
    CHECK_EQ_U(x.err, XDR_ERR_TRUNC);
    CHECK(!c.io.has_io);
    CHECK(fh_is(c.fh, c.fh_len, 0x30, 36));
    guard_free(&g);

    /* the reply is unaffected */
    struct xb3 b;
    build_reply(7, true, &b);
    struct decoded d;
    decode_mem(REPLY_OK, 7, b.buf, b.len, &d);
    CHECK_EQ_U(d.rc, 0);
    CHECK_EQ_U(d.reply.io.count, 13);

    /* a READ reply whose data is a hole, with its padding captured after */
    xb3_init(&h);
    xb3_u32(&h, 0);
    xb3_post_op_attr(&h, true);
    xb3_u32(&h, 5001);
    xb3_u32(&h, 0);
    xb3_u32(&h, 5001);
    guard_put(&g, h.buf, h.len);
    static const uint8_t pad[3] = {0, 0, 0};
    struct ns_span sp3[3] = {{g.p, h.len}, {NULL, 5001}, {pad, 3}};
    struct ns_msg m3 = {sp3, 3, h.len + 5001 + 3};
    struct nfs3_reply r;
    xdr_init(&x, &m3);
    CHECK_EQ_U(nfs3_decode_reply(&x, 6, &r), 0);
    CHECK_EQ_U(r.io.count, 5001);
    CHECK(!r.io.eof);
    CHECK_EQ_U(xdr_remaining(&x), 0);
    guard_free(&g);
}

/* ---- impossible values ---- */

#define expect_bad(k, proc, b) expect_bad_at(k, proc, b, __LINE__)
static void expect_bad_at(enum kind k, uint32_t proc, const struct xb3 *b, int line)
{
    struct decoded d;
    decode_mem(k, proc, b->buf, b->len, &d);
    if (d.rc != -2 || d.err != XDR_ERR_BAD)
        fprintf(stderr, "  expect_bad at line %d: rc %d err %u\n", line, d.rc, d.err);
    CHECK_EQ_U(d.rc, (unsigned long long)-2);
    CHECK_EQ_U(d.err, XDR_ERR_BAD);
}

static void test_huge_counts(void)
{
    struct xb3 b;
    /* WRITE data length far beyond the message */
    xb3_init(&b);
    xb3_fh(&b, 0, 8);
    xb3_u64(&b, 0);
    xb3_u32(&b, 0xfffffff0u);
    xb3_u32(&b, 0);
    xb3_u32(&b, 0xfffffff0u);
    expect_bad(CALL, 7, &b);
    /* file handle over 64 bytes */
    xb3_init(&b);
    xb3_fh(&b, 0, 65);
    expect_bad(CALL, 1, &b);
    /* name length 2^32-1 */
    xb3_init(&b);
    xb3_fh(&b, 0, 8);
    xb3_u32(&b, 0xffffffffu);
    expect_bad(CALL, 3, &b);
    /* a name longer than any plausible filename, though the bytes are there */
    xb3_init(&b);
    xb3_fh(&b, 0, 8);
    xb3_u32(&b, 8000);
    for (int i = 0; i < 2000; i++) xb3_u32(&b, 0x61616161);
    expect_bad(CALL, 3, &b);
    /* bad enums: stable_how, createmode3, ftype3, time_how, bool, committed */
    xb3_init(&b);
    xb3_fh(&b, 0, 8); xb3_u64(&b, 0); xb3_u32(&b, 0); xb3_u32(&b, 3); xb3_u32(&b, 0);
    expect_bad(CALL, 7, &b);
    xb3_init(&b);
    xb3_diropargs3(&b, 0, "x"); xb3_u32(&b, 3);
    expect_bad(CALL, 8, &b);
    xb3_init(&b);
    xb3_diropargs3(&b, 0, "x"); xb3_u32(&b, 0);
    expect_bad(CALL, 11, &b);
    xb3_init(&b);
    xb3_fh(&b, 0, 8); xb3_u32(&b, 0); xb3_u32(&b, 0); xb3_u32(&b, 0); xb3_u32(&b, 0);
    xb3_u32(&b, 3); xb3_u32(&b, 0); xb3_u32(&b, 0);
    expect_bad(CALL, 2, &b);
    xb3_init(&b);
    xb3_u32(&b, 0); xb3_u32(&b, 2);
    expect_bad(REPLY_OK, 4, &b);
    xb3_init(&b);
    xb3_u32(&b, 0); xb3_fattr3(&b, 9); /* GETATTR: fattr3 with ftype3 9 */
    expect_bad(REPLY_OK, 1, &b);
    xb3_init(&b);
    xb3_u32(&b, 0); xb3_wcc_data(&b, false, false);
    xb3_u32(&b, 1); xb3_u32(&b, 7); xb3_fixed(&b, "VERIFIER", 8);
    expect_bad(REPLY_OK, 7, &b);
    /* READ reply data length 2^32-1 */
    xb3_init(&b);
    xb3_u32(&b, 0); xb3_u32(&b, 0); xb3_u32(&b, 100); xb3_u32(&b, 0); xb3_u32(&b, 0xffffffffu);
    expect_bad(REPLY_OK, 6, &b);
    /* READDIR entry name length 2^32-1 */
    xb3_init(&b);
    xb3_u32(&b, 0); xb3_u32(&b, 0); xb3_fixed(&b, "COOKIEVF", 8);
    xb3_u32(&b, 1); xb3_u64(&b, 1); xb3_u32(&b, 0xffffffffu);
    expect_bad(REPLY_OK, 16, &b);
    /* READDIR: a long run of "value follows" with nothing behind it ends as
     * soon as the bytes cannot hold the entries */
    xb3_init(&b);
    xb3_u32(&b, 0); xb3_u32(&b, 0); xb3_fixed(&b, "COOKIEVF", 8);
    for (int i = 0; i < 1000; i++) xb3_u32(&b, 1);
    struct decoded d;
    decode_mem(REPLY_OK, 16, b.buf, b.len, &d);
    CHECK_EQ_U(d.rc, (unsigned long long)-2);
}

/* ---- random and mutated inputs never crash ---- */

static uint32_t rng(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void test_fuzz(void)
{
    uint32_t seed = 0x9e3779b9u;
    struct xb3 b;
    struct decoded d;
    for (uint32_t proc = 0; proc <= 21; proc++) {
        for (int kind = 0; kind < 3; kind++) {
            if (kind == CALL) build_call(proc, &b);
            else build_reply(proc, kind == REPLY_OK, &b);
            for (int it = 0; it < 300 && b.len; it++) {
                struct xb3 m = b;
                for (int k = 0; k < 3; k++) {
                    uint32_t at = rng(&seed) % m.len;
                    uint32_t r = rng(&seed);
                    m.buf[at] = (r & 1) ? (uint8_t)(r >> 8) : (r & 2) ? 0xff : 0x01;
                }
                decode_mem((enum kind)kind, proc, m.buf, m.len, &d);
                CHECK(d.rc == 0 || d.rc == -2);
                CHECK((d.rc == 0) == (d.err == XDR_OK));
            }
        }
        for (int it = 0; it < 100; it++) {
            uint8_t buf[256];
            uint32_t n = rng(&seed) % sizeof buf;
            for (uint32_t i = 0; i < n; i++) {
                uint32_t r = rng(&seed);
                buf[i] = (r & 3) ? (uint8_t)(r >> 8 & 1) : (uint8_t)(r >> 16); /* mostly 0/1 */
            }
            decode_mem(CALL, proc, buf, n, &d);
            CHECK(d.rc == 0 || d.rc == -2);
            decode_mem(REPLY_OK, proc, buf, n, &d);
            CHECK(d.rc == 0 || d.rc == -2);
        }
    }
}

/* ---- MOUNT v3 ---- */

static int mnt_decode(bool call, uint32_t proc, const struct xb3 *b, uint32_t n,
                      struct mount3_call *c, struct mount3_reply *r, uint32_t *remaining)
{
    struct guard g;
    guard_put(&g, b->buf, n);
    struct xdr x;
    xdr_init_mem(&x, g.p, n);
    int rc = call ? mount3_decode_call(&x, proc, c) : mount3_decode_reply(&x, proc, r);
    *remaining = xdr_remaining(&x);
    guard_free(&g);
    return rc;
}

static void mnt_check_truncations(bool call, uint32_t proc, const struct xb3 *b)
{
    struct mount3_call c;
    struct mount3_reply r;
    uint32_t rem;
    CHECK_EQ_U(mnt_decode(call, proc, b, b->len, &c, &r, &rem), 0);
    CHECK_EQ_U(rem, 0);
    for (uint32_t n = 0; n < b->len; n++)
        CHECK_EQ_U(mnt_decode(call, proc, b, n, &c, &r, &rem), (unsigned long long)-2);
}

static void test_mount(void)
{
    struct xb3 b;
    struct mount3_call c;
    struct mount3_reply r;
    uint32_t rem;

    xb3_init(&b);
    xb3_str(&b, "/export/home");
    CHECK_EQ_U(mnt_decode(true, MOUNTPROC3_MNT, &b, b.len, &c, &r, &rem), 0);
    CHECK_EQ_U(c.path_len, 12);
    CHECK_EQ_U(c.path_wire_len, 12);
    CHECK(memcmp(c.path, "/export/home", 12) == 0);
    mnt_check_truncations(true, MOUNTPROC3_MNT, &b);
    mnt_check_truncations(true, MOUNTPROC3_UMNT, &b);

    xb3_init(&b);
    xb3_u32(&b, 0);
    xb3_fh(&b, 0x80, 32);
    xb3_u32(&b, 2);
    xb3_u32(&b, 390003);
    xb3_u32(&b, 1);
    CHECK_EQ_U(mnt_decode(false, MOUNTPROC3_MNT, &b, b.len, &c, &r, &rem), 0);
    CHECK_EQ_U(r.status, 0);
    CHECK(fh_is(r.fh, r.fh_len, 0x80, 32));
    CHECK_EQ_U(r.nflavors_wire, 2);
    CHECK_EQ_U(r.nflavors, 2);
    CHECK_EQ_S(ns_auth_flavor_name(r.flavors[0]), "RPCSEC_GSS_KRB5");
    CHECK_EQ_S(ns_auth_flavor_name(r.flavors[1]), "AUTH_SYS");
    mnt_check_truncations(false, MOUNTPROC3_MNT, &b);

    xb3_init(&b);
    xb3_u32(&b, 13);
    CHECK_EQ_U(mnt_decode(false, MOUNTPROC3_MNT, &b, b.len, &c, &r, &rem), 0);
    CHECK_EQ_S(ns_mount3_status_name(r.status), "MNT3ERR_ACCES");
    CHECK_EQ_U(r.fh_len, 0);

    /* more flavors than kept */
    xb3_init(&b);
    xb3_u32(&b, 0);
    xb3_fh(&b, 0x80, 16);
    xb3_u32(&b, 12);
    for (uint32_t i = 0; i < 12; i++) xb3_u32(&b, i);
    CHECK_EQ_U(mnt_decode(false, MOUNTPROC3_MNT, &b, b.len, &c, &r, &rem), 0);
    CHECK_EQ_U(r.nflavors_wire, 12);
    CHECK_EQ_U(r.nflavors, MOUNT3_FLAVORS_KEEP);
    CHECK_EQ_U(rem, 0);
    /* a flavor count that cannot fit */
    xb3_init(&b);
    xb3_u32(&b, 0);
    xb3_fh(&b, 0x80, 16);
    xb3_u32(&b, 0x40000000u);
    xb3_u32(&b, 1);
    CHECK_EQ_U(mnt_decode(false, MOUNTPROC3_MNT, &b, b.len, &c, &r, &rem), (unsigned long long)-2);

    /* DUMP: two mounts */
    xb3_init(&b);
    xb3_u32(&b, 1); xb3_str(&b, "client-a"); xb3_str(&b, "/export");
    xb3_u32(&b, 1); xb3_str(&b, "client-b"); xb3_str(&b, "/export/home");
    xb3_u32(&b, 0);
    CHECK_EQ_U(mnt_decode(false, MOUNTPROC3_DUMP, &b, b.len, &c, &r, &rem), 0);
    CHECK_EQ_U(r.entries, 2);
    mnt_check_truncations(false, MOUNTPROC3_DUMP, &b);

    /* EXPORT: one export with two groups, one with none */
    xb3_init(&b);
    xb3_u32(&b, 1); xb3_str(&b, "/export");
    xb3_u32(&b, 1); xb3_str(&b, "10.0.0.0/8"); xb3_u32(&b, 1); xb3_str(&b, "*.example.com"); xb3_u32(&b, 0);
    xb3_u32(&b, 1); xb3_str(&b, "/srv"); xb3_u32(&b, 0);
    xb3_u32(&b, 0);
    CHECK_EQ_U(mnt_decode(false, MOUNTPROC3_EXPORT, &b, b.len, &c, &r, &rem), 0);
    CHECK_EQ_U(r.entries, 2);
    mnt_check_truncations(false, MOUNTPROC3_EXPORT, &b);

    /* list items that cannot fit are refused at once */
    xb3_init(&b);
    xb3_u32(&b, 1); xb3_u32(&b, 0); xb3_u32(&b, 0); xb3_u32(&b, 1);
    CHECK_EQ_U(mnt_decode(false, MOUNTPROC3_DUMP, &b, b.len, &c, &r, &rem), (unsigned long long)-2);
    xb3_init(&b);
    xb3_u32(&b, 1); xb3_u32(&b, 0); xb3_u32(&b, 1);
    CHECK_EQ_U(mnt_decode(false, MOUNTPROC3_EXPORT, &b, b.len, &c, &r, &rem), (unsigned long long)-2);
    xb3_init(&b);
    xb3_u32(&b, 1); xb3_u32(&b, 0); xb3_u32(&b, 0); xb3_u32(&b, 1);
    CHECK_EQ_U(mnt_decode(false, MOUNTPROC3_EXPORT, &b, b.len, &c, &r, &rem), (unsigned long long)-2);

    xb3_init(&b);
    CHECK_EQ_U(mnt_decode(false, MOUNTPROC3_UMNTALL, &b, 0, &c, &r, &rem), 0);
    CHECK_EQ_U(mnt_decode(true, MOUNTPROC3_NULL, &b, 0, &c, &r, &rem), 0);
    CHECK_EQ_U(mnt_decode(true, 6, &b, 0, &c, &r, &rem), (unsigned long long)-1);
    CHECK_EQ_U(mnt_decode(false, 6, &b, 0, &c, &r, &rem), (unsigned long long)-1);
}

/* ---- names ---- */

static void test_names(void)
{
    CHECK_EQ_S(ns_nfs3_status_name(70), "NFS3ERR_STALE");
    CHECK_EQ_S(ns_nfs3_status_name(0), "NFS3_OK");
    CHECK_EQ_S(ns_nfs3_status_name(13), "NFS3ERR_ACCES");
    CHECK_EQ_S(ns_nfs3_status_name(10008), "NFS3ERR_JUKEBOX");
    CHECK_EQ_S(ns_nfs3_status_name(3), "UNKNOWN(3)");
    CHECK_EQ_S(ns_nfs3_proc_name(0), "NULL");
    CHECK_EQ_S(ns_nfs3_proc_name(17), "READDIRPLUS");
    CHECK_EQ_S(ns_nfs3_proc_name(21), "COMMIT");
    CHECK_EQ_S(ns_nfs3_proc_name(22), "UNKNOWN");
    CHECK_EQ_S(ns_rpc_prog_name(100003), "NFS");
    CHECK_EQ_S(ns_rpc_prog_name(100005), "MOUNT");
    CHECK_EQ_S(ns_rpc_prog_name(100000), "PORTMAP");
    CHECK_EQ_S(ns_rpc_prog_name(100021), "NLM");
    CHECK_EQ_S(ns_rpc_prog_name(100024), "NSM");
    CHECK_EQ_S(ns_rpc_prog_name(100011), "RQUOTA");
    CHECK_EQ_S(ns_rpc_prog_name(100227), "NFS_ACL");
    CHECK_EQ_S(ns_rpc_prog_name(0x40000000), "NFS_CB");
    CHECK_EQ_S(ns_rpc_prog_name(7), "UNKNOWN");
    CHECK_EQ_S(ns_rpc_proc_name(100003, 3, 6), "READ");
    CHECK_EQ_S(ns_rpc_proc_name(100003, 2, 7), "WRITECACHE");
    CHECK_EQ_S(ns_rpc_proc_name(100003, 2, 17), "STATFS");
    CHECK_EQ_S(ns_rpc_proc_name(100003, 4, 1), "COMPOUND");
    CHECK_EQ_S(ns_rpc_proc_name(100003, 4, 2), "UNKNOWN");
    CHECK_EQ_S(ns_rpc_proc_name(100005, 3, 1), "MNT");
    CHECK_EQ_S(ns_rpc_proc_name(100005, 3, 5), "EXPORT");
    CHECK_EQ_S(ns_rpc_proc_name(100005, 3, 6), "UNKNOWN");
    CHECK_EQ_S(ns_rpc_proc_name(100005, 1, 6), "EXPORTALL");
    CHECK_EQ_S(ns_rpc_proc_name(100000, 2, 3), "GETPORT");
    CHECK_EQ_S(ns_rpc_proc_name(100000, 3, 3), "GETADDR");
    CHECK_EQ_S(ns_rpc_proc_name(100000, 4, 9), "GETVERSADDR");
    CHECK_EQ_S(ns_rpc_proc_name(100000, 4, 13), "UNKNOWN");
    CHECK_EQ_S(ns_rpc_proc_name(0x40000000, 1, 0), "CB_NULL");
    CHECK_EQ_S(ns_rpc_proc_name(0x40000001, 1, 1), "CB_COMPOUND");
    CHECK_EQ_S(ns_rpc_proc_name(100021, 4, 1), "UNKNOWN");
    CHECK_EQ_S(ns_auth_flavor_name(0), "AUTH_NONE");
    CHECK_EQ_S(ns_auth_flavor_name(1), "AUTH_SYS");
    CHECK_EQ_S(ns_auth_flavor_name(2), "AUTH_SHORT");
    CHECK_EQ_S(ns_auth_flavor_name(3), "AUTH_DH");
    CHECK_EQ_S(ns_auth_flavor_name(6), "RPCSEC_GSS");
    CHECK_EQ_S(ns_auth_flavor_name(7), "AUTH_TLS");
    CHECK_EQ_S(ns_auth_flavor_name(99), "UNKNOWN");
    CHECK_EQ_S(ns_mount3_status_name(0), "MNT3_OK");
    CHECK_EQ_S(ns_mount3_status_name(10006), "MNT3ERR_SERVERFAULT");
    CHECK_EQ_S(ns_mount3_status_name(4), "UNKNOWN(4)");
}

/* Every nfsstat3 as tshark 4.0 spells it (`tshark -G values`, nfs.status3). */
static void test_nfs3_status_table(void)
{
    static const struct { uint32_t v; const char *name; } tab[] = {
        {0, "NFS3_OK"},
        {1, "NFS3ERR_PERM"},
        {2, "NFS3ERR_NOENT"},
        {5, "NFS3ERR_IO"},
        {6, "NFS3ERR_NXIO"},
        {13, "NFS3ERR_ACCES"},
        {17, "NFS3ERR_EXIST"},
        {18, "NFS3ERR_XDEV"},
        {19, "NFS3ERR_NODEV"},
        {20, "NFS3ERR_NOTDIR"},
        {21, "NFS3ERR_ISDIR"},
        {22, "NFS3ERR_INVAL"},
        {27, "NFS3ERR_FBIG"},
        {28, "NFS3ERR_NOSPC"},
        {30, "NFS3ERR_ROFS"},
        {31, "NFS3ERR_MLINK"},
        {63, "NFS3ERR_NAMETOOLONG"},
        {66, "NFS3ERR_NOTEMPTY"},
        {69, "NFS3ERR_DQUOT"},
        {70, "NFS3ERR_STALE"},
        {71, "NFS3ERR_REMOTE"},
        {10001, "NFS3ERR_BADHANDLE"},
        {10002, "NFS3ERR_NOT_SYNC"},
        {10003, "NFS3ERR_BAD_COOKIE"},
        {10004, "NFS3ERR_NOTSUPP"},
        {10005, "NFS3ERR_TOOSMALL"},
        {10006, "NFS3ERR_SERVERFAULT"},
        {10007, "NFS3ERR_BADTYPE"},
        {10008, "NFS3ERR_JUKEBOX"},
    };
    unsigned known = 0;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        CHECK_EQ_S(ns_nfs3_status_name(tab[i].v), tab[i].name);
    for (uint32_t v = 0; v < 10100; v++) known += strncmp(ns_nfs3_status_name(v), "UNKNOWN(", 8) != 0;
    CHECK_EQ_U(known, sizeof tab / sizeof tab[0]);
    static const struct { uint32_t v; const char *name; } mnt[] = {
        {0, "MNT3_OK"}, {1, "MNT3ERR_PERM"}, {2, "MNT3ERR_NOENT"}, {5, "MNT3ERR_IO"},
        {13, "MNT3ERR_ACCES"}, {20, "MNT3ERR_NOTDIR"}, {22, "MNT3ERR_INVAL"},
        {63, "MNT3ERR_NAMETOOLONG"}, {10004, "MNT3ERR_NOTSUPP"}, {10006, "MNT3ERR_SERVERFAULT"},
    };
    for (size_t i = 0; i < sizeof mnt / sizeof mnt[0]; i++)
        CHECK_EQ_S(ns_mount3_status_name(mnt[i].v), mnt[i].name);
}

/* Procedure tables: names separated by spaces, in procedure order; the next
 * number is UNKNOWN. */
static void check_procs(uint32_t prog, uint32_t vers, const char *names)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", names);
    uint32_t proc = 0;
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "), proc++)
        CHECK_EQ_S(ns_rpc_proc_name(prog, vers, proc), tok);
    CHECK_EQ_S(ns_rpc_proc_name(prog, vers, proc), "UNKNOWN");
    CHECK_EQ_S(ns_rpc_proc_name(prog, vers, 0xffffffffu), "UNKNOWN");
}

static void test_proc_tables(void)
{
    check_procs(100003, 2, "NULL GETATTR SETATTR ROOT LOOKUP READLINK READ WRITECACHE WRITE CREATE "
                           "REMOVE RENAME LINK SYMLINK MKDIR RMDIR READDIR STATFS");
    check_procs(100003, 3, "NULL GETATTR SETATTR LOOKUP ACCESS READLINK READ WRITE CREATE MKDIR "
                           "SYMLINK MKNOD REMOVE RMDIR RENAME LINK READDIR READDIRPLUS FSSTAT "
                           "FSINFO PATHCONF COMMIT");
    check_procs(100003, 4, "NULL COMPOUND");
    check_procs(100005, 1, "NULL MNT DUMP UMNT UMNTALL EXPORT EXPORTALL");
    check_procs(100005, 2, "NULL MNT DUMP UMNT UMNTALL EXPORT EXPORTALL PATHCONF");
    check_procs(100005, 3, "NULL MNT DUMP UMNT UMNTALL EXPORT");
    check_procs(100000, 2, "NULL SET UNSET GETPORT DUMP CALLIT");
    check_procs(100000, 3, "NULL SET UNSET GETADDR DUMP CALLIT GETTIME UADDR2TADDR TADDR2UADDR");
    check_procs(100000, 4, "NULL SET UNSET GETADDR DUMP BCAST GETTIME UADDR2TADDR TADDR2UADDR "
                           "GETVERSADDR INDIRECT GETADDRLIST GETSTAT");
    check_procs(0x40000000, 1, "CB_NULL CB_COMPOUND");
    check_procs(0x5fffffff, 4, "CB_NULL CB_COMPOUND");
    for (uint32_t proc = 0; proc < 22; proc++)
        CHECK_EQ_S(ns_nfs3_proc_name(proc), ns_rpc_proc_name(100003, 3, proc));
    CHECK_EQ_S(ns_rpc_proc_name(100003, 5, 0), "UNKNOWN");
    CHECK_EQ_S(ns_rpc_proc_name(100005, 4, 0), "UNKNOWN");
    CHECK_EQ_S(ns_rpc_proc_name(100000, 1, 0), "UNKNOWN");
    CHECK_EQ_S(ns_rpc_proc_name(0x60000000, 1, 0), "UNKNOWN");
    CHECK_EQ_S(ns_rpc_prog_name(0x3fffffff), "UNKNOWN");
    CHECK_EQ_S(ns_auth_flavor_name(4), "AUTH_KERB");
    CHECK_EQ_S(ns_auth_flavor_name(5), "AUTH_RSA");
    CHECK_EQ_S(ns_auth_flavor_name(390004), "RPCSEC_GSS_KRB5I");
    CHECK_EQ_S(ns_auth_flavor_name(390005), "RPCSEC_GSS_KRB5P");
}

/* MOUNT v1/v2 (RFC 1094 appendix A): MNT answers an fhstatus, a status then
 * a fixed 32-byte fhandle (no length, no flavors); decoded as v3 it did not
 * decode (the 32-byte length word read from the handle). */
static void test_mount_v1(void)
{
    struct xb3 b;
    xb3_init(&b);
    xb3_u32(&b, 0);
    uint8_t fh[32];
    for (int i = 0; i < 32; i++) fh[i] = (uint8_t)(0xa0 + i);
    xb3_raw(&b, fh, 32);
    for (uint32_t vers = 1; vers <= 2; vers++) {
        struct mount3_reply r;
        struct xdr x;
        xdr_init_mem(&x, b.buf, b.len);
        CHECK_EQ_U(mount_decode_reply(&x, vers, MOUNTPROC3_MNT, &r), 0);
        CHECK(r.walk_complete);
        CHECK_EQ_U(r.status, 0);
        CHECK_EQ_U(r.fh_len, 32);
        CHECK(memcmp(r.fh, fh, 32) == 0);
        CHECK_EQ_U(xdr_remaining(&x), 0);
    }
    /* an error: the status alone */
    xb3_init(&b);
    xb3_u32(&b, 13);
    struct mount3_reply r;
    struct xdr x;
    xdr_init_mem(&x, b.buf, b.len);
    CHECK_EQ_U(mount_decode_reply(&x, 1, MOUNTPROC3_MNT, &r), 0);
    CHECK_EQ_U(r.status, 13);
    CHECK_EQ_U(r.fh_len, 0);
    /* v2 PATHCONF: ten words; v1 has no procedure 7 */
    xb3_init(&b);
    for (int i = 0; i < 10; i++) xb3_u32(&b, (uint32_t)i);
    xdr_init_mem(&x, b.buf, b.len);
    CHECK_EQ_U(mount_decode_reply(&x, 2, 7, &r), 0);
    CHECK_EQ_U(xdr_remaining(&x), 0);
    xdr_init_mem(&x, b.buf, b.len);
    CHECK(mount_decode_reply(&x, 1, 7, &r) < 0);
}

int main(void)
{
    test_all_procs();
    test_call_fields();
    test_reply_fields();
    test_readdirplus();
    test_write_hole();
    test_huge_counts();
    test_fuzz();
    test_mount();
    test_mount_v1();
    test_names();
    test_nfs3_status_table();
    test_proc_tables();
    return check_done("test_nfs3");
}
