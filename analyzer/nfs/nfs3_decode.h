/* NFSv3 (RFC 1813) procedure decoding: key arguments and status of all 22
 * procedures. Same return convention as nfs4_decode.h: 0 = decoded to the
 * end, -1 = unknown procedure, -2 = the reader failed (see x->err). */
#ifndef NFSSCOPE_NFS3_DECODE_H
#define NFSSCOPE_NFS3_DECODE_H
#include "nfs_names.h"
#include "nfsscope/nfs_types.h"
#include "xdr.h"

int nfs3_decode_call(struct xdr *x, uint32_t proc, struct nfs3_call *out);
int nfs3_decode_reply(struct xdr *x, uint32_t proc, struct nfs3_reply *out);
/* The same, telling names the sink (READDIRPLUS entries, RENAME's target). */
int nfs3_decode_call_named(struct xdr *x, uint32_t proc, struct nfs3_call *out, const struct nfs_name_sink *names);
int nfs3_decode_reply_named(struct xdr *x, uint32_t proc, struct nfs3_reply *out, const struct nfs_name_sink *names);

#endif
