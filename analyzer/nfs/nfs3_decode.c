/* NFSv3 (RFC 1813) call and reply decoding: every procedure is walked to its
 * end with the bounded reader; key arguments and results are kept, everything
 * else (attributes, payload data, directory entries) is skipped. */
#include "nfs3_decode.h"

#include <string.h>

enum nfs3_proc {
    NFSPROC3_NULL = 0,
    NFSPROC3_GETATTR = 1,
    NFSPROC3_SETATTR = 2,
    NFSPROC3_LOOKUP = 3,
    NFSPROC3_ACCESS = 4,
    NFSPROC3_READLINK = 5,
    NFSPROC3_READ = 6,
    NFSPROC3_WRITE = 7,
    NFSPROC3_CREATE = 8,
    NFSPROC3_MKDIR = 9,
    NFSPROC3_SYMLINK = 10,
    NFSPROC3_MKNOD = 11,
    NFSPROC3_REMOVE = 12,
    NFSPROC3_RMDIR = 13,
    NFSPROC3_RENAME = 14,
    NFSPROC3_LINK = 15,
    NFSPROC3_READDIR = 16,
    NFSPROC3_READDIRPLUS = 17,
    NFSPROC3_FSSTAT = 18,
    NFSPROC3_FSINFO = 19,
    NFSPROC3_PATHCONF = 20,
    NFSPROC3_COMMIT = 21,
};

#define NFS3_FHSIZE 64u
#define NFS3_NAME_WIRE_MAX 4096u   /* filename3 / nfspath3: longer is not plausible */
#define NFS3_DATA_MAX (64u << 20)  /* READ/WRITE payload: longer is not plausible */
#define NFS3_FATTR_SIZE 84u        /* fattr3: type, mode..gid, sizes, rdev, fsid, fileid, 3 times */
#define NFS3_WCC_ATTR_SIZE 24u     /* size3, mtime, ctime */
#define NFS3_VERF_SIZE 8u          /* cookieverf3, createverf3, writeverf3 */
#define NFS3_OK 0u

/* ftype3 */
enum { NF3REG = 1, NF3DIR, NF3BLK, NF3CHR, NF3LNK, NF3SOCK, NF3FIFO };
/* stable_how */
#define NFS3_FILE_SYNC 2u

/* ---- common types ---- */

static void read_fh(struct xdr *x, uint8_t *fh, uint8_t *fh_len)
{
    uint32_t n = xdr_opaque(x, fh, NFS3_FHSIZE, NFS3_FHSIZE);
    *fh_len = xdr_ok(x) ? (uint8_t)n : 0;
}

static void skip_fh(struct xdr *x) { xdr_skip_opaque(x, NFS3_FHSIZE); }

static void fattr3(struct xdr *x)
{
    uint32_t type = xdr_u32(x);
    if (xdr_ok(x) && (type < NF3REG || type > NF3FIFO)) {
        xdr_fail(x, XDR_ERR_BAD);
        return;
    }
    xdr_skip(x, NFS3_FATTR_SIZE - 4);
}

static void post_op_attr(struct xdr *x)
{
    if (xdr_bool(x)) fattr3(x);
}

static void pre_op_attr(struct xdr *x)
{
    if (xdr_bool(x)) xdr_skip(x, NFS3_WCC_ATTR_SIZE);
}

static void wcc_data(struct xdr *x)
{
    pre_op_attr(x);
    post_op_attr(x);
}

/* post_op_fh3: keeps the handle in fh/fh_len when present. */
static void post_op_fh3(struct xdr *x, uint8_t *fh, uint8_t *fh_len)
{
    if (xdr_bool(x)) read_fh(x, fh, fh_len);
}

/* set_atime / set_mtime: time_how DONT_CHANGE 0, SET_TO_SERVER_TIME 1, SET_TO_CLIENT_TIME 2. */
static void set_time(struct xdr *x)
{
    uint32_t how = xdr_u32(x);
    if (how == 2) xdr_skip(x, 8);
    else if (how > 2) xdr_fail(x, XDR_ERR_BAD);
}

