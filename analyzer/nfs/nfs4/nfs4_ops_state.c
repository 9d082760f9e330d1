/* NFSv4 state operations: byte-range locks, delegations, stateids, and the
 * NFSv4.0 client-ID operations (SETCLIENTID, SETCLIENTID_CONFIRM, RENEW,
 * RELEASE_LOCKOWNER). RFC 8881 s.18, RFC 7530 s.16. */
#include "nfs4_xdr_common.h"

#include <string.h>

enum { GDD4_OK = 0, GDD4_UNAVAIL = 1 };
enum { CLAIM_PREVIOUS = 1, CLAIM_FH = 4, CLAIM_DELEG_PREV_FH = 6 };

/* LOCK4args (s.18.10.1). */
static void lock_args(struct xdr *x)
{
    xdr_u32(x);      /* locktype */
    xdr_bool(x);     /* reclaim */
    xdr_skip(x, 16); /* offset, length */
    if (xdr_bool(x)) { /* new_lock_owner: open_to_lock_owner4 */
        xdr_u32(x);    /* open_seqid */
        nfs4x_stateid(x);
        xdr_u32(x);    /* lock_seqid */
        nfs4x_state_owner(x);
    } else {           /* exist_lock_owner4 */
        nfs4x_stateid(x);
        xdr_u32(x);
    }
}

/* SETCLIENTID4args (RFC 7530 s.16.33.1). */
static void setclientid_args(struct xdr *x, struct nfs4_cctx *c)
{
    struct nfs4_setup_args *s = &c->out->setup;
    bool first = !s->has_setclientid;
    uint8_t verf[NFS4_VERIFIER_LEN], owner[NS_OWNER_MAX], kept;
    xdr_bytes(x, verf, sizeof verf);
    uint32_t wire = nfs4x_opaque_keep(x, owner, &kept, NS_OWNER_MAX, NFS4_OPAQUE_LIMIT);
    uint32_t prog = xdr_u32(x);
    nfs4x_netaddr(x); /* cb_location */
    uint32_t ident = xdr_u32(x);
    if (!first || !xdr_ok(x)) return;
    s->has_setclientid = true;
    memcpy(s->setclientid.verifier, verf, sizeof verf);
    memcpy(s->setclientid.owner, owner, kept);
    s->setclientid.owner_len = kept;
    s->setclientid.owner_wire_len = wire;
    s->setclientid.cb_program = prog;
    s->setclientid.callback_ident = ident;
}

static void setclientid_confirm_args(struct xdr *x, struct nfs4_cctx *c)
{
    struct nfs4_setup_args *s = &c->out->setup;
    uint64_t id = xdr_u64(x);
    uint8_t verf[NFS4_VERIFIER_LEN];
    xdr_bytes(x, verf, sizeof verf);
    if (s->has_setclientid_confirm || !xdr_ok(x)) return;
    s->has_setclientid_confirm = true;
    s->setclientid_confirm.clientid = id;
    memcpy(s->setclientid_confirm.verifier, verf, sizeof verf);
}

static void get_dir_delegation_args(struct xdr *x)
{
    xdr_bool(x);              /* signal_deleg_avail */
    nfs4x_bitmap(x, NULL, 0); /* notification_types */
    nfs4x_nfstime(x);         /* child_attr_delay */
    nfs4x_nfstime(x);         /* dir_attr_delay */
    nfs4x_bitmap(x, NULL, 0); /* child_attributes */
    nfs4x_bitmap(x, NULL, 0); /* dir_attributes */
}

static void want_delegation_args(struct xdr *x)
{
    xdr_u32(x); /* wda_want */
    switch (xdr_u32(x)) { /* deleg_claim4 */
    case CLAIM_FH:
    case CLAIM_DELEG_PREV_FH:
        break;
    case CLAIM_PREVIOUS:
        xdr_u32(x); /* dc_delegate_type */
        break;
    default:
        xdr_fail(x, XDR_ERR_BAD);
    }
}

