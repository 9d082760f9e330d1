/* NFSv4 file and namespace operations: filehandles, attributes, lookups,
 * OPEN/CLOSE, directory and link operations, SECINFO, and the extended
 * attribute operations of RFC 8276. Arguments and results per RFC 8881 s.18. */
#include "nfs4_xdr_common.h"

enum { NF4BLK = 3, NF4CHR = 4, NF4LNK = 5 };
enum { OPEN4_CREATE = 1 };
enum { UNCHECKED4 = 0, GUARDED4 = 1, EXCLUSIVE4 = 2, EXCLUSIVE4_1 = 3 };
enum {
    CLAIM_NULL = 0, CLAIM_PREVIOUS = 1, CLAIM_DELEGATE_CUR = 2, CLAIM_DELEGATE_PREV = 3,
    CLAIM_FH = 4, CLAIM_DELEG_CUR_FH = 5, CLAIM_DELEG_PREV_FH = 6,
};
enum { RPCSEC_GSS_FLAVOR = 6 };

static void fh_clear(struct nfs4_fh *fh) { fh->len = 0; }

/* OPEN4args (s.18.16.1). Claims that name a file make a new current FH. */
static void open_args(struct xdr *x, struct nfs4_cctx *c)
{
    xdr_skip(x, 12); /* seqid, share_access, share_deny */
    nfs4x_state_owner(x);
    if (xdr_u32(x) == OPEN4_CREATE) { /* openflag4 */
        switch (xdr_u32(x)) {        /* createhow4 */
        case UNCHECKED4:
        case GUARDED4:
            nfs4x_fattr(x);
            break;
        case EXCLUSIVE4:
            xdr_skip(x, NFS4_VERIFIER_LEN);
            break;
        case EXCLUSIVE4_1:
            xdr_skip(x, NFS4_VERIFIER_LEN);
            nfs4x_fattr(x);
            break;
        default:
            xdr_fail(x, XDR_ERR_BAD);
        }
    }
    switch (xdr_u32(x)) { /* open_claim4 */
    case CLAIM_NULL:
    case CLAIM_DELEGATE_PREV:
        nfs4x_name_step(x, c->names, NN_OPEN_NAME, c->index);
        fh_clear(&c->cur);
        break;
    case CLAIM_PREVIOUS:
        xdr_u32(x); /* delegate_type */
        break;
    case CLAIM_DELEGATE_CUR:
        nfs4x_stateid(x);
        nfs4x_name_step(x, c->names, NN_OPEN_NAME, c->index);
        fh_clear(&c->cur);
        break;
    case CLAIM_FH:
    case CLAIM_DELEG_PREV_FH:
        break;
    case CLAIM_DELEG_CUR_FH:
        nfs4x_stateid(x);
        break;
    default:
        xdr_fail(x, XDR_ERR_BAD);
    }
}

static void create_args(struct xdr *x, struct nfs4_cctx *c)
{
    switch (xdr_u32(x)) { /* createtype4 */
    case NF4LNK:
        nfs4x_utf8(x); /* linkdata */
        break;
    case NF4BLK:
    case NF4CHR:
        xdr_skip(x, 8); /* specdata4 */
        break;
    default:
        break;
    }
    nfs4x_name_step(x, c->names, NN_CREATE, c->index); /* objname */
    nfs4x_fattr(x); /* createattrs */
    fh_clear(&c->cur);
}

/* RENAME: old name in the saved handle, new name in the current one. */
static void rename_args(struct xdr *x, struct nfs4_cctx *c)
{
    if (!c->names) {
        nfs4x_utf8(x);
        nfs4x_utf8(x);
        return;
    }
    uint8_t from[255], to[255];
    uint32_t nf = xdr_opaque(x, from, sizeof from, NFS4_NOLIMIT);
    uint32_t nt = xdr_opaque(x, to, sizeof to, NFS4_NOLIMIT);
    if (xdr_ok(x))
        nfs_name_tell(c->names, NN_RENAME, c->index, from, nf < sizeof from ? nf : sizeof from, to,
                      nt < sizeof to ? nt : sizeof to);
}

