#include "txn_table.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    struct ns_txn txn;     /* first member: entries are found from txn pointers */
    uint64_t scope;
    uint32_t hnext;        /* index + 1 */
    uint32_t fifo_next;    /* index + 1, call order */
    int64_t release_ts;    /* done: may be handed out from this time on */
    uint32_t self;         /* own index + 1 */
    bool done, hashed;
};

struct txn_table {
    struct memcap *mc;
    txn_done_fn fn;
    void *ctx;
    struct entry **chunks; /* fixed-size chunks: entries never move */
    uint32_t nchunks, chunks_cap;
    uint32_t used, free_head, live;
    uint32_t *bucket;
    uint32_t nbuckets;
    uint32_t fifo_head, fifo_tail;
    uint64_t evicted;
    bool flushing;
};

#define CHUNK 16u /* entries per allocation: small, so a small --memcap still fits one */

static inline struct entry *at(struct txn_table *t, uint32_t i)
{
    return &t->chunks[(i - 1) / CHUNK][(i - 1) % CHUNK];
}

static uint32_t hash(uint64_t scope, uint32_t xid)
{
    uint64_t h = (scope ^ ((uint64_t)xid << 17 | xid)) * 0x9e3779b97f4a7c15ULL;
    return (uint32_t)(h >> 32);
}

struct txn_table *txn_table_new(struct memcap *mc, txn_done_fn fn, void *ctx)
{
    struct txn_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->mc = mc;
    t->fn = fn;
    t->ctx = ctx;
    /* 4096 buckets under the default cap; a small cap (a fuzzer's analyzer)
     * starts at 256. Either doubles as calls accumulate (rehash). */
    t->nbuckets = mc->cap[MEM_PENDING] >= (64u << 20) ? 4096 : 256;
    t->bucket = calloc(t->nbuckets, sizeof *t->bucket);
    if (!t->bucket) { free(t); return NULL; }
    memcap_take(mc, MEM_PENDING, t->nbuckets * sizeof *t->bucket);
    return t;
}

void txn_table_free(struct txn_table *t)
{
    if (!t) return;
    for (uint32_t i = 0; i < t->nchunks; i++) free(t->chunks[i]);
    memcap_give(t->mc, MEM_PENDING, (size_t)t->nchunks * CHUNK * sizeof(struct entry));
    free(t->chunks);
    free(t->bucket);
    memcap_give(t->mc, MEM_PENDING, (size_t)t->nbuckets * sizeof *t->bucket);
    free(t);
}

static void rehash(struct txn_table *t)
{
    uint32_t nb = t->nbuckets * 2;
    if (!memcap_take(t->mc, MEM_PENDING, (size_t)nb * sizeof(uint32_t))) return;
    uint32_t *b = calloc(nb, sizeof *b);
    if (!b) { memcap_give(t->mc, MEM_PENDING, (size_t)nb * sizeof(uint32_t)); return; }
    for (uint32_t i = 1; i <= t->used; i++) {
        struct entry *e = at(t, i);
        if (!e->hashed) continue;
        uint32_t h = hash(e->scope, e->txn.xid) & (nb - 1);
        e->hnext = b[h];
        b[h] = i;
    }
    memcap_give(t->mc, MEM_PENDING, (size_t)t->nbuckets * sizeof(uint32_t));
    free(t->bucket);
    t->bucket = b;
    t->nbuckets = nb;
}

static void unhash(struct txn_table *t, uint32_t i)
{
    struct entry *e = at(t, i);
    if (!e->hashed) return;
    uint32_t *pp = &t->bucket[hash(e->scope, e->txn.xid) & (t->nbuckets - 1)];
    while (*pp && *pp != i) pp = &at(t, *pp)->hnext;
    if (*pp) *pp = e->hnext;
    e->hashed = false;
}

static uint32_t index_of(struct txn_table *t, const struct ns_txn *x)
{
    (void)t;
    return ((const struct entry *)(const void *)x)->self; /* txn is the first member */
}

/* Hand out the head of the FIFO and free it. */
static void pop_head(struct txn_table *t, bool given_up)
{
    uint32_t i = t->fifo_head;
    struct entry *e = at(t, i);
    t->fifo_head = e->fifo_next;
    if (!t->fifo_head) t->fifo_tail = 0;
    unhash(t, i);
    t->fn(t->ctx, &e->txn, given_up);
    e->hnext = t->free_head;
    t->free_head = i;
    t->live--;
}

