/* Internal to the NFSv4 decoder: opcode and status numbers, the walk context
 * handed to each operation decoder, and XDR pieces shared by several
 * operations (RFC 8881 s.3 data types, RFC 7862 s.4). Every helper reads with
 * the bounded reader only; errors stick in x and the caller checks once. */
#ifndef NFSSCOPE_NFS4_XDR_COMMON_H
#define NFSSCOPE_NFS4_XDR_COMMON_H
#include <stdbool.h>
#include <stdint.h>

#include "nfs_names.h"
#include "nfsscope/nfs_types.h"
#include "xdr.h"

enum nfs4_opnum {
    NFS4_OP_ACCESS = 3, NFS4_OP_CLOSE = 4, NFS4_OP_COMMIT = 5, NFS4_OP_CREATE = 6,
    NFS4_OP_DELEGPURGE = 7, NFS4_OP_DELEGRETURN = 8, NFS4_OP_GETATTR = 9,
    NFS4_OP_GETFH = 10, NFS4_OP_LINK = 11, NFS4_OP_LOCK = 12, NFS4_OP_LOCKT = 13,
    NFS4_OP_LOCKU = 14, NFS4_OP_LOOKUP = 15, NFS4_OP_LOOKUPP = 16,
    NFS4_OP_NVERIFY = 17, NFS4_OP_OPEN = 18, NFS4_OP_OPENATTR = 19,
    NFS4_OP_OPEN_CONFIRM = 20, NFS4_OP_OPEN_DOWNGRADE = 21, NFS4_OP_PUTFH = 22,
    NFS4_OP_PUTPUBFH = 23, NFS4_OP_PUTROOTFH = 24, NFS4_OP_READ = 25,
    NFS4_OP_READDIR = 26, NFS4_OP_READLINK = 27, NFS4_OP_REMOVE = 28,
    NFS4_OP_RENAME = 29, NFS4_OP_RENEW = 30, NFS4_OP_RESTOREFH = 31,
    NFS4_OP_SAVEFH = 32, NFS4_OP_SECINFO = 33, NFS4_OP_SETATTR = 34,
    NFS4_OP_SETCLIENTID = 35, NFS4_OP_SETCLIENTID_CONFIRM = 36, NFS4_OP_VERIFY = 37,
    NFS4_OP_WRITE = 38, NFS4_OP_RELEASE_LOCKOWNER = 39,
    NFS4_OP_BACKCHANNEL_CTL = 40, NFS4_OP_BIND_CONN_TO_SESSION = 41,
    NFS4_OP_EXCHANGE_ID = 42, NFS4_OP_CREATE_SESSION = 43,
    NFS4_OP_DESTROY_SESSION = 44, NFS4_OP_FREE_STATEID = 45,
    NFS4_OP_GET_DIR_DELEGATION = 46, NFS4_OP_GETDEVICEINFO = 47,
    NFS4_OP_GETDEVICELIST = 48, NFS4_OP_LAYOUTCOMMIT = 49, NFS4_OP_LAYOUTGET = 50,
    NFS4_OP_LAYOUTRETURN = 51, NFS4_OP_SECINFO_NO_NAME = 52, NFS4_OP_SEQUENCE = 53,
    NFS4_OP_SET_SSV = 54, NFS4_OP_TEST_STATEID = 55, NFS4_OP_WANT_DELEGATION = 56,
    NFS4_OP_DESTROY_CLIENTID = 57, NFS4_OP_RECLAIM_COMPLETE = 58,
    NFS4_OP_ALLOCATE = 59, NFS4_OP_COPY = 60, NFS4_OP_COPY_NOTIFY = 61,
    NFS4_OP_DEALLOCATE = 62, NFS4_OP_IO_ADVISE = 63, NFS4_OP_LAYOUTERROR = 64,
    NFS4_OP_LAYOUTSTATS = 65, NFS4_OP_OFFLOAD_CANCEL = 66,
    NFS4_OP_OFFLOAD_STATUS = 67, NFS4_OP_READ_PLUS = 68, NFS4_OP_SEEK = 69,
    NFS4_OP_WRITE_SAME = 70, NFS4_OP_CLONE = 71, NFS4_OP_GETXATTR = 72,
    NFS4_OP_SETXATTR = 73, NFS4_OP_LISTXATTRS = 74, NFS4_OP_REMOVEXATTR = 75,
    NFS4_OP_ILLEGAL = 10044,
};