bool nfs4_args_fs(struct xdr *x, uint32_t op, struct nfs4_cctx *c)
{
    switch (op) {
    case NFS4_OP_ACCESS:
        xdr_u32(x);
        break;
    case NFS4_OP_CLOSE:
        xdr_u32(x); /* seqid */
        nfs4x_stateid(x);
        break;
    case NFS4_OP_COMMIT:
        xdr_skip(x, 12); /* offset, count */
        break;
    case NFS4_OP_CREATE:
        create_args(x, c);
        break;
    case NFS4_OP_GETATTR:
        nfs4x_bitmap(x, NULL, 0);
        break;
    case NFS4_OP_GETFH:
        if (c->names) nfs_name_tell(c->names, NN_GETFH, c->index, NULL, 0, NULL, 0);
        break;
    case NFS4_OP_READLINK:
        break;
    case NFS4_OP_LINK:
        nfs4x_utf8(x);
        break;
    case NFS4_OP_REMOVE:
        nfs4x_name_step(x, c->names, NN_REMOVE, c->index);
        break;
    case NFS4_OP_LOOKUP:
        nfs4x_name_step(x, c->names, NN_LOOKUP, c->index);
        fh_clear(&c->cur);
        break;
    case NFS4_OP_LOOKUPP:
    case NFS4_OP_PUTPUBFH:
    case NFS4_OP_PUTROOTFH:
        if (c->names)
            nfs_name_tell(c->names, op == NFS4_OP_LOOKUPP ? NN_LOOKUPP : op == NFS4_OP_PUTPUBFH ? NN_PUTPUBFH : NN_PUTROOTFH,
                          c->index, NULL, 0, NULL, 0);
        fh_clear(&c->cur);
        break;
    case NFS4_OP_NVERIFY:
    case NFS4_OP_VERIFY:
        nfs4x_fattr(x);
        break;
    case NFS4_OP_OPEN:
        open_args(x, c);
        break;
    case NFS4_OP_OPENATTR:
        xdr_bool(x);
        if (c->names) nfs_name_tell(c->names, NN_OTHER_FH, c->index, NULL, 0, NULL, 0);
        fh_clear(&c->cur);
        break;
    case NFS4_OP_OPEN_CONFIRM:
        nfs4x_stateid(x);
        xdr_u32(x);
        break;
    case NFS4_OP_OPEN_DOWNGRADE:
        nfs4x_stateid(x);
        xdr_skip(x, 12); /* seqid, share_access, share_deny */
        break;
    case NFS4_OP_PUTFH:
        nfs4x_fh(x, &c->cur);
        if (c->names && c->cur.len) nfs_name_tell(c->names, NN_PUTFH, c->index, c->cur.data, c->cur.len, NULL, 0);
        break;
    case NFS4_OP_READDIR:
        xdr_skip(x, 8 + NFS4_VERIFIER_LEN + 8); /* cookie, cookieverf, dircount, maxcount */
        nfs4x_bitmap(x, NULL, 0);
        break;
    case NFS4_OP_RENAME:
        rename_args(x, c);
        break;
    case NFS4_OP_RESTOREFH:
        c->cur = c->saved;
        if (c->names) nfs_name_tell(c->names, NN_RESTOREFH, c->index, NULL, 0, NULL, 0);
        break;
    case NFS4_OP_SAVEFH:
        c->saved = c->cur;
        if (c->names) nfs_name_tell(c->names, NN_SAVEFH, c->index, NULL, 0, NULL, 0);
        break;
    case NFS4_OP_SECINFO: /* consumes the current FH (s.18.29.3) */
        nfs4x_utf8(x);
        if (c->names) nfs_name_tell(c->names, NN_OTHER_FH, c->index, NULL, 0, NULL, 0);
        fh_clear(&c->cur);
        break;
    case NFS4_OP_SECINFO_NO_NAME:
        xdr_u32(x); /* secinfo_style4 */
        if (c->names) nfs_name_tell(c->names, NN_OTHER_FH, c->index, NULL, 0, NULL, 0);
        fh_clear(&c->cur);
        break;
    case NFS4_OP_SETATTR:
        nfs4x_call_stateid(x, c, op, false);
        nfs4x_fattr(x);
        break;
    case NFS4_OP_GETXATTR:
    case NFS4_OP_REMOVEXATTR:
        nfs4x_utf8(x); /* xattrkey4 */
        break;
    case NFS4_OP_SETXATTR:
        xdr_u32(x);    /* setxattr_option4 */
        nfs4x_utf8(x); /* key */
        xdr_skip_opaque(x, NFS4_NOLIMIT); /* value */
        break;
    case NFS4_OP_LISTXATTRS:
        xdr_skip(x, 12); /* cookie, maxcount */
        break;
    default:
        return false;
    }
    return true;
}

/* READDIR4resok (s.18.23.2): cookieverf, then a linked list of entry4.
 * With a sink, each entry whose attributes carry its handle is told. */
