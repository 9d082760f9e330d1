#include "nfs4_ops_pool.h"

#include <stdlib.h>

struct nfs4_ops_pool {
    struct memcap *mc;
    struct ns_ops_more *free;
    uint32_t blocks;
    uint64_t refused;
    struct ns_ops_more **all; /* every block, to free them */
};

struct nfs4_ops_pool *nfs4_ops_pool_new(struct memcap *mc)
{
    struct nfs4_ops_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->all = calloc(NFS4_OPS_POOL_BLOCKS, sizeof *p->all);
    if (!p->all) { free(p); return NULL; }
    p->mc = mc;
    return p;
}

void nfs4_ops_pool_free(struct nfs4_ops_pool *p)
{
    if (!p) return;
    for (uint32_t i = 0; i < p->blocks; i++) free(p->all[i]);
    if (p->mc) memcap_give(p->mc, MEM_PENDING, (size_t)p->blocks * sizeof(struct ns_ops_more));
    free(p->all);
    free(p);
}

struct ns_ops_more *nfs4_ops_pool_get(struct nfs4_ops_pool *p, struct ns_txn *t)
{
    if (t->ops_more && t->ops_more->owner == t->id) return (struct ns_ops_more *)t->ops_more;
    struct ns_ops_more *b = p->free;
    if (b) {
        p->free = b->next;
    } else if (p->blocks < NFS4_OPS_POOL_BLOCKS &&
               (!p->mc || memcap_take(p->mc, MEM_PENDING, sizeof *b))) {
        b = malloc(sizeof *b);
        if (!b) {
            if (p->mc) memcap_give(p->mc, MEM_PENDING, sizeof *b);
        } else {
            p->all[p->blocks++] = b;
        }
    }
    if (!b) {
        p->refused++;
        return NULL;
    }
    b->owner = t->id;
    b->next = NULL;
    t->ops_more = b;
    return b;
}

void nfs4_ops_pool_release(struct nfs4_ops_pool *p, struct ns_txn *t)
{
    struct ns_ops_more *b = (struct ns_ops_more *)t->ops_more;
    if (!b || b->owner != t->id) return;
    b->owner = 0;
    b->next = p->free;
    p->free = b;
}

uint64_t nfs4_ops_pool_refused(const struct nfs4_ops_pool *p) { return p->refused; }
uint32_t nfs4_ops_pool_blocks(const struct nfs4_ops_pool *p) { return p->blocks; }

/* ---- the public accessors (txn.h) ---- */

static bool is_v4(const struct ns_txn *t)
{
    return t->kind == NS_TXN_NFS4 || t->kind == NS_TXN_NFS4_CB;
}

static const struct ns_ops_more *more_of(const struct ns_txn *t)
{
    return t->ops_more && t->ops_more->owner == t->id ? t->ops_more : NULL;
}

uint32_t ns_txn_nops(const struct ns_txn *t) { return is_v4(t) ? t->u.v4.call.nops : 0; }
uint32_t ns_txn_nres(const struct ns_txn *t) { return is_v4(t) ? t->u.v4.reply.nres : 0; }

uint32_t ns_txn_op(const struct ns_txn *t, uint32_t i)
{
    if (i >= ns_txn_nops(t)) return UINT32_MAX;
    if (i < NS_OPS_INLINE) return t->u.v4.call.op[i];
    const struct ns_ops_more *m = more_of(t);
    return m ? m->op[i - NS_OPS_INLINE] : UINT32_MAX;
}

bool ns_txn_res(const struct ns_txn *t, uint32_t i, uint32_t *op, uint32_t *status)
{
    if (i >= ns_txn_nres(t)) return false;
    if (i < NS_OPS_INLINE) {
        *op = t->u.v4.reply.resop[i];
        *status = t->u.v4.reply.res_status[i];
        return true;
    }
    const struct ns_ops_more *m = more_of(t);
    if (!m) return false;
    *op = m->resop[i - NS_OPS_INLINE];
    *status = m->res_status[i - NS_OPS_INLINE];
    return true;
}

uint16_t nfs4_ops_from_reply(struct nfs4_ops_pool *p, struct ns_txn *t)
{
    struct nfs4_call *c = &t->u.v4.call;
    uint32_t n = c->nops, nres = ns_txn_nres(t), op, st;
    if (n >= nres) return 0;
    for (uint32_t i = 0; i < n; i++)
        if (!ns_txn_res(t, i, &op, &st) || op != ns_txn_op(t, i)) return 0; /* not the same list */
    /* A reply with more than NS_OPS_INLINE results already holds t's block. */
    struct ns_ops_more *b = nres > NS_OPS_INLINE ? nfs4_ops_pool_get(p, t) : NULL;
    if (nres > NS_OPS_INLINE && !b) return 0;
    for (uint32_t i = n; i < nres; i++) {
        if (!ns_txn_res(t, i, &op, &st)) return 0;
        if (i < NS_OPS_INLINE) c->op[i] = (uint16_t)op;
        else b->op[i - NS_OPS_INLINE] = (uint16_t)op;
    }
    c->nops = (uint16_t)nres;
    c->ops_cut = t->u.v4.reply.res_cut;
    return (uint16_t)(nres - n);
}