enum nfs4_cb_opnum {
    NFS4_CB_GETATTR = 3, NFS4_CB_RECALL = 4, NFS4_CB_LAYOUTRECALL = 5,
    NFS4_CB_NOTIFY = 6, NFS4_CB_PUSH_DELEG = 7, NFS4_CB_RECALL_ANY = 8,
    NFS4_CB_RECALLABLE_OBJ_AVAIL = 9, NFS4_CB_RECALL_SLOT = 10,
    NFS4_CB_SEQUENCE = 11, NFS4_CB_WANTS_CANCELLED = 12,
    NFS4_CB_NOTIFY_LOCK = 13, NFS4_CB_NOTIFY_DEVICEID = 14, NFS4_CB_OFFLOAD = 15,
    NFS4_CB_ILLEGAL = 10044,
};

/* The nfsstat4 values whose results carry data (the others are void). */
enum {
    NFS4_OK = 0,
    NFS4ERR_TOOSMALL = 10005,
    NFS4ERR_DENIED = 10010,
    NFS4ERR_CLID_INUSE = 10017,
    NFS4ERR_LAYOUTTRYLATER = 10058,
    NFS4ERR_OFFLOAD_NO_REQS = 10094,
};

#define NFS4_OPAQUE_LIMIT 1024u
#define NFS4_FHSIZE 128u
#define NFS4_NOLIMIT UINT32_MAX /* opaque<> / string<>: bounded by what remains */
#define NFS4_STATEID_LEN 16u
#define NFS4_DEVICEID_LEN 16u
#define NFS4_VERIFIER_LEN 8u

/* What an argument decoder may read and update. */
struct nfs4_cctx {
    struct nfs4_call *out;
    uint32_t index;         /* position of the operation, 0 = first */
    struct nfs4_fh cur;     /* current filehandle as far as known; len 0 = unknown */
    struct nfs4_fh saved;   /* saved filehandle (SAVEFH / RESTOREFH) */
    const struct nfs_name_sink *names; /* NULL: names and handles not reported */
    struct nfs4_state_facts *st; /* delegation and lease facts (never NULL) */
    bool st_strong;         /* st->call_stateid is DELEGRETURN's or CB_RECALL's */
};

/* What a result decoder may read and update. */
struct nfs4_rctx {
    struct nfs4_reply *out;
    uint32_t index;         /* position of the result, 0 = first */
    const struct nfs_name_sink *names;
    struct nfs4_state_facts *st; /* delegation and lease facts (never NULL) */
};

/* Operation families. Each returns false when op is not one of its own;
 * otherwise it decoded (or failed on) the arguments / the result body that
 * follows the status word, which the walker has already read. */
bool nfs4_args_fs(struct xdr *x, uint32_t op, struct nfs4_cctx *c);
bool nfs4_res_fs(struct xdr *x, uint32_t op, uint32_t status, struct nfs4_rctx *r);
bool nfs4_args_state(struct xdr *x, uint32_t op, struct nfs4_cctx *c);
bool nfs4_res_state(struct xdr *x, uint32_t op, uint32_t status, struct nfs4_rctx *r);
bool nfs4_args_session(struct xdr *x, uint32_t op, struct nfs4_cctx *c);
bool nfs4_res_session(struct xdr *x, uint32_t op, uint32_t status, struct nfs4_rctx *r);
bool nfs4_args_io(struct xdr *x, uint32_t op, struct nfs4_cctx *c);
bool nfs4_res_io(struct xdr *x, uint32_t op, uint32_t status, struct nfs4_rctx *r);
bool nfs4_args_pnfs(struct xdr *x, uint32_t op, struct nfs4_cctx *c);
bool nfs4_res_pnfs(struct xdr *x, uint32_t op, uint32_t status, struct nfs4_rctx *r);
bool nfs4_args_cb(struct xdr *x, uint32_t op, struct nfs4_cctx *c);
bool nfs4_res_cb(struct xdr *x, uint32_t op, uint32_t status, struct nfs4_rctx *r);

/* ---- shared XDR items ---- */

/* One-line skips, always inline as the reader they call (XDR_INLINE): an
 * LTO build otherwise leaves some call sites out of line, which ones
 * depending on unrelated code elsewhere in the decoder. */
