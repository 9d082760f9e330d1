#include "txn_table.h"
#include "txn_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Lists an entry is on (besides the hash while matchable, and the call-order
 * FIFO in call order): waiting calls in order of their last send, finished
 * transactions in order of finishing. */
enum { L_NONE = 0, L_WAIT, L_DONE };

struct entry {
    struct txn_slot slot;  /* first member: entries are found from txn pointers */
    uint64_t scope;
    int64_t release_ts;    /* done: may be handed out from this time on */
    uint32_t hnext;        /* index + 1 (hash chain, or free list) */
    uint32_t fifo_prev, fifo_next; /* index + 1, call order (call order only) */
    uint32_t prev, next;   /* index + 1, on list `list` */
    uint32_t self;         /* own index + 1 */
    uint8_t list;
    bool done, hashed, given_up, in_fifo;
};

struct list { uint32_t head, tail; };

struct tomb_slot {
    struct txn_tomb tb;
    uint32_t hnext;        /* index + 1 */
    bool live;
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
    struct list fifo;      /* call order only */
    struct list wait, done;
    uint64_t evicted, evicted_waiting;
    bool call_order;
    bool flushing;
    /* tombstones of calls evicted while waiting: a ring, hashed */
    struct tomb_slot *tombs;
    uint32_t *tomb_bucket;
    uint32_t ntombs, tomb_pos, tombs_live;
    uint64_t tombs_dropped;
    bool tombs_refused;
    uint64_t seed;         /* keys hash(): txn_table_set_seed */
};

#define CHUNK 16u /* entries per allocation: small, so a small --memcap still fits one */
#define TOMBS_MAX 4096u

static inline struct entry *at(struct txn_table *t, uint32_t i)
{
    return &t->chunks[(i - 1) / CHUNK][(i - 1) % CHUNK];
}

/* XIDs are the client's to choose: the table's secret keys the hash so
 * that which calls share a chain cannot be known from outside. */
static uint32_t hash(const struct txn_table *t, uint64_t scope, uint32_t xid)
{
    uint64_t h = (scope ^ t->seed ^ ((uint64_t)xid << 17 | xid)) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return (uint32_t)(h >> 32);
}

struct txn_table *txn_table_new(struct memcap *mc, txn_done_fn fn, void *ctx)
{
    struct txn_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->mc = mc;
    t->fn = fn;
    t->ctx = ctx;
    t->call_order = true;
    /* 4096 buckets under the default cap; a small cap (a fuzzer's analyzer)
     * starts at 256. Either doubles as calls accumulate (rehash). */
    t->nbuckets = mc->cap[MEM_PENDING] >= (64u << 20) ? 4096 : 256;
    t->bucket = calloc(t->nbuckets, sizeof *t->bucket);
    if (!t->bucket) { free(t); return NULL; }
    memcap_take(mc, MEM_PENDING, t->nbuckets * sizeof *t->bucket);
    return t;
}

void txn_table_set_seed(struct txn_table *t, uint64_t seed)
{
    if (!t->live && !t->tombs_live) t->seed = seed; /* chains already built keep their key */
}

void txn_table_set_call_order(struct txn_table *t, bool call_order)
{
    if (!t->live) t->call_order = call_order;
}

static size_t tomb_bytes(uint32_t n) { return (size_t)n * (sizeof(struct tomb_slot) + sizeof(uint32_t)); }

void txn_table_free(struct txn_table *t)
{
    if (!t) return;
    for (uint32_t i = 0; i < t->nchunks; i++) free(t->chunks[i]);
    memcap_give(t->mc, MEM_PENDING, (size_t)t->nchunks * CHUNK * sizeof(struct entry));
    free(t->chunks);
    free(t->bucket);
    memcap_give(t->mc, MEM_PENDING, (size_t)t->nbuckets * sizeof *t->bucket);
    if (t->tombs) memcap_give(t->mc, MEM_PENDING, tomb_bytes(t->ntombs));
    free(t->tombs);
    free(t->tomb_bucket);
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
        uint32_t h = hash(t, e->scope, e->slot.txn.xid) & (nb - 1);
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
    uint32_t *pp = &t->bucket[hash(t, e->scope, e->slot.txn.xid) & (t->nbuckets - 1)];
    while (*pp && *pp != i) pp = &at(t, *pp)->hnext;
    if (*pp) *pp = e->hnext;
    e->hashed = false;
}

static uint32_t index_of(const struct ns_txn *x)
{
    return ((const struct entry *)(const void *)x)->self; /* its slot (txn first) is the first member */
}

/* ---- the lists ---- */

