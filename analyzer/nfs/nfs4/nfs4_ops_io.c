/* NFSv4 data operations: READ, WRITE (RFC 8881 s.18.22, s.18.32) and the
 * NFSv4.2 data operations of RFC 7862 (READ_PLUS, SEEK, ALLOCATE, DEALLOCATE,
 * COPY, COPY_NOTIFY, OFFLOAD_*, WRITE_SAME, CLONE, IO_ADVISE). Payload bytes
 * are skipped, never copied, so they may lie in uncaptured holes. */
#include <string.h>

#include "nfs4_xdr_common.h"

enum { NFS4_CONTENT_DATA = 0, NFS4_CONTENT_HOLE = 1 };

/* The first READ / READ_PLUS / WRITE of a COMPOUND fills out->io. */
static void note_io(struct nfs4_cctx *c, uint32_t op, uint64_t off, uint32_t count, uint32_t stable)
{
    struct nfs_io_args *io = &c->out->io;
    if (io->has_io) return;
    io->has_io = true;
    io->op = op;
    io->offset = off;
    io->count = count;
    io->stable = stable;
    io->fh.len = c->cur.len; /* only the bytes kept: the rest of cur is not set */
    memcpy(io->fh.data, c->cur.data, c->cur.len);
}

static void read_args(struct xdr *x, uint32_t op, struct nfs4_cctx *c)
{
    nfs4x_call_stateid(x, c, op, false);
    uint64_t off = xdr_u64(x);
    uint32_t count = xdr_u32(x);
    if (xdr_ok(x)) note_io(c, op, off, count, 0);
}

static void write_args(struct xdr *x, struct nfs4_cctx *c)
{
    nfs4x_call_stateid(x, c, NFS4_OP_WRITE, false);
    uint64_t off = xdr_u64(x);
    uint32_t stable = xdr_u32(x);
    uint32_t len = xdr_skip_opaque(x, NFS4_NOLIMIT); /* data: may be a hole */
    if (xdr_ok(x)) note_io(c, NFS4_OP_WRITE, off, len, stable);
}

static void copy_args(struct xdr *x)
{
    nfs4x_stateid(x); /* src */
    nfs4x_stateid(x); /* dst */
    xdr_skip(x, 24);  /* src_offset, dst_offset, count */
    xdr_bool(x);      /* consecutive */
    xdr_bool(x);      /* synchronous */
    uint32_t n = xdr_count(x, 8); /* ca_source_server<> */
    for (uint32_t i = 0; i < n && xdr_ok(x); i++) nfs4x_netloc(x);
}

/* WRITE_SAME4args (RFC 7862 s.15.12.1). */
static void write_same_args(struct xdr *x)
{
    nfs4x_stateid(x);
    xdr_u32(x); /* stable */
    /* app_data_block4: offset, block_size, block_count, reloff_blocknum,
     * block_num (u32), reloff_pattern, pattern<> */
    xdr_skip(x, 8 * 4 + 4 + 8);
    xdr_skip_opaque(x, NFS4_NOLIMIT);
}

bool nfs4_args_io(struct xdr *x, uint32_t op, struct nfs4_cctx *c)
{
    switch (op) {
    case NFS4_OP_READ:
    case NFS4_OP_READ_PLUS:
        read_args(x, op, c);
        break;
    case NFS4_OP_WRITE:
        write_args(x, c);
        break;
    case NFS4_OP_ALLOCATE:
    case NFS4_OP_DEALLOCATE:
        nfs4x_stateid(x);
        xdr_skip(x, 16); /* offset, length */
        break;
    case NFS4_OP_COPY:
        copy_args(x);
        break;
    case NFS4_OP_COPY_NOTIFY:
        nfs4x_stateid(x);
        nfs4x_netloc(x);
        break;
    case NFS4_OP_IO_ADVISE:
        nfs4x_stateid(x);
        xdr_skip(x, 16); /* offset, count */
        nfs4x_bitmap(x, NULL, 0);
        break;
    case NFS4_OP_OFFLOAD_CANCEL:
    case NFS4_OP_OFFLOAD_STATUS:
        nfs4x_stateid(x);
        break;
    case NFS4_OP_SEEK:
        nfs4x_stateid(x);
        xdr_skip(x, 12); /* offset, what */
        break;
    case NFS4_OP_WRITE_SAME:
        write_same_args(x);
        break;
    case NFS4_OP_CLONE:
        nfs4x_stateid(x);
        nfs4x_stateid(x);
        xdr_skip(x, 24); /* src_offset, dst_offset, count */
        break;
    default:
        return false;
    }
    return true;
}