/* stateid4: seqid + 12 opaque bytes. */
static inline XDR_INLINE void nfs4x_stateid(struct xdr *x) { xdr_skip(x, NFS4_STATEID_LEN); }
/* nfstime4: int64 seconds + uint32 nseconds. */
static inline XDR_INLINE void nfs4x_nfstime(struct xdr *x) { xdr_skip(x, 12); }
/* utf8str_cs / utf8str_cis / component4 / linktext4 / opaque<>: skipped. */
static inline XDR_INLINE void nfs4x_utf8(struct xdr *x) { xdr_skip_opaque(x, NFS4_NOLIMIT); }
/* bitmap4; the first nfirst words (when present) go to first[]. Returns the word count. */
uint32_t nfs4x_bitmap(struct xdr *x, uint32_t *first, uint32_t nfirst);
/* fattr4: bitmap4 + attrlist4 (skipped). */
void nfs4x_fattr(struct xdr *x);
/* change_info4: bool atomic, changeid4 before, after. */
void nfs4x_change_info(struct xdr *x);
/* nfs_fh4 (at most NFS4_FHSIZE bytes); out may be NULL. */
void nfs4x_fh(struct xdr *x, struct nfs4_fh *out);
/* state_owner4 (open_owner4, lock_owner4): clientid + opaque owner<1024>. */
void nfs4x_state_owner(struct xdr *x);
/* netaddr4 (clientaddr4): string netid, string addr. */
void nfs4x_netaddr(struct xdr *x);
/* nfsace4. */
void nfs4x_nfsace(struct xdr *x);
/* open_delegation4 (OPEN, WANT_DELEGATION, CB_PUSH_DELEG): its type, the
 * stateid of a READ/WRITE delegation into stateid (may be NULL). */
uint32_t nfs4x_open_delegation(struct xdr *x, uint8_t *stateid);
/* A stateid4 argument of op, noted as the call's (c->st) when it is the
 * first, or when strong (DELEGRETURN, CB_RECALL) and none strong came before. */
void nfs4x_call_stateid(struct xdr *x, struct nfs4_cctx *c, uint32_t op, bool strong);
/* A delegation granted in a reply (OPEN, WANT_DELEGATION): the first noted. */
void nfs4x_reply_delegation(struct xdr *x, struct nfs4_rctx *r);
/* GETATTR's fattr4, its lease_time (bit 10) noted in st when present. */
void nfs4x_fattr_lease(struct xdr *x, struct nfs4_state_facts *st);
/* LOCK4denied (LOCK, LOCKT). */
void nfs4x_lock_denied(struct xdr *x);
/* write_response4 (COPY, WRITE_SAME, CB_OFFLOAD). */
void nfs4x_write_response(struct xdr *x);
/* netloc4 (COPY, COPY_NOTIFY). */
void nfs4x_netloc(struct xdr *x);
/* callback_sec_parms4 csa_sec_parms<> (CREATE_SESSION, BACKCHANNEL_CTL). */
void nfs4x_callback_sec_parms_list(struct xdr *x);
/* channel_attrs4. */
void nfs4x_chan_attrs(struct xdr *x, struct nfs4_chan_attrs *out);
/* BIND_CONN_TO_SESSION4args / BIND_CONN_TO_SESSION4resok (same layout). */
void nfs4x_bind_conn(struct xdr *x, struct nfs4_bind_conn *out);
/* The part SEQUENCE4resok and CB_SEQUENCE4resok share (up to the target
 * highest slot ID); SEQUENCE then adds sr_status_flags. */
void nfs4x_seq_res_head(struct xdr *x, struct nfs4_seq_res *out);
/* nfs_impl_id4 ..<1>. */
void nfs4x_impl_id_list(struct xdr *x);
/* A name (component4) told to the sink as step; skipped without a sink. */
void nfs4x_name_step(struct xdr *x, const struct nfs_name_sink *names, uint8_t step, uint32_t index);
/* fattr4 of a READDIR entry: its FATTR4_FILEHANDLE, when the bitmap has it,
 * into fh (len 0 otherwise); the attributes are walked to their end. */
void nfs4x_fattr_fh(struct xdr *x, struct nfs4_fh *fh);
/* opaque<max> copied (up to cap bytes) into out; *kept gets the bytes kept. */
uint32_t nfs4x_opaque_keep(struct xdr *x, uint8_t *out, uint8_t *kept, uint32_t cap, uint32_t max);

#endif
