/* Large messages stream through the record layer without their middle (a
 * WRITE's or a READ's data). These say whether the decoders would read
 * inside that middle: they decode a trial message (head, hole, zero tail)
 * into scratch results, as nfs_dispatch.c would, and report a read inside a
 * hole. Nothing of the analysis is touched. */
#ifndef NFSSCOPE_RPC_SKIP_H
#define NFSSCOPE_RPC_SKIP_H
#include <stdbool.h>
#include <stdint.h>

#include "nfsscope/txn.h"
#include "xdr.h"

/* x at a call's arguments (after any RPCSEC_GSS integrity wrapper). */
bool rpc_skip_call_ok(struct xdr *x, bool backchannel, uint32_t prog, uint32_t vers, uint32_t proc);
/* x at the results of an accepted, successful reply to call t. */
bool rpc_skip_reply_ok(struct xdr *x, const struct ns_txn *t);

#endif
