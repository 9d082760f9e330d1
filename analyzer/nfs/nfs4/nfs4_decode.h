/* NFSv4.x COMPOUND and CB_COMPOUND decoding (RFC 7530, 8881, 7862, 8276).
 *
 * Each function walks the whole body with the bounded reader, recording the
 * operation list and the fields of struct nfs4_call / nfs4_reply. Returns 0
 * when the walk reached the end of the compound (walk_complete), or a negative
 * value when it stopped: -1 unknown operation (unknown_op set, stopped_at_op
 * names it), -2 the reader failed (x->err tells why: TRUNC = bytes not
 * captured, SHORT/BAD = invalid). Whatever was decoded before a stop stays
 * valid in *out. out is zeroed first.
 *
 * room: where operations past NS_OPS_INLINE go (NULL: nowhere); a list
 * longer than what could be kept sets ops_cut / res_cut. */
#ifndef NFSSCOPE_NFS4_DECODE_H
#define NFSSCOPE_NFS4_DECODE_H
#include "nfsscope/nfs_types.h"
#include "nfs4_ops_pool.h"
#include "xdr.h"

/* x is positioned at the COMPOUND4args (tag first). */
int nfs4_decode_compound_call(struct xdr *x, struct nfs4_call *out, const struct nfs4_ops_room *room);
/* x is positioned at COMPOUND4res (status first). */
int nfs4_decode_compound_reply(struct xdr *x, struct nfs4_reply *out, const struct nfs4_ops_room *room);
/* CB_COMPOUND (program NFS4_CALLBACK, procedure 1). */
int nfs4_decode_cb_compound_call(struct xdr *x, struct nfs4_call *out, const struct nfs4_ops_room *room);
int nfs4_decode_cb_compound_reply(struct xdr *x, struct nfs4_reply *out, const struct nfs4_ops_room *room);

#endif
