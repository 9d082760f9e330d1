/* Fragment trains keyed by (src, dst, id, proto). Each keeps a 64 KiB buffer
 * and the captured/wire extent of every fragment; the first copy of a byte
 * wins (overlaps are ignored, as most stacks do). Trains are few and live
 * briefly, so a small array searched linearly is enough; the array is capped
 * and the oldest train is evicted when full. */
#include "ipfrag.h"

#include <stdlib.h>
#include <string.h>

#define MAX_FRAGS 64
#define DGRAM_MAX 65536u
#define TRAINS_MAX 256u
#define SPARES_MAX 4u /* a datagram lost to a fragment lingers beside the next ones */

struct frag_range { uint32_t off, wire, cap; };

struct train {
    struct net_pkt key;       /* src, dst, proto, frag_id */
    int64_t first_ts;
    uint32_t total;           /* known once the last fragment is seen */
    bool have_last;
    uint16_t nr;
    struct frag_range r[MAX_FRAGS];
    uint8_t *buf;
};

struct ipfrag_table {
    struct memcap *mc;
    ipfrag_fn fn;
    void *ctx;
    struct train *t;
    uint32_t n, cap; /* cap grows to TRAINS_MAX */
    uint64_t evicted;
    /* Buffers of trains dropped, for the next trains: a capture of
     * fragmented datagrams would otherwise take and give back 64 KiB per
     * datagram (issue 21). Not counted in the cap, as memory the allocator
     * keeps after a free is not: SPARES_MAX buffers at most. */
    uint8_t *spare[SPARES_MAX];
    uint32_t nspare;
};

#define TRAIN_BYTES (sizeof(struct train) + DGRAM_MAX)

struct ipfrag_table *ipfrag_new(struct memcap *mc, ipfrag_fn fn, void *ctx)
{
    struct ipfrag_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->mc = mc;
    t->fn = fn;
    t->ctx = ctx;
    return t; /* the train array grows on the first fragments (most captures have none) */
}

static void drop_train(struct ipfrag_table *t, uint32_t i)
{
    if (t->nspare < SPARES_MAX) t->spare[t->nspare++] = t->t[i].buf;
    else free(t->t[i].buf);
    memcap_give(t->mc, MEM_FRAGMENTS, TRAIN_BYTES);
    t->t[i] = t->t[--t->n];
}

void ipfrag_free(struct ipfrag_table *t)
{
    if (!t) return;
    while (t->n) drop_train(t, 0);
    while (t->nspare) free(t->spare[--t->nspare]);
    free(t->t);
    free(t);
}

static bool same_key(const struct net_pkt *a, const struct net_pkt *b)
{
    return a->frag_id == b->frag_id && a->proto == b->proto && a->ipver == b->ipver &&
           memcmp(a->src.a, b->src.a, 16) == 0 && memcmp(a->dst.a, b->dst.a, 16) == 0;
}