static struct list *list_of(struct txn_table *t, uint8_t l) { return l == L_WAIT ? &t->wait : &t->done; }

static void list_del(struct txn_table *t, uint32_t i)
{
    struct entry *e = at(t, i);
    if (e->list == L_NONE) return;
    struct list *l = list_of(t, e->list);
    if (e->prev) at(t, e->prev)->next = e->next; else l->head = e->next;
    if (e->next) at(t, e->next)->prev = e->prev; else l->tail = e->prev;
    e->prev = e->next = 0;
    e->list = L_NONE;
}

static void list_push(struct txn_table *t, uint32_t i, uint8_t which)
{
    struct entry *e = at(t, i);
    list_del(t, i);
    struct list *l = list_of(t, which);
    e->list = which;
    e->prev = l->tail;
    e->next = 0;
    if (l->tail) at(t, l->tail)->next = i; else l->head = i;
    l->tail = i;
}

static void fifo_del(struct txn_table *t, uint32_t i)
{
    struct entry *e = at(t, i);
    if (!e->in_fifo) return;
    if (e->fifo_prev) at(t, e->fifo_prev)->fifo_next = e->fifo_next; else t->fifo.head = e->fifo_next;
    if (e->fifo_next) at(t, e->fifo_next)->fifo_prev = e->fifo_prev; else t->fifo.tail = e->fifo_prev;
    e->fifo_prev = e->fifo_next = 0;
    e->in_fifo = false;
}

/* Hand out entry i and free it. */
static void release(struct txn_table *t, uint32_t i)
{
    struct entry *e = at(t, i);
    list_del(t, i);
    fifo_del(t, i);
    unhash(t, i);
    t->fn(t->ctx, &e->slot.txn, e->given_up);
    e->hnext = t->free_head;
    t->free_head = i;
    t->live--;
}

/* Entry i is finished (answered, or given up with its verdict set): it
 * leaves now in completion order when nothing holds it, else it waits on
 * the done list (its linger, or its turn in call order). */
static void finish(struct txn_table *t, uint32_t i, int64_t now_ns, int64_t release_ts)
{
    struct entry *e = at(t, i);
    e->done = true;
    e->release_ts = release_ts;
    if (!t->call_order && release_ts <= now_ns && !t->flushing) { release(t, i); return; }
    list_push(t, i, L_DONE);
}

/* Give up a waiting call with this verdict. */
static void give_up(struct txn_table *t, uint32_t i, uint8_t verdict, int64_t now_ns)
{
    struct entry *e = at(t, i);
    e->given_up = true;
    e->slot.txn.verdict = verdict;
    unhash(t, i);
    list_del(t, i);
    finish(t, i, now_ns, now_ns);
}

/* ---- allocation, and making room when memory runs short ---- */

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

/* Free one entry: the oldest finished transaction (handed out before its
 * linger or its turn), else the call waiting longest since its last send,
 * handed out as still waiting (its age). False when nothing can go. */
static bool make_room(struct txn_table *t, int64_t now_ns)
{
    if (t->flushing) return false; /* never from inside a callback */
    if (t->done.head) {
        t->evicted++;
        release(t, t->done.head);
        return true;
    }
    if (t->wait.head) {
        uint32_t i = t->wait.head;
        struct entry *e = at(t, i);
        int64_t waited = now_ns - e->slot.txn.call_ts_ns;
        e->slot.txn.verdict = NS_VERDICT_EVICTED_WAITING;
        e->slot.txn.waited_ns = waited > 0 ? waited : 0;
        e->given_up = true;
        t->evicted++;
        t->evicted_waiting++;
        release(t, i);
        return true;
    }
    return false;
}

static struct entry *new_entry(struct txn_table *t, int64_t now_ns)
{
    uint32_t i = alloc_entry(t);
    while (!i && make_room(t, now_ns)) i = alloc_entry(t);
    if (!i) return NULL;
    struct entry *e = at(t, i);
    memset(&e->slot, 0, sizeof e->slot); /* once: its head used to be cleared twice */
    e->scope = 0;
    e->hnext = e->prev = e->next = e->fifo_prev = e->fifo_next = 0;
    e->list = L_NONE;
    e->done = e->hashed = e->given_up = e->in_fifo = false;
    e->release_ts = 0;
    e->self = i;
    if (t->call_order) {
        e->in_fifo = true;
        e->fifo_prev = t->fifo.tail;
        if (t->fifo.tail) at(t, t->fifo.tail)->fifo_next = i; else t->fifo.head = i;
        t->fifo.tail = i;
    }
    t->live++;
    return e;
}

/* ---- tombstones ---- */

