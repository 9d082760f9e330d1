#include "flow.h"

#include <stdlib.h>
#include <string.h>

#define NIL 0u /* indexes are stored +1 so that 0 means none */

/* A flow's size is what a flood of connections under a memory cap counts
 * in (e2e.floods.many_short_conns): new state goes in padding. */
_Static_assert(sizeof(void *) != 8 || sizeof(struct flow) <= 680, "struct flow grew");

struct flow_table {
    struct memcap *mc;
    flow_evict_fn on_evict;
    void *ctx;
    struct flow *pool;      /* pool[i - 1] for index i */
    uint32_t pool_cap, pool_used;
    uint32_t first_slots;   /* the pool's first growth */
    uint32_t free_head;     /* chain through hnext */
    uint32_t *bucket;
    uint32_t nbuckets;      /* power of two */
    uint32_t count;
    uint32_t lru_head, lru_tail;
    uint32_t last_hit;      /* consecutive packets mostly belong to one flow */
    uint32_t hand;          /* housekeeping position in the pool */
    uint64_t evictions;
    uint64_t seed;          /* keys hash_key: flow_table_set_seed */
};

static uint64_t hash_key(const struct flow_table *t, const struct flow_key *k)
{
    /* The key is 40 bytes with no holes: mix it as five words, starting
     * from the table's secret so that which keys collide cannot be known
     * from outside (as Suricata seeds its flow hash). */
    _Static_assert(sizeof(struct flow_key) == 40, "flow_key must be 40 bytes");
    uint64_t w[5];
    memcpy(w, k, sizeof w);
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ t->seed;
    for (int i = 0; i < 5; i++) {
        h ^= w[i];
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    /* MurmurHash3's finalizer: without it a change in the top bytes of the
     * last word (IPv6 clients numbered in their last bytes, fd01::1 to
     * fd01::fa0) never reached the low bits, and 4,000 such flows shared
     * one bucket */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

struct flow_table *flow_table_new(struct memcap *mc, uint32_t nbuckets, uint32_t first_slots, flow_evict_fn on_evict,
                                  void *ctx)
{
    struct flow_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->mc = mc;
    t->on_evict = on_evict;
    t->ctx = ctx;
    t->first_slots = first_slots ? first_slots : 256;
    if (!nbuckets || nbuckets > (1u << 30)) nbuckets = 1024;
    t->nbuckets = 1;
    while (t->nbuckets < nbuckets) t->nbuckets *= 2;
    t->bucket = calloc(t->nbuckets, sizeof *t->bucket);
    if (!t->bucket || !memcap_take(mc, MEM_FLOWS, t->nbuckets * sizeof *t->bucket)) {
        free(t->bucket);
        free(t);
        return NULL;
    }
    return t;
}

void flow_table_free(struct flow_table *t)
{
    if (!t) return;
    free(t->pool);
    free(t->bucket);
    free(t);
}

void flow_key_make(struct flow_key *k, uint8_t proto, const struct ns_addr *src, uint16_t sport,
                   const struct ns_addr *dst, uint16_t dport, int *side)
{
    memset(k, 0, sizeof *k);
    k->proto = proto;
    k->family = src->family;
    int c = memcmp(src->a, dst->a, 16);
    bool src_first = c < 0 || (c == 0 && sport <= dport);
    int a = src_first ? 0 : 1;
    memcpy(k->addr[a], src->a, 16);
    k->port[a] = sport;
    memcpy(k->addr[a ^ 1], dst->a, 16);
    k->port[a ^ 1] = dport;
    *side = a;
}

void flow_endpoint(const struct flow_key *k, int side, struct ns_endpoint *e)
{
    memset(e, 0, sizeof *e);
    e->addr.family = k->family;
    memcpy(e->addr.a, k->addr[side], 16);
    e->port = k->port[side];
}

static inline struct flow *at(struct flow_table *t, uint32_t i) { return &t->pool[i - 1]; }

static void lru_unlink(struct flow_table *t, uint32_t i)
{
    struct flow *f = at(t, i);
    if (f->lru_prev) at(t, f->lru_prev)->lru_next = f->lru_next; else t->lru_head = f->lru_next;
    if (f->lru_next) at(t, f->lru_next)->lru_prev = f->lru_prev; else t->lru_tail = f->lru_prev;
    f->lru_prev = f->lru_next = NIL;
}

static void lru_append(struct flow_table *t, uint32_t i)
{
    struct flow *f = at(t, i);
    f->lru_prev = t->lru_tail;
    f->lru_next = NIL;
    if (t->lru_tail) at(t, t->lru_tail)->lru_next = i; else t->lru_head = i;
    t->lru_tail = i;
}

static void unhash(struct flow_table *t, uint32_t i)
{
    struct flow *f = at(t, i);
    uint32_t *pp = &t->bucket[hash_key(t, &f->key) & (t->nbuckets - 1)];
    while (*pp && *pp != i) pp = &at(t, *pp)->hnext;
    if (*pp) *pp = f->hnext;
}

static void release(struct flow_table *t, uint32_t i)
{
    unhash(t, i);
    lru_unlink(t, i);
    struct flow *f = at(t, i);
    f->in_use = false;
    f->hnext = t->free_head;
    t->free_head = i;
    t->count--;
}

void flow_remove(struct flow_table *t, struct flow *f)
{
    release(t, (uint32_t)(f - t->pool) + 1);
}

/* Evict one flow: the oldest closed flow among the first few, else the oldest. */
static bool evict_one(struct flow_table *t)
{
    uint32_t victim = t->lru_head, i = t->lru_head;
    for (int n = 0; i && n < 8; n++, i = at(t, i)->lru_next)
        if (at(t, i)->closed) { victim = i; break; }
    if (!victim) return false;
    t->on_evict(t->ctx, at(t, victim));
    release(t, victim);
    t->evictions++;
    return true;
}

static void rehash(struct flow_table *t)
{
    uint32_t nb = t->nbuckets * 2;
    uint32_t *b = NULL;
    if (memcap_take(t->mc, MEM_FLOWS, (size_t)nb * sizeof *b)) {
        b = calloc(nb, sizeof *b);
        if (!b) memcap_give(t->mc, MEM_FLOWS, (size_t)nb * sizeof *b);
    }
    if (!b) return; /* keep the longer chains */
    for (uint32_t i = 1; i <= t->pool_used; i++) {
        struct flow *f = at(t, i);
        if (!f->in_use) continue;
        uint32_t h = hash_key(t, &f->key) & (nb - 1);
        f->hnext = b[h];
        b[h] = i;
    }
    free(t->bucket);
    memcap_give(t->mc, MEM_FLOWS, (size_t)t->nbuckets * sizeof *b);
    t->bucket = b;
    t->nbuckets = nb;
}

static uint32_t alloc_slot(struct flow_table *t)
{
    if (t->free_head) {
        uint32_t i = t->free_head;
        t->free_head = at(t, i)->hnext;
        return i;
    }
    if (t->pool_used == t->pool_cap) {
        uint32_t ncap = t->pool_cap ? t->pool_cap * 2 : t->first_slots;
        size_t grow = (size_t)(ncap - t->pool_cap) * sizeof(struct flow);
        if (!memcap_take(t->mc, MEM_FLOWS, grow)) return NIL;
        struct flow *np = realloc(t->pool, (size_t)ncap * sizeof *np);
        if (!np) { memcap_give(t->mc, MEM_FLOWS, grow); return NIL; }
        t->pool = np;
        t->pool_cap = ncap;
    }
    return ++t->pool_used;
}

/* The flow of key k in bucket h's chain: its index, NIL when none. */
static inline uint32_t chain_find(struct flow_table *t, uint32_t h, const struct flow_key *k)
{
    uint32_t i = t->bucket[h];
    while (i && memcmp(&at(t, i)->key, k, sizeof *k) != 0) i = at(t, i)->hnext;
    return i;
}

/* Flow i seen again at ts: now the most recently used. */
static inline struct flow *touch(struct flow_table *t, uint32_t i, int64_t ts)
{
    struct flow *f = at(t, i);
    f->last_ts = ts;
    if (t->lru_tail != i) { lru_unlink(t, i); lru_append(t, i); }
    return f;
}

/* Flow i found in its chain: touched, and the next lookup's first guess. */
static inline struct flow *found(struct flow_table *t, uint32_t i, int64_t ts)
{
    t->last_hit = i;
    return touch(t, i, ts);
}

struct flow *flow_find(struct flow_table *t, const struct flow_key *k, int64_t ts)
{
    uint32_t i = chain_find(t, hash_key(t, k) & (t->nbuckets - 1), k);
    return i ? found(t, i, ts) : NULL;
}

uint32_t flow_sweep(struct flow_table *t, int64_t now_ns, uint32_t max, const struct flow_sweep_rules *r)
{
    uint32_t removed = 0;
    if (!t->pool_used) return 0;
    if (max > t->pool_used) max = t->pool_used;
    for (uint32_t n = 0; n < max; n++) {
        t->hand = t->hand % t->pool_used + 1; /* 1..pool_used */
        struct flow *f = at(t, t->hand);
        if (!f->in_use) continue;
        int64_t idle = now_ns - f->last_ts;
        if (f->closed ? idle > r->linger_ns : idle > r->retire_ns) {
            (f->closed ? r->remove_fn : r->retire_fn)(r->ctx, f);
            release(t, t->hand);
            removed++;
        } else if (idle > r->idle_ns) {
            r->idle_fn(r->ctx, f);
        }
    }
    return removed;
}

struct flow *flow_lookup(struct flow_table *t, const struct flow_key *k, int64_t ts, bool *created)
{
    *created = false;
    uint32_t i = t->last_hit;
    if (i && at(t, i)->in_use && memcmp(&at(t, i)->key, k, sizeof *k) == 0) return touch(t, i, ts);
    uint32_t h = hash_key(t, k) & (t->nbuckets - 1);
    i = chain_find(t, h, k);
    if (i) return found(t, i, ts);
    i = alloc_slot(t);
    if (i == NIL) {
        if (!evict_one(t)) return NULL;
        i = alloc_slot(t);
        if (i == NIL) return NULL;
    }
    if (t->count + 1 > t->nbuckets * 2) {
        rehash(t);
        h = hash_key(t, k) & (t->nbuckets - 1);
    }
    struct flow *f = at(t, i);
    memset(f, 0, sizeof *f);
    f->key = *k;
    f->in_use = true;
    f->last_ts = ts;
    f->hnext = t->bucket[h];
    t->bucket[h] = i;
    lru_append(t, i);
    t->count++;
    t->last_hit = i;
    *created = true;
    return f;
}

void flow_foreach(struct flow_table *t, void (*fn)(void *ctx, struct flow *f), void *ctx)
{
    for (uint32_t i = t->lru_head; i; i = at(t, i)->lru_next) fn(ctx, at(t, i));
}

uint64_t flow_evictions(const struct flow_table *t) { return t->evictions; }

uint32_t flow_longest_chain(const struct flow_table *t)
{
    uint32_t longest = 0;
    for (uint32_t b = 0; b < t->nbuckets; b++) {
        uint32_t n = 0;
        for (uint32_t i = t->bucket[b]; i; i = t->pool[i - 1].hnext) n++;
        if (n > longest) longest = n;
    }
    return longest;
}

void flow_table_set_seed(struct flow_table *t, uint64_t seed)
{
    if (!t->count) t->seed = seed; /* chains already built keep their key */
}
uint32_t flow_count(const struct flow_table *t) { return t->count; }