static void sattr3(struct xdr *x)
{
    if (xdr_bool(x)) xdr_skip(x, 4); /* mode */
    if (xdr_bool(x)) xdr_skip(x, 4); /* uid */
    if (xdr_bool(x)) xdr_skip(x, 4); /* gid */
    if (xdr_bool(x)) xdr_skip(x, 8); /* size */
    set_time(x);
    set_time(x);
}

/* filename3 kept into the call's name. */
static void read_name(struct xdr *x, struct nfs3_call *out)
{
    uint32_t n = xdr_opaque(x, (uint8_t *)out->name, NS_NAME_MAX, NFS3_NAME_WIRE_MAX);
    if (!xdr_ok(x)) return;
    out->name_wire_len = n;
    out->name_len = (uint8_t)(n < NS_NAME_MAX ? n : NS_NAME_MAX);
}

/* diropargs3 recorded as the call's fh and name. */
static void diropargs3(struct xdr *x, struct nfs3_call *out)
{
    read_fh(x, out->fh, &out->fh_len);
    read_name(x, out);
}

static void skip_diropargs3(struct xdr *x)
{
    skip_fh(x);
    xdr_skip_opaque(x, NFS3_NAME_WIRE_MAX);
}

/* The io record of READ/WRITE/COMMIT, with the call's file handle. */
static void io_args(struct xdr *x, struct nfs3_call *out)
{
    out->io.op = out->proc;
    out->io.offset = xdr_u64(x);
    out->io.count = xdr_u32(x);
    if (out->proc == NFSPROC3_WRITE) {
        out->io.stable = xdr_u32(x);
        if (xdr_ok(x) && out->io.stable > NFS3_FILE_SYNC) xdr_fail(x, XDR_ERR_BAD);
    }
    if (!xdr_ok(x)) return;
    out->io.fh.len = out->fh_len;
    memcpy(out->io.fh.data, out->fh, out->fh_len);
    out->io.has_io = true;
}

/* ---- calls ---- */

static void createhow3(struct xdr *x)
{
    uint32_t mode = xdr_u32(x);
    switch (mode) {
    case 0: /* UNCHECKED */
    case 1: /* GUARDED */
        sattr3(x);
        break;
    case 2: /* EXCLUSIVE */
        xdr_skip(x, NFS3_VERF_SIZE);
        break;
    default:
        xdr_fail(x, XDR_ERR_BAD);
    }
}

static void mknoddata3(struct xdr *x)
{
    uint32_t type = xdr_u32(x);
    switch (type) {
    case NF3CHR:
    case NF3BLK:
        sattr3(x);
        xdr_skip(x, 8); /* specdata3 */
        break;
    case NF3SOCK:
    case NF3FIFO:
        sattr3(x);
        break;
    case NF3REG:
    case NF3DIR:
    case NF3LNK:
        break;
    default:
        xdr_fail(x, XDR_ERR_BAD);
    }
}

int nfs3_decode_call(struct xdr *x, uint32_t proc, struct nfs3_call *out)
{
    return nfs3_decode_call_named(x, proc, out, NULL);
}