static int cmp_range(const void *a, const void *b)
{
    const struct frag_range *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Append a span, merging a hole into a hole before it. */
static void put_span(struct ns_span *spans, uint32_t *ns, const uint8_t *data, uint32_t len)
{
    if (!data && *ns && !spans[*ns - 1].data) { spans[*ns - 1].len += len; return; }
    spans[(*ns)++] = (struct ns_span){data, len};
}

/* Deliver the train as a message (captured spans and holes). Each fragment
 * adds at most a hole before it, its captured bytes and a hole for its
 * uncaptured rest; holes merge, so IPFRAG_MAX_SPANS always suffices. */
static void deliver(struct ipfrag_table *t, struct train *tr, bool complete)
{
    struct ns_span spans[IPFRAG_MAX_SPANS];
    _Static_assert(IPFRAG_MAX_SPANS >= 3 * MAX_FRAGS, "three spans per fragment");
    uint32_t ns = 0, pos = 0;
    qsort(tr->r, tr->nr, sizeof tr->r[0], cmp_range);
    uint32_t total = tr->have_last ? tr->total : 0;
    for (uint32_t i = 0; i < tr->nr; i++) {
        struct frag_range *r = &tr->r[i];
        if (r->off + r->wire > total) total = r->off + r->wire;
    }
    for (uint32_t i = 0; i < tr->nr && pos < total; i++) {
        struct frag_range *r = &tr->r[i];
        if (r->off + r->wire <= pos) continue;
        uint32_t skip = r->off > pos ? 0 : pos - r->off;
        if (r->off > pos) { put_span(spans, &ns, NULL, r->off - pos); pos = r->off; }
        if (r->cap > skip) {
            put_span(spans, &ns, tr->buf + pos, r->cap - skip);
            pos += r->cap - skip;
        }
        if (r->off + r->wire > pos) {
            put_span(spans, &ns, NULL, r->off + r->wire - pos);
            pos = r->off + r->wire;
        }
    }
    uint32_t maxlen = 0;
    for (uint32_t i = 0; i < tr->nr; i++)
        if (tr->r[i].wire > maxlen) maxlen = tr->r[i].wire;
    struct ipfrag_done d = {&tr->key, {spans, ns, pos}, tr->nr, complete, tr->first_ts, maxlen};
    t->fn(t->ctx, &d);
}

/* true if fragments cover [0, total) on the wire. */
static bool covered(struct train *tr)
{
    if (!tr->have_last) return false;
    qsort(tr->r, tr->nr, sizeof tr->r[0], cmp_range);
    uint32_t pos = 0;
    for (uint32_t i = 0; i < tr->nr; i++) {
        if (tr->r[i].off > pos) return false;
        if (tr->r[i].off + tr->r[i].wire > pos) pos = tr->r[i].off + tr->r[i].wire;
    }
    return pos >= tr->total;
}

/* Room for one more train in the array, up to TRAINS_MAX. */
static void grow(struct ipfrag_table *t)
{
    if (t->n < t->cap || t->cap == TRAINS_MAX) return;
    uint32_t ncap = t->cap ? t->cap * 2 : 8;
    if (ncap > TRAINS_MAX) ncap = TRAINS_MAX;
    struct train *nt = realloc(t->t, ncap * sizeof *nt);
    if (!nt) return;
    t->t = nt;
    t->cap = ncap;
}

static struct train *new_train(struct ipfrag_table *t, const struct net_pkt *p, int64_t ts)
{
    grow(t);
    if (t->n == t->cap || !memcap_take(t->mc, MEM_FRAGMENTS, TRAIN_BYTES)) {
        if (t->n == 0) return NULL;
        /* Evict the oldest train. */
        uint32_t old = 0;
        for (uint32_t i = 1; i < t->n; i++)
            if (t->t[i].first_ts < t->t[old].first_ts) old = i;
        deliver(t, &t->t[old], false);
        drop_train(t, old);
        t->evicted++;
        if (!memcap_take(t->mc, MEM_FRAGMENTS, TRAIN_BYTES)) return NULL;
    }
    uint8_t *buf = t->nspare ? t->spare[--t->nspare] : malloc(DGRAM_MAX);
    if (!buf) { memcap_give(t->mc, MEM_FRAGMENTS, TRAIN_BYTES); return NULL; }
    struct train *tr = &t->t[t->n++];
    memset(tr, 0, sizeof *tr);
    tr->key = *p;
    tr->first_ts = ts;
    tr->buf = buf;
    return tr;
}

bool ipfrag_add(struct ipfrag_table *t, const struct net_pkt *p, int64_t ts_ns)
{
    if (p->frag_offset >= DGRAM_MAX || p->l4_len > DGRAM_MAX - p->frag_offset) return false;
    if (p->more_fragments && (p->l4_len == 0 || p->l4_len % 8)) return false;
    struct train *tr = NULL;
    for (uint32_t i = 0; i < t->n; i++)
        if (same_key(&t->t[i].key, p)) { tr = &t->t[i]; break; }
    if (!tr && !(tr = new_train(t, p, ts_ns))) return false;
    if (tr->nr == MAX_FRAGS) return false;
    if (!p->more_fragments) {
        if (tr->have_last && tr->total != p->frag_offset + p->l4_len) return false;
        tr->have_last = true;
        tr->total = p->frag_offset + p->l4_len;
    }
    /* Keep the first copy of each byte: copy only what no earlier fragment covered. */
    uint32_t cap = p->l4_caplen < p->l4_len ? p->l4_caplen : p->l4_len;
    for (uint32_t b = 0; b < cap;) {
        uint32_t at = p->frag_offset + b, run = cap - b;
        bool taken = false;
        for (uint32_t i = 0; i < tr->nr; i++) {
            const struct frag_range *r = &tr->r[i];
            if (at >= r->off && at < r->off + r->cap) { taken = true; run = r->off + r->cap - at; break; }
            if (r->off > at && r->off - at < run) run = r->off - at;
        }
        if (run > cap - b) run = cap - b;
        if (!taken && !net_l4_copy(p, b, tr->buf + at, run)) return false;
        b += run;
    }
    tr->r[tr->nr++] = (struct frag_range){p->frag_offset, p->l4_len, cap};
    tr->key.more_fragments = false;
    if (covered(tr)) {
        uint32_t idx = (uint32_t)(tr - t->t);
        deliver(t, tr, true);
        drop_train(t, idx);
    }
    return true;
}

void ipfrag_expire(struct ipfrag_table *t, int64_t now_ns, int64_t max_age_ns)
{
    for (uint32_t i = 0; i < t->n;) {
        if (max_age_ns < 0 || now_ns - t->t[i].first_ts > max_age_ns) {
            deliver(t, &t->t[i], false);
            drop_train(t, i);
        } else {
            i++;
        }
    }
}

uint64_t ipfrag_evicted(const struct ipfrag_table *t) { return t->evicted; }