static void read_res(struct xdr *x, struct nfs4_rctx *r)
{
    bool eof = xdr_bool(x);
    uint32_t len = xdr_skip_opaque(x, NFS4_NOLIMIT);
    struct nfs_io_res *io = &r->out->io;
    if (io->has_io || !xdr_ok(x)) return;
    io->has_io = true;
    io->eof = eof;
    io->count = len;
}

static void write_res(struct xdr *x, struct nfs4_rctx *r)
{
    uint32_t count = xdr_u32(x);
    uint32_t committed = xdr_u32(x);
    xdr_skip(x, NFS4_VERIFIER_LEN);
    struct nfs_io_res *io = &r->out->io;
    if (io->has_io || !xdr_ok(x)) return;
    io->has_io = true;
    io->count = count;
    io->committed = committed;
}

/* read_plus_res4 (RFC 7862 s.15.10.2): eof, read_plus_content<>. */
static void read_plus_res(struct xdr *x, struct nfs4_rctx *r)
{
    struct nfs_io_res v = {0};
    v.eof = xdr_bool(x);
    uint32_t n = xdr_count(x, 4);
    for (uint32_t i = 0; i < n && xdr_ok(x); i++) {
        switch (xdr_u32(x)) {
        case NFS4_CONTENT_DATA:
            xdr_skip(x, 8); /* d_offset */
            v.data_bytes += xdr_skip_opaque(x, NFS4_NOLIMIT);
            v.data_segments++;
            break;
        case NFS4_CONTENT_HOLE:
            xdr_skip(x, 8); /* di_offset */
            v.hole_bytes += xdr_u64(x);
            v.hole_segments++;
            break;
        default: /* void arm */
            break;
        }
        v.segments++;
    }
    struct nfs_io_res *io = &r->out->io;
    if (io->has_io || !xdr_ok(x)) return;
    v.has_io = true;
    v.count = v.data_bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)v.data_bytes;
    *io = v;
}

static void copy_res(struct xdr *x, uint32_t status)
{
    if (status == NFS4_OK) nfs4x_write_response(x);
    if (status == NFS4_OK || status == NFS4ERR_OFFLOAD_NO_REQS) {
        xdr_bool(x); /* cr_consecutive */
        xdr_bool(x); /* cr_synchronous */
    }
}

static void copy_notify_res(struct xdr *x)
{
    nfs4x_nfstime(x); /* lease_time */
    nfs4x_stateid(x);
    uint32_t n = xdr_count(x, 8); /* cnr_source_server<> */
    for (uint32_t i = 0; i < n && xdr_ok(x); i++) nfs4x_netloc(x);
}

static void offload_status_res(struct xdr *x)
{
    xdr_skip(x, 8); /* osr_count */
    uint32_t n = xdr_count(x, 4); /* osr_complete<1> */
    if (n > 1) xdr_fail(x, XDR_ERR_BAD);
    xdr_skip(x, n * 4);
}

bool nfs4_res_io(struct xdr *x, uint32_t op, uint32_t status, struct nfs4_rctx *r)
{
    bool ok = status == NFS4_OK;
    switch (op) {
    case NFS4_OP_READ:
        if (ok) read_res(x, r);
        break;
    case NFS4_OP_WRITE:
        if (ok) write_res(x, r);
        break;
    case NFS4_OP_READ_PLUS:
        if (ok) read_plus_res(x, r);
        break;
    case NFS4_OP_ALLOCATE:
    case NFS4_OP_DEALLOCATE:
    case NFS4_OP_OFFLOAD_CANCEL:
    case NFS4_OP_CLONE:
        break;
    case NFS4_OP_COPY:
        copy_res(x, status);
        break;
    case NFS4_OP_COPY_NOTIFY:
        if (ok) copy_notify_res(x);
        break;
    case NFS4_OP_IO_ADVISE:
        if (ok) nfs4x_bitmap(x, NULL, 0);
        break;
    case NFS4_OP_OFFLOAD_STATUS:
        if (ok) offload_status_res(x);
        break;
    case NFS4_OP_SEEK:
        if (ok) {
            xdr_bool(x);    /* sr_eof */
            xdr_skip(x, 8); /* sr_offset */
        }
        break;
    case NFS4_OP_WRITE_SAME:
        if (ok) nfs4x_write_response(x);
        break;
    default:
        return false;
    }
    return true;
}