int nfs3_decode_call_named(struct xdr *x, uint32_t proc, struct nfs3_call *out, const struct nfs_name_sink *names)
{
    memset(out, 0, sizeof *out);
    out->proc = proc;
    switch (proc) {
    case NFSPROC3_NULL:
        break;
    case NFSPROC3_GETATTR:
    case NFSPROC3_READLINK:
    case NFSPROC3_FSSTAT:
    case NFSPROC3_FSINFO:
    case NFSPROC3_PATHCONF:
        read_fh(x, out->fh, &out->fh_len);
        break;
    case NFSPROC3_SETATTR:
        read_fh(x, out->fh, &out->fh_len);
        sattr3(x);
        if (xdr_bool(x)) xdr_skip(x, 8); /* sattrguard3: obj_ctime */
        break;
    case NFSPROC3_LOOKUP:
    case NFSPROC3_REMOVE:
    case NFSPROC3_RMDIR:
        diropargs3(x, out);
        break;
    case NFSPROC3_ACCESS:
        read_fh(x, out->fh, &out->fh_len);
        xdr_skip(x, 4);
        break;
    case NFSPROC3_READ:
    case NFSPROC3_COMMIT:
        read_fh(x, out->fh, &out->fh_len);
        io_args(x, out);
        break;
    case NFSPROC3_WRITE:
        read_fh(x, out->fh, &out->fh_len);
        io_args(x, out);
        xdr_skip_opaque(x, NFS3_DATA_MAX); /* may lie in a hole */
        break;
    case NFSPROC3_CREATE:
        diropargs3(x, out);
        createhow3(x);
        break;
    case NFSPROC3_MKDIR:
        diropargs3(x, out);
        sattr3(x);
        break;
    case NFSPROC3_SYMLINK:
        diropargs3(x, out);
        sattr3(x);
        xdr_skip_opaque(x, NFS3_NAME_WIRE_MAX); /* symlink_data */
        break;
    case NFSPROC3_MKNOD:
        diropargs3(x, out);
        mknoddata3(x);
        break;
    case NFSPROC3_RENAME:
        diropargs3(x, out); /* from */
        if (names) {        /* to: told to the sink */
            uint8_t fh[NFS3_FHSIZE], fh_len = 0, name[255];
            read_fh(x, fh, &fh_len);
            uint32_t n = xdr_opaque(x, name, sizeof name, NFS3_NAME_WIRE_MAX);
            if (xdr_ok(x)) nfs_name_tell(names, NN_V3_RENAME_TO, 0, fh, fh_len, name, n < sizeof name ? n : sizeof name);
        } else {
            skip_diropargs3(x);
        }
        break;
    case NFSPROC3_LINK:
        read_fh(x, out->fh, &out->fh_len); /* file */
        skip_fh(x);                        /* link.dir */
        read_name(x, out);                 /* link.name */
        break;
    case NFSPROC3_READDIR:
        read_fh(x, out->fh, &out->fh_len);
        xdr_skip(x, 8 + NFS3_VERF_SIZE + 4); /* cookie, cookieverf, count */
        break;
    case NFSPROC3_READDIRPLUS:
        read_fh(x, out->fh, &out->fh_len);
        xdr_skip(x, 8 + NFS3_VERF_SIZE + 4 + 4); /* cookie, verf, dircount, maxcount */
        break;
    default:
        return -1;
    }
    if (!xdr_ok(x)) return -2;
    out->walk_complete = true;
    return 0;
}

/* ---- replies ---- */

/* dirlist3 / dirlistplus3 after the cookie verifier: a linked list of entries
 * (value_follows before each), then eof. The loop is bounded by the bytes that
 * remain: each entry takes at least min_entry bytes. */
static void dirlist(struct xdr *x, bool plus, struct nfs3_reply *out, const struct nfs_name_sink *names)
{
    /* follows + fileid + name length + cookie (+ two absent optionals) */
    uint32_t min_entry = plus ? 4 + 8 + 4 + 8 + 4 + 4 : 4 + 8 + 4 + 8;
    uint32_t limit = xdr_remaining(x) / min_entry;
    uint32_t n = 0;
    bool tell = plus && names; /* READDIRPLUS ties each name to its handle */
    while (xdr_bool(x)) {
        if (n >= limit) {
            xdr_fail(x, XDR_ERR_BAD);
            return;
        }
        xdr_skip(x, 8); /* fileid */
        uint8_t name[255], fh[NFS3_FHSIZE], fh_len = 0;
        uint32_t nlen = tell ? xdr_opaque(x, name, sizeof name, NFS3_NAME_WIRE_MAX)
                             : xdr_skip_opaque(x, NFS3_NAME_WIRE_MAX);
        xdr_skip(x, 8); /* cookie */
        if (plus) {
            post_op_attr(x);
            if (tell) post_op_fh3(x, fh, &fh_len);
            else if (xdr_bool(x)) skip_fh(x);
        }
        if (!xdr_ok(x)) return;
        if (fh_len) nfs_name_tell(names, NN_V3_DIRENT, n, name, nlen < sizeof name ? nlen : sizeof name, fh, fh_len);
        n++;
    }
    out->dir_entries = n;
    out->dir_eof = xdr_bool(x);
}

static void read_verf(struct xdr *x, struct nfs3_reply *out)
{
    xdr_bytes(x, out->verf, NFS3_VERF_SIZE);
    out->has_verf = xdr_ok(x);
}

