/* Choose the protocol decoder for a call or reply and fill the transaction. */
#ifndef NFSSCOPE_NFS_DISPATCH_H
#define NFSSCOPE_NFS_DISPATCH_H
#include "memcap.h"
#include "nfs_names.h"
#include "nfs4_ops_pool.h"
#include "nfsscope/stats.h"
#include "nfsscope/txn.h"
#include "xdr.h"

/* The decoder a call's prog/vers (and channel) chooses: NS_TXN_OTHER when none. */
enum ns_txn_kind nfs_kind_of(bool backchannel, uint32_t prog, uint32_t vers);
enum ns_txn_kind nfs_call_kind(const struct ns_txn *t);
/* x is at the procedure arguments. Sets kind, decoded fields, truncation. */
/* mc: the memory cap the per-operation counters are taken from (NULL: none). */
/* pool: where COMPOUND operations past NS_OPS_INLINE go (NULL: cut there). */
/* names: where names and handles go (NULL: not looked for). */
void nfs_decode_call(struct ns_txn *t, struct xdr *x, struct ns_stats *st, struct memcap *mc,
                     struct nfs4_ops_pool *pool, const struct nfs_name_sink *names);
/* x is at the results of an accepted, successful reply. */
void nfs_decode_reply(struct ns_txn *t, struct xdr *x, struct ns_stats *st, struct nfs4_ops_pool *pool,
                      const struct nfs_name_sink *names);
/* The operation key the transaction is counted under (see stats.h). */
uint32_t nfs_txn_opkey(const struct ns_txn *t);

#endif