static void readdir_res(struct xdr *x, const struct nfs4_rctx *r)
{
    xdr_skip(x, NFS4_VERIFIER_LEN);
    /* Each entry takes at least 20 bytes, so the loop ends with the bytes. */
    while (xdr_ok(x) && xdr_bool(x)) {
        xdr_skip(x, 8);  /* cookie */
        if (!r->names) {
            nfs4x_utf8(x);   /* name */
            nfs4x_fattr(x);  /* attrs */
            continue;
        }
        uint8_t name[255];
        struct nfs4_fh fh;
        uint32_t n = xdr_opaque(x, name, sizeof name, NFS4_NOLIMIT);
        nfs4x_fattr_fh(x, &fh);
        if (xdr_ok(x) && fh.len)
            nfs_name_tell(r->names, NN_DIRENT, r->index, name, n < sizeof name ? n : sizeof name, fh.data, fh.len);
    }
    xdr_bool(x); /* eof */
}

/* SECINFO4resok: secinfo4<>. */
static void secinfo_res(struct xdr *x)
{
    uint32_t n = xdr_count(x, 4);
    for (uint32_t i = 0; i < n && xdr_ok(x); i++) {
        if (xdr_u32(x) == RPCSEC_GSS_FLAVOR) {
            xdr_skip_opaque(x, NFS4_NOLIMIT); /* oid */
            xdr_skip(x, 8);                   /* qop, service */
        }
    }
}

static void open_res(struct xdr *x, struct nfs4_rctx *r)
{
    nfs4x_stateid(x);
    nfs4x_change_info(x);
    xdr_u32(x); /* rflags */
    nfs4x_bitmap(x, NULL, 0); /* attrset */
    nfs4x_reply_delegation(x, r);
}

static void listxattrs_res(struct xdr *x)
{
    xdr_skip(x, 8); /* cookie */
    uint32_t n = xdr_count(x, 4);
    for (uint32_t i = 0; i < n && xdr_ok(x); i++) nfs4x_utf8(x);
    xdr_bool(x); /* eof */
}

bool nfs4_res_fs(struct xdr *x, uint32_t op, uint32_t status, struct nfs4_rctx *r)
{
    bool ok = status == NFS4_OK;
    switch (op) {
    case NFS4_OP_ACCESS:
        if (ok) xdr_skip(x, 8); /* supported, access */
        break;
    case NFS4_OP_CLOSE:
    case NFS4_OP_OPEN_CONFIRM:
    case NFS4_OP_OPEN_DOWNGRADE:
        if (ok) nfs4x_stateid(x);
        break;
    case NFS4_OP_COMMIT:
        if (ok) xdr_skip(x, NFS4_VERIFIER_LEN);
        break;
    case NFS4_OP_CREATE:
        if (ok) {
            nfs4x_change_info(x);
            nfs4x_bitmap(x, NULL, 0);
        }
        break;
    case NFS4_OP_GETATTR:
        if (ok) nfs4x_fattr_lease(x, r->st);
        break;
    case NFS4_OP_GETFH:
        if (ok && r->names) {
            struct nfs4_fh fh;
            nfs4x_fh(x, &fh);
            if (fh.len) nfs_name_tell(r->names, NN_FH, r->index, fh.data, fh.len, NULL, 0);
        } else if (ok) {
            nfs4x_fh(x, NULL);
        }
        break;
    case NFS4_OP_LINK:
    case NFS4_OP_REMOVE:
    case NFS4_OP_SETXATTR:
    case NFS4_OP_REMOVEXATTR:
        if (ok) nfs4x_change_info(x);
        break;
    case NFS4_OP_RENAME:
        if (ok) {
            nfs4x_change_info(x);
            nfs4x_change_info(x);
        }
        break;
    case NFS4_OP_LOOKUP:
    case NFS4_OP_LOOKUPP:
    case NFS4_OP_NVERIFY:
    case NFS4_OP_VERIFY:
    case NFS4_OP_OPENATTR:
    case NFS4_OP_PUTFH:
    case NFS4_OP_PUTPUBFH:
    case NFS4_OP_PUTROOTFH:
    case NFS4_OP_RESTOREFH:
    case NFS4_OP_SAVEFH:
        break;
    case NFS4_OP_OPEN:
        if (ok) open_res(x, r);
        break;
    case NFS4_OP_READDIR:
        if (ok) readdir_res(x, r);
        break;
    case NFS4_OP_READLINK:
        if (ok) nfs4x_utf8(x);
        break;
    case NFS4_OP_SECINFO:
    case NFS4_OP_SECINFO_NO_NAME:
        if (ok) secinfo_res(x);
        break;
    case NFS4_OP_SETATTR: /* a struct, not a union: attrsset always follows */
        nfs4x_bitmap(x, NULL, 0);
        break;
    case NFS4_OP_GETXATTR:
        if (ok) xdr_skip_opaque(x, NFS4_NOLIMIT);
        break;
    case NFS4_OP_LISTXATTRS:
        if (ok) listxattrs_res(x);
        break;
    default:
        return false;
    }
    return true;
}