int nfs3_decode_reply(struct xdr *x, uint32_t proc, struct nfs3_reply *out)
{
    return nfs3_decode_reply_named(x, proc, out, NULL);
}

int nfs3_decode_reply_named(struct xdr *x, uint32_t proc, struct nfs3_reply *out, const struct nfs_name_sink *names)
{
    memset(out, 0, sizeof *out);
    if (proc > NFSPROC3_COMMIT) return -1;
    if (proc != NFSPROC3_NULL) out->status = xdr_u32(x);
    bool ok = xdr_ok(x) && out->status == NFS3_OK;
    switch (proc) {
    case NFSPROC3_NULL:
        break;
    case NFSPROC3_GETATTR:
        if (ok) fattr3(x);
        break;
    case NFSPROC3_SETATTR:
    case NFSPROC3_REMOVE:
    case NFSPROC3_RMDIR:
        wcc_data(x);
        break;
    case NFSPROC3_LOOKUP:
        if (ok) {
            read_fh(x, out->obj_fh, &out->obj_fh_len);
            post_op_attr(x); /* obj_attributes */
        }
        post_op_attr(x); /* dir_attributes */
        break;
    case NFSPROC3_ACCESS:
        post_op_attr(x);
        if (ok) xdr_skip(x, 4);
        break;
    case NFSPROC3_READLINK:
        post_op_attr(x);
        if (ok) xdr_skip_opaque(x, NFS3_NAME_WIRE_MAX);
        break;
    case NFSPROC3_READ:
        post_op_attr(x);
        if (ok) {
            out->io.count = xdr_u32(x);
            out->io.eof = xdr_bool(x);
            out->io.has_io = xdr_ok(x);
            xdr_skip_opaque(x, NFS3_DATA_MAX); /* may lie in a hole */
        }
        break;
    case NFSPROC3_WRITE:
        wcc_data(x);
        if (ok) {
            out->io.count = xdr_u32(x);
            out->io.committed = xdr_u32(x);
            if (xdr_ok(x) && out->io.committed > NFS3_FILE_SYNC) xdr_fail(x, XDR_ERR_BAD);
            out->io.has_io = xdr_ok(x);
            read_verf(x, out);
        }
        break;
    case NFSPROC3_CREATE:
    case NFSPROC3_MKDIR:
    case NFSPROC3_SYMLINK:
    case NFSPROC3_MKNOD:
        if (ok) {
            post_op_fh3(x, out->obj_fh, &out->obj_fh_len);
            post_op_attr(x);
        }
        wcc_data(x); /* dir_wcc */
        break;
    case NFSPROC3_RENAME:
        wcc_data(x); /* fromdir_wcc */
        wcc_data(x); /* todir_wcc */
        break;
    case NFSPROC3_LINK:
        post_op_attr(x); /* file_attributes */
        wcc_data(x);     /* linkdir_wcc */
        break;
    case NFSPROC3_READDIR:
    case NFSPROC3_READDIRPLUS:
        post_op_attr(x);
        if (ok) {
            xdr_skip(x, NFS3_VERF_SIZE);
            dirlist(x, proc == NFSPROC3_READDIRPLUS, out, names);
        }
        break;
    case NFSPROC3_FSSTAT:
        post_op_attr(x);
        if (ok) xdr_skip(x, 6 * 8 + 4); /* t/f/a bytes, t/f/a files, invarsec */
        break;
    case NFSPROC3_FSINFO:
        post_op_attr(x);
        /* rtmax rtpref rtmult wtmax wtpref wtmult dtpref, maxfilesize,
         * time_delta, properties */
        if (ok) xdr_skip(x, 7 * 4 + 8 + 8 + 4);
        break;
    case NFSPROC3_PATHCONF:
        post_op_attr(x);
        if (ok) {
            xdr_skip(x, 4 + 4); /* linkmax, name_max */
            for (int i = 0; i < 4; i++) xdr_bool(x);
        }
        break;
    case NFSPROC3_COMMIT:
        wcc_data(x);
        if (ok) {
            read_verf(x, out);
            out->io.has_io = xdr_ok(x);
        }
        break;
    }
    if (!xdr_ok(x)) return -2;
    out->walk_complete = true;
    return 0;
}