bool nfs4_args_state(struct xdr *x, uint32_t op, struct nfs4_cctx *c)
{
    switch (op) {
    case NFS4_OP_LOCK:
        lock_args(x);
        break;
    case NFS4_OP_LOCKT:
        xdr_u32(x);      /* locktype */
        xdr_skip(x, 16); /* offset, length */
        nfs4x_state_owner(x);
        break;
    case NFS4_OP_LOCKU:
        xdr_skip(x, 8); /* locktype, seqid */
        nfs4x_stateid(x);
        xdr_skip(x, 16); /* offset, length */
        break;
    case NFS4_OP_DELEGPURGE:
        xdr_skip(x, 8); /* clientid */
        break;
    case NFS4_OP_RENEW: {
        uint64_t clientid = xdr_u64(x);
        if (xdr_ok(x) && !c->st->has_renew) {
            c->st->has_renew = true;
            c->st->renew_clientid = clientid;
        }
        break;
    }
    case NFS4_OP_DELEGRETURN:
    case NFS4_OP_FREE_STATEID:
        nfs4x_call_stateid(x, c, op, op == NFS4_OP_DELEGRETURN);
        break;
    case NFS4_OP_RELEASE_LOCKOWNER:
        nfs4x_state_owner(x);
        break;
    case NFS4_OP_SETCLIENTID:
        setclientid_args(x, c);
        break;
    case NFS4_OP_SETCLIENTID_CONFIRM:
        setclientid_confirm_args(x, c);
        break;
    case NFS4_OP_GET_DIR_DELEGATION:
        get_dir_delegation_args(x);
        break;
    case NFS4_OP_TEST_STATEID: {
        uint32_t n = xdr_count(x, NFS4_STATEID_LEN);
        if (n) {
            nfs4x_call_stateid(x, c, op, false);
            n--;
        }
        xdr_skip(x, n * NFS4_STATEID_LEN);
        break;
    }
    case NFS4_OP_WANT_DELEGATION:
        want_delegation_args(x);
        break;
    default:
        return false;
    }
    return true;
}

static void setclientid_res(struct xdr *x, struct nfs4_rctx *r)
{
    uint64_t id = xdr_u64(x);
    uint8_t confirm[NFS4_VERIFIER_LEN];
    xdr_bytes(x, confirm, sizeof confirm);
    struct nfs4_setup_res *s = &r->out->setup;
    if (s->has_setclientid || !xdr_ok(x)) return;
    s->has_setclientid = true;
    s->setclientid.clientid = id;
    memcpy(s->setclientid.confirm, confirm, sizeof confirm);
}

static void get_dir_delegation_res(struct xdr *x)
{
    switch (xdr_u32(x)) { /* gddrnf4_status */
    case GDD4_OK:
        xdr_skip(x, NFS4_VERIFIER_LEN);
        nfs4x_stateid(x);
        nfs4x_bitmap(x, NULL, 0);
        nfs4x_bitmap(x, NULL, 0);
        nfs4x_bitmap(x, NULL, 0);
        break;
    case GDD4_UNAVAIL:
        xdr_bool(x);
        break;
    default:
        xdr_fail(x, XDR_ERR_BAD);
    }
}

bool nfs4_res_state(struct xdr *x, uint32_t op, uint32_t status, struct nfs4_rctx *r)
{
    bool ok = status == NFS4_OK;
    switch (op) {
    case NFS4_OP_LOCK:
        if (ok) nfs4x_stateid(x);
        else if (status == NFS4ERR_DENIED) nfs4x_lock_denied(x);
        break;
    case NFS4_OP_LOCKT:
        if (status == NFS4ERR_DENIED) nfs4x_lock_denied(x);
        break;
    case NFS4_OP_LOCKU:
        if (ok) nfs4x_stateid(x);
        break;
    case NFS4_OP_DELEGPURGE:
    case NFS4_OP_RENEW:
    case NFS4_OP_DELEGRETURN:
    case NFS4_OP_FREE_STATEID:
    case NFS4_OP_RELEASE_LOCKOWNER:
    case NFS4_OP_SETCLIENTID_CONFIRM:
        break;
    case NFS4_OP_SETCLIENTID:
        if (ok) setclientid_res(x, r);
        else if (status == NFS4ERR_CLID_INUSE) nfs4x_netaddr(x); /* client_using */
        break;
    case NFS4_OP_GET_DIR_DELEGATION:
        if (ok) get_dir_delegation_res(x);
        break;
    case NFS4_OP_TEST_STATEID:
        if (ok) {
            uint32_t n = xdr_count(x, 4);
            xdr_skip(x, n * 4);
        }
        break;
    case NFS4_OP_WANT_DELEGATION:
        if (ok) nfs4x_reply_delegation(x, r);
        break;
    default:
        return false;
    }
    return true;
}
