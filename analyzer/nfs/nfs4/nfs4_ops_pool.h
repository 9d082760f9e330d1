/* The overflow pool of COMPOUND operation lists: a transaction whose call or
 * reply has more than NS_OPS_INLINE operations takes one block holding the
 * rest (up to NS_MAX_OPS), given back when the transaction is handed out.
 * Blocks come from the memory cap (MEM_PENDING) and are at most
 * NFS4_OPS_POOL_BLOCKS; when none can be had the list is cut at
 * NS_OPS_INLINE and the refusal counted. Freed blocks are kept for reuse
 * (no allocation per call once warm). */
#ifndef NFSSCOPE_NFS4_OPS_POOL_H
#define NFSSCOPE_NFS4_OPS_POOL_H
#include <stdint.h>

#include "memcap.h"
#include "nfs_names.h"
#include "nfsscope/txn.h"

#define NS_OPS_MORE (NS_MAX_OPS - NS_OPS_INLINE)
/* Blocks at most (each about 7.7 KB): COMPOUNDs this long are rare and
 * answered in turn, so a few are in flight at once. */
#define NFS4_OPS_POOL_BLOCKS 128u

struct ns_ops_more {
    uint64_t owner;               /* id of the transaction using it (0: free) */
    struct ns_ops_more *next;     /* free list */
    uint16_t op[NS_OPS_MORE];     /* call: operations NS_OPS_INLINE.. */
    uint16_t resop[NS_OPS_MORE];  /* reply: result opcodes NS_OPS_INLINE.. */
    uint32_t res_status[NS_OPS_MORE];
};

struct nfs4_ops_pool;

/* NULL when out of memory. */
struct nfs4_ops_pool *nfs4_ops_pool_new(struct memcap *mc);
void nfs4_ops_pool_free(struct nfs4_ops_pool *p);
/* t's block, taken on first need; NULL when refused (counted). */
struct ns_ops_more *nfs4_ops_pool_get(struct nfs4_ops_pool *p, struct ns_txn *t);
/* Give back t's block, if any (t is being handed out for the last time). */
void nfs4_ops_pool_release(struct nfs4_ops_pool *p, struct ns_txn *t);
uint64_t nfs4_ops_pool_refused(const struct nfs4_ops_pool *p);
uint32_t nfs4_ops_pool_blocks(const struct nfs4_ops_pool *p); /* allocated */

/* A call cut before its last operations: take them from the reply's results
 * (each carries its opcode) when the lists agree so far; returns how many
 * were added (0: none, or the lists differ). */
uint16_t nfs4_ops_from_reply(struct nfs4_ops_pool *p, struct ns_txn *t);

/* Where a decoder puts operations past NS_OPS_INLINE: get() is asked once,
 * at the first such operation (NULL get or NULL answer: the list is cut). */
struct nfs4_ops_room {
    struct ns_ops_more *(*get)(void *ctx);
    void *ctx;
    const struct nfs_name_sink *names; /* where names and handles go (NULL: nowhere) */
    struct nfs4_state_facts *state;    /* where delegation and lease facts go (NULL: nowhere) */
};

#endif
