/* Data operations built from RFC 8881 s.18.22/18.32 and RFC 7862 s.15:
 * READ, WRITE, READ_PLUS (data and hole segments), the file handle current at
 * the first data operation, and the NFSv4.2 operations COPY, SEEK, ... */
#include "check.h"
#include "nfs4_build.h"
#include "nfs4_decode.h"

static int dcall(struct xdr *x, void *o) { return nfs4_decode_compound_call(x, o, NULL); }
static int dreply(struct xdr *x, void *o) { return nfs4_decode_compound_reply(x, o, NULL); }

static struct xb b;
static struct nfs4_call c;
static struct nfs4_reply p;

static bool fh_is(const struct nfs4_fh *fh, uint8_t len, uint8_t v)
{
    if (fh->len != len) return false;
    for (unsigned i = 0; i < len; i++)
        if (fh->data[i] != v) return false;
    return true;
}

static void test_read(void)
{
    xb_init(&b);
    xb_call_hdr(&b, "read", 1, 4);
    xb_op_args(&b, 53);
    xb_u32(&b, 22);
    xb_fh(&b, 40, 0xf1);
    xb_u32(&b, 25);
    xb_stateid(&b, 3);
    xb_u64(&b, 0x123456789aULL);
    xb_u32(&b, 1048576);
    xb_u32(&b, 25); /* a second READ is not the recorded one */
    xb_stateid(&b, 3);
    xb_u64(&b, 5);
    xb_u32(&b, 6);
    struct xb_run r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK(c.io.has_io);
    CHECK_EQ_U(c.io.op, 25);
    CHECK_EQ_U(c.io.offset, 0x123456789aULL);
    CHECK_EQ_U(c.io.count, 1048576);
    CHECK_EQ_U(c.io.stable, 0);
    CHECK(fh_is(&c.io.fh, 40, 0xf1));

    xb_init(&b);
    xb_reply_hdr(&b, 0, "read", 3);
    xb_op_res(&b, 53);
    xb_op_res(&b, 22);
    xb_u32(&b, 25);
    xb_u32(&b, 0);
    xb_bool(&b, true);
    xb_filled(&b, 1001, 0x42);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(p.io.has_io);
    CHECK(p.io.eof);
    CHECK_EQ_U(p.io.count, 1001);

    /* failed READ: no io results */
    xb_init(&b);
    xb_reply_hdr(&b, 10025, "", 3);
    xb_op_res(&b, 53);
    xb_op_res(&b, 22);
    xb_u32(&b, 25);
    xb_u32(&b, 10025);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK(!p.io.has_io);
    CHECK_EQ_U(p.res_status[2], 10025);
}

static void test_write(void)
{
    xb_init(&b);
    xb_call_hdr(&b, "write", 1, 4);
    xb_op_args(&b, 53);
    xb_u32(&b, 22);
    xb_fh(&b, 16, 0x0c);
    xb_u32(&b, 38);
    xb_stateid(&b, 1);
    xb_u64(&b, 8192);
    xb_u32(&b, 2); /* FILE_SYNC4 */
    xb_filled(&b, 4093, 0xaa);
    xb_op_args(&b, 9);
    struct xb_run r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(c.io.has_io);
    CHECK_EQ_U(c.io.op, 38);
    CHECK_EQ_U(c.io.offset, 8192);
    CHECK_EQ_U(c.io.count, 4093);
    CHECK_EQ_U(c.io.stable, 2);
    CHECK(fh_is(&c.io.fh, 16, 0x0c));

    xb_init(&b);
    xb_reply_hdr(&b, 0, "write", 4);
    xb_op_res(&b, 53);
    xb_op_res(&b, 22);
    xb_u32(&b, 38);
    xb_u32(&b, 0);
    xb_u32(&b, 4093);
    xb_u32(&b, 1); /* DATA_SYNC4 */
    xb_raw(&b, "WRITEVER", 8);
    xb_op_res(&b, 9);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(p.io.has_io);
    CHECK_EQ_U(p.io.count, 4093);
    CHECK_EQ_U(p.io.committed, 1);
}

/* Which file handle is current at the first data operation. */
static void test_current_fh(void)
{
    /* PUTFH A, SAVEFH, PUTFH B, RESTOREFH, WRITE: A */
    xb_init(&b);
    xb_call_hdr(&b, "", 1, 5);
    xb_u32(&b, 22);
    xb_fh(&b, 8, 0xa);
    xb_u32(&b, 32);
    xb_u32(&b, 22);
    xb_fh(&b, 12, 0xb);
    xb_u32(&b, 31);
    xb_op_args(&b, 38);
    struct xb_run r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK(fh_is(&c.io.fh, 8, 0xa));

    /* PUTFH dir, LOOKUP name, READ: the file's handle is not on the wire */
    xb_init(&b);
    xb_call_hdr(&b, "", 1, 3);
    xb_u32(&b, 22);
    xb_fh(&b, 8, 0xa);
    xb_op_args(&b, 15);
    xb_op_args(&b, 25);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK(c.io.has_io);
    CHECK_EQ_U(c.io.fh.len, 0);

    /* PUTFH, OPEN CLAIM_FH (same file), READ_PLUS: kept */
    xb_init(&b);
    xb_call_hdr(&b, "", 2, 3);
    xb_u32(&b, 22);
    xb_fh(&b, 20, 0xc);
    xb_u32(&b, 18);
    xb_u32(&b, 0);
    xb_u32(&b, 1);
    xb_u32(&b, 0);
    xb_owner(&b, 1, "o");
    xb_u32(&b, 0);
    xb_u32(&b, 4); /* CLAIM_FH */
    xb_op_args(&b, 68);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(c.io.op, 68);
    CHECK_EQ_U(c.io.count, 8192);
    CHECK(fh_is(&c.io.fh, 20, 0xc));

    /* PUTROOTFH then READ: unknown */
    xb_init(&b);
    xb_call_hdr(&b, "", 1, 3);
    xb_u32(&b, 22);
    xb_fh(&b, 20, 0xc);
    xb_op_args(&b, 24);
    xb_op_args(&b, 25);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(c.io.fh.len, 0);
}