static uint32_t *tomb_chain(struct txn_table *t, uint64_t scope, uint32_t xid)
{
    return &t->tomb_bucket[hash(t, scope, xid) & (t->ntombs - 1)];
}

static void tomb_unlink(struct txn_table *t, uint32_t k) /* k: index + 1 */
{
    struct tomb_slot *s = &t->tombs[k - 1];
    if (!s->live) return;
    uint32_t *pp = tomb_chain(t, s->tb.scope, s->tb.xid);
    while (*pp && *pp != k) pp = &t->tombs[*pp - 1].hnext;
    if (*pp) *pp = s->hnext;
    s->live = false;
    t->tombs_live--;
}

static uint32_t tomb_lookup(struct txn_table *t, uint64_t scope, uint32_t xid)
{
    if (!t->tombs_live) return 0;
    for (uint32_t k = *tomb_chain(t, scope, xid); k; k = t->tombs[k - 1].hnext)
        if (t->tombs[k - 1].tb.scope == scope && t->tombs[k - 1].tb.xid == xid) return k;
    return 0;
}

/* The table, once, when memory gets tight (not when it has run short:
 * then there would be no room for it): sized from the pending pool's
 * cap (1/16 of it, at most TOMBS_MAX tombstones, a power of two). */
static bool tombs_ready(struct txn_table *t)
{
    if (t->tombs) return true;
    if (t->tombs_refused) return false;
    uint64_t room = t->mc->cap[MEM_PENDING] / 16 / (sizeof(struct tomb_slot) + sizeof(uint32_t));
    uint32_t n = 16;
    while (n < TOMBS_MAX && (uint64_t)n * 2 <= room) n *= 2;
    if (!memcap_take(t->mc, MEM_PENDING, tomb_bytes(n))) { t->tombs_refused = true; return false; }
    t->tombs = calloc(n, sizeof *t->tombs);
    t->tomb_bucket = calloc(n, sizeof *t->tomb_bucket);
    if (!t->tombs || !t->tomb_bucket) {
        free(t->tombs);
        free(t->tomb_bucket);
        t->tombs = NULL;
        t->tomb_bucket = NULL;
        memcap_give(t->mc, MEM_PENDING, tomb_bytes(n));
        t->tombs_refused = true;
        return false;
    }
    t->ntombs = n;
    return true;
}

void txn_tomb_put(struct txn_table *t, const struct ns_txn *x, uint32_t opkey)
{
    uint32_t i = index_of(x);
    if (!i || !tombs_ready(t)) return;
    const struct entry *e = at(t, i);
    uint32_t old = tomb_lookup(t, e->scope, x->xid);
    if (old) tomb_unlink(t, old);
    uint32_t k = t->tomb_pos + 1;
    t->tomb_pos = (t->tomb_pos + 1) & (t->ntombs - 1);
    struct tomb_slot *s = &t->tombs[k - 1];
    if (s->live) { tomb_unlink(t, k); t->tombs_dropped++; }
    s->tb = (struct txn_tomb){
        .scope = e->scope, .txn_id = x->id, .call_frame = x->call_frame, .call_ts_ns = x->call_ts_ns,
        .last_send_ts_ns = x->last_send_ts_ns, .xid = x->xid, .conn_id = x->conn_id, .prog = x->prog,
        .vers = x->vers, .proc = x->proc, .auth_flavor = x->auth_flavor, .opkey = opkey, .sends = x->sends,
        .kind = x->kind, .gss_service = x->gss_service, .gss_proc = x->gss_proc, .backchannel = x->backchannel,
        .call_truncated = x->call_truncated,
    };
    uint32_t *chain = tomb_chain(t, e->scope, x->xid);
    s->hnext = *chain;
    *chain = k;
    s->live = true;
    t->tombs_live++;
}

bool txn_tomb_find(struct txn_table *t, uint64_t scope, uint32_t xid, struct txn_tomb *out, bool take)
{
    uint32_t k = tomb_lookup(t, scope, xid);
    if (!k) return false;
    if (out) *out = t->tombs[k - 1].tb;
    if (take) tomb_unlink(t, k);
    return true;
}

uint64_t txn_tombs_dropped(const struct txn_table *t) { return t->tombs_dropped; }

/* ---- the table's operations ---- */

struct ns_txn *txn_find(struct txn_table *t, uint64_t scope, uint32_t xid)
{
    for (uint32_t i = t->bucket[hash(t, scope, xid) & (t->nbuckets - 1)]; i; i = at(t, i)->hnext) {
        struct entry *e = at(t, i);
        if (e->scope == scope && e->slot.txn.xid == xid) return &e->slot.txn;
    }
    return NULL;
}