static uint32_t alloc_entry(struct txn_table *t)
{
    if (t->free_head) {
        uint32_t i = t->free_head;
        t->free_head = at(t, i)->hnext;
        return i;
    }
    if (t->used == t->nchunks * CHUNK) {
        size_t bytes = CHUNK * sizeof(struct entry);
        if (!memcap_take(t->mc, MEM_PENDING, bytes)) return 0;
        if (t->nchunks == t->chunks_cap) {
            uint32_t nc = t->chunks_cap ? t->chunks_cap * 2 : 16;
            struct entry **p = realloc(t->chunks, nc * sizeof *p);
            if (!p) { memcap_give(t->mc, MEM_PENDING, bytes); return 0; }
            t->chunks = p;
            t->chunks_cap = nc;
        }
        struct entry *c = malloc(bytes);
        if (!c) { memcap_give(t->mc, MEM_PENDING, bytes); return 0; }
        t->chunks[t->nchunks++] = c;
    }
    return ++t->used;
}

static struct entry *new_entry(struct txn_table *t)
{
    uint32_t i = alloc_entry(t);
    if (!i) {
        if (!t->fifo_head) return NULL;
        /* Full: give up the oldest call to make room. */
        t->evicted++;
        pop_head(t, !at(t, t->fifo_head)->done);
        i = alloc_entry(t);
        if (!i) return NULL;
    }
    struct entry *e = at(t, i);
    memset(&e->txn, 0, sizeof e->txn); /* once: its head used to be cleared twice */
    e->scope = 0;
    e->hnext = e->fifo_next = 0;
    e->done = e->hashed = false;
    e->release_ts = 0;
    e->self = i;
    if (t->fifo_tail) at(t, t->fifo_tail)->fifo_next = i; else t->fifo_head = i;
    t->fifo_tail = i;
    t->live++;
    return e;
}

struct ns_txn *txn_find(struct txn_table *t, uint64_t scope, uint32_t xid)
{
    for (uint32_t i = t->bucket[hash(scope, xid) & (t->nbuckets - 1)]; i; i = at(t, i)->hnext) {
        struct entry *e = at(t, i);
        if (e->scope == scope && e->txn.xid == xid) return &e->txn;
    }
    return NULL;
}

struct ns_txn *txn_new_call(struct txn_table *t, uint64_t scope, uint32_t xid)
{
    struct entry *e = new_entry(t);
    if (!e) return NULL;
    uint32_t i = t->fifo_tail;
    e->scope = scope;
    e->txn.xid = xid;
    if (t->live > t->nbuckets * 2) rehash(t);
    uint32_t h = hash(scope, xid) & (t->nbuckets - 1);
    e->hnext = t->bucket[h];
    t->bucket[h] = i;
    e->hashed = true;
    return &e->txn;
}

struct ns_txn *txn_new_done(struct txn_table *t)
{
    struct entry *e = new_entry(t);
    if (!e) return NULL;
    e->done = true;
    return &e->txn;
}

void txn_mark_done(struct txn_table *t, struct ns_txn *x, int64_t now_ns, int64_t linger_ns)
{
    uint32_t i = index_of(t, x);
    if (!i) return;
    at(t, i)->done = true;
    at(t, i)->release_ts = now_ns + linger_ns;
}

void txn_forget(struct txn_table *t, struct ns_txn *x)
{
    uint32_t i = index_of(t, x);
    if (i) unhash(t, i);
}

void txn_flush(struct txn_table *t, int64_t now_ns, int64_t timeout_ns)
{
    if (t->flushing) return; /* a callback must not re-enter */
    t->flushing = true;
    while (t->fifo_head) {
        struct entry *e = at(t, t->fifo_head);
        if (e->done) {
            if (timeout_ns >= 0 && now_ns < e->release_ts) break;
            pop_head(t, false);
            continue;
        }
        int64_t sent = e->txn.last_send_ts_ns ? e->txn.last_send_ts_ns : e->txn.call_ts_ns;
        if (timeout_ns < 0 || now_ns - sent > timeout_ns) { pop_head(t, true); continue; }
        break;
    }
    t->flushing = false;
}

uint64_t txn_evicted(const struct txn_table *t) { return t->evicted; }
uint32_t txn_outstanding(const struct txn_table *t) { return t->live; }