static void test_read_plus(void)
{
    xb_init(&b);
    xb_reply_hdr(&b, 0, "rp", 3);
    xb_op_res(&b, 53);
    xb_op_res(&b, 22);
    xb_u32(&b, 68);
    xb_u32(&b, 0);
    xb_bool(&b, false);
    xb_u32(&b, 4);
    xb_u32(&b, 0); /* NFS4_CONTENT_DATA */
    xb_u64(&b, 0);
    uint32_t data_at = b.len + 4;
    xb_filled(&b, 4096, 1);
    xb_u32(&b, 1); /* NFS4_CONTENT_HOLE */
    xb_u64(&b, 4096);
    xb_u64(&b, 1 << 20);
    xb_u32(&b, 0);
    xb_u64(&b, 4096 + (1 << 20));
    xb_filled(&b, 3, 2);
    xb_u32(&b, 1);
    xb_u64(&b, 4099 + (1 << 20));
    xb_u64(&b, 5);
    struct xb_run r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(p.io.has_io);
    CHECK(!p.io.eof);
    CHECK_EQ_U(p.io.segments, 4);
    CHECK_EQ_U(p.io.data_segments, 2);
    CHECK_EQ_U(p.io.hole_segments, 2);
    CHECK_EQ_U(p.io.data_bytes, 4099);
    CHECK_EQ_U(p.io.hole_bytes, (1 << 20) + 5);
    CHECK_EQ_U(p.io.count, 4099);

    /* the 4096 data bytes not captured: still walked */
    r = xb_decode_hole(&b, data_at, 4096, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.err, XDR_OK);
    CHECK_EQ_U(p.io.data_bytes, 4099);

    /* empty contents, eof */
    xb_init(&b);
    xb_reply_hdr(&b, 0, "", 1);
    xb_u32(&b, 68);
    xb_u32(&b, 0);
    xb_bool(&b, true);
    xb_u32(&b, 0);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK(p.io.has_io);
    CHECK(p.io.eof);
    CHECK_EQ_U(p.io.segments, 0);
}

/* The RFC 7862 operations other than READ_PLUS, one compound each way. */
static void test_v42_ops(void)
{
    uint32_t ops[] = {53, 22, 32, 22, 60, 61, 59, 62, 63, 69, 70, 71, 66, 67};
    uint32_t n = sizeof ops / sizeof ops[0];
    xb_init(&b);
    xb_call_hdr(&b, "", 2, n);
    for (uint32_t i = 0; i < n; i++) xb_op_args(&b, ops[i]);
    struct xb_run r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK_EQ_U(c.nops, n);
    CHECK(!c.io.has_io);
    xb_init(&b);
    xb_reply_hdr(&b, 0, "", n);
    for (uint32_t i = 0; i < n; i++) xb_op_res(&b, ops[i]);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);

    /* COPY failing with NFS4ERR_OFFLOAD_NO_REQS carries copy_requirements4 */
    xb_init(&b);
    xb_reply_hdr(&b, 10094, "", 2);
    xb_op_res(&b, 53);
    xb_u32(&b, 60);
    xb_u32(&b, 10094);
    xb_bool(&b, true);
    xb_bool(&b, false);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK_EQ_U(p.res_status[1], 10094);

    /* COPY with a bad netloc4 type */
    xb_init(&b);
    xb_call_hdr(&b, "", 2, 1);
    xb_u32(&b, 60);
    xb_stateid(&b, 1);
    xb_stateid(&b, 2);
    xb_zeros(&b, 24);
    xb_bool(&b, false);
    xb_bool(&b, true);
    xb_u32(&b, 1);
    xb_u32(&b, 9);
    xb_str(&b, "x");
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);

    /* write_response4 with two callback ids (at most one) */
    xb_init(&b);
    xb_reply_hdr(&b, 0, "", 1);
    xb_u32(&b, 70);
    xb_u32(&b, 0);
    xb_u32(&b, 2);
    xb_stateid(&b, 1);
    xb_stateid(&b, 2);
    xb_u64(&b, 1);
    xb_u32(&b, 0);
    xb_zeros(&b, 8);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
}

int main(void)
{
    test_read();
    test_write();
    test_current_fh();
    test_read_plus();
    test_v42_ops();
    return check_done("test_nfs4_io");
}