struct ns_txn *txn_new_call(struct txn_table *t, uint64_t scope, uint32_t xid, int64_t now_ns)
{
    /* tombstones once memory gets tight (three quarters of the pool), while
     * there is still room for them */
    if (!t->tombs && !t->tombs_refused && t->mc->used[MEM_PENDING] >= t->mc->cap[MEM_PENDING] / 4 * 3)
        tombs_ready(t);
    struct entry *e = new_entry(t, now_ns);
    if (!e) return NULL;
    uint32_t i = e->self;
    e->scope = scope;
    e->slot.txn.xid = xid;
    if (t->live > t->nbuckets * 2) rehash(t);
    uint32_t h = hash(t, scope, xid) & (t->nbuckets - 1);
    e->hnext = t->bucket[h];
    t->bucket[h] = i;
    e->hashed = true;
    list_push(t, i, L_WAIT);
    /* the XID names a new call now: an older evicted one's reply can no
     * longer be told from this one's */
    if (t->tombs_live) {
        uint32_t k = tomb_lookup(t, scope, xid);
        if (k) tomb_unlink(t, k);
    }
    return &e->slot.txn;
}

struct ns_txn *txn_new_done(struct txn_table *t, int64_t now_ns)
{
    struct entry *e = new_entry(t, now_ns);
    if (!e) return NULL;
    e->done = true;
    e->release_ts = now_ns;
    list_push(t, e->self, L_DONE);
    return &e->slot.txn;
}

void txn_resent(struct txn_table *t, struct ns_txn *x)
{
    uint32_t i = index_of(x);
    if (i && at(t, i)->list == L_WAIT) list_push(t, i, L_WAIT); /* to the tail: the latest send */
}

void txn_mark_done(struct txn_table *t, struct ns_txn *x, int64_t now_ns, int64_t linger_ns)
{
    uint32_t i = index_of(x);
    if (!i) return;
    list_del(t, i);
    finish(t, i, now_ns, now_ns + linger_ns);
}

void txn_forget(struct txn_table *t, struct ns_txn *x)
{
    uint32_t i = index_of(x);
    if (!i) return;
    struct entry *e = at(t, i);
    if (e->done) { unhash(t, i); return; }
    /* handed out at once (call order: at its turn), not held until it times out */
    give_up(t, i, NS_VERDICT_SUPERSEDED, INT64_MIN);
}

void txn_flush(struct txn_table *t, int64_t now_ns, int64_t timeout_ns)
{
    if (t->flushing) return; /* a callback must not re-enter */
    t->flushing = true;
    if (timeout_ns < 0) {
        /* end of input: everything, finished ones first in completion order */
        if (t->call_order) {
            while (t->fifo.head) {
                struct entry *e = at(t, t->fifo.head);
                if (!e->done) { e->given_up = true; e->slot.txn.verdict = NS_VERDICT_UNANSWERED_AT_END; }
                release(t, t->fifo.head);
            }
        } else {
            while (t->done.head) release(t, t->done.head);
            while (t->wait.head) {
                struct entry *e = at(t, t->wait.head);
                e->given_up = true;
                e->slot.txn.verdict = NS_VERDICT_UNANSWERED_AT_END;
                release(t, t->wait.head);
            }
        }
        t->flushing = false;
        return;
    }
    /* calls unanswered past the timeout, each by its own last send (the
     * waiting list is in order of last send) */
    while (t->wait.head) {
        uint32_t i = t->wait.head;
        struct entry *e = at(t, i);
        int64_t sent = e->slot.txn.last_send_ts_ns ? e->slot.txn.last_send_ts_ns : e->slot.txn.call_ts_ns;
        if (now_ns - sent <= timeout_ns) break;
        e->given_up = true;
        e->slot.txn.verdict = NS_VERDICT_TIMED_OUT;
        unhash(t, i);
        if (t->call_order) { list_push(t, i, L_DONE); e->done = true; e->release_ts = now_ns; }
        else release(t, i);
    }
    if (t->call_order) {
        while (t->fifo.head) {
            struct entry *e = at(t, t->fifo.head);
            if (!e->done || now_ns < e->release_ts) break;
            release(t, t->fifo.head);
        }
    } else {
        while (t->done.head && at(t, t->done.head)->release_ts <= now_ns) release(t, t->done.head);
    }
    t->flushing = false;
}

uint64_t txn_evicted(const struct txn_table *t) { return t->evicted; }
uint64_t txn_evicted_waiting(const struct txn_table *t) { return t->evicted_waiting; }
uint32_t txn_outstanding(const struct txn_table *t) { return t->live; }
