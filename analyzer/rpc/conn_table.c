/* Connection records in fixed chunks (they never move), found by id through
 * a small open-addressing table, closed ones queued oldest first. */
#include "conn_table.h"

#include <stdlib.h>
#include <string.h>

#define CONN_CHUNK 64    /* records per allocation */
#define CLOSED_SHARE 4   /* closed records may use this fraction of the flows pool */
/* and at most this many: memory stays flat however long the capture (a
 * capture 10x longer, with 10x the connections, peaks at the same RSS) */
#define CLOSED_MAX 4096

struct conn_rec {
    struct ns_conn c;
    uint32_t next;       /* closed queue or free list: slot + 1, 0 = end */
    uint32_t pending;    /* transactions of it still in the RPC stage */
    bool flow_gone, queued;
    /* TCP segments (ns_conn_tcp), saturating: in what was the record's
     * padding, so that a record costs the memory cap what it did */
    uint16_t tcp_ooo;
    uint32_t tcp_retrans;
};
_Static_assert(sizeof(struct conn_rec) <= sizeof(struct ns_conn) + 16, "a connection record grew: the memory cap fits fewer");

struct conn_table {
    struct memcap *mc;
    struct conn_rec **chunks;
    uint32_t nchunks, chunks_cap;
    uint32_t high;                     /* slots handed out at least once */
    uint32_t free_head;                /* slot + 1 */
    uint32_t closed_head, closed_tail; /* slot + 1 */
    uint32_t nclosed, max_closed;
    uint32_t *hash, hcap;              /* slot + 1, 0 = empty; key: the record's id */
    uint32_t last_slot;                /* slot + 1 of the record found last */
    uint32_t last_id, kept;
    uint64_t dropped;
    struct ns_conn sum;
};

static struct conn_rec *slot_rec(const struct conn_table *t, uint32_t s)
{
    return &t->chunks[s / CONN_CHUNK][s % CONN_CHUNK];
}

static uint32_t home(const struct conn_table *t, uint32_t id) { return (id * 2654435761u) & (t->hcap - 1); }

struct conn_table *conn_table_new(struct memcap *mc)
{
    struct conn_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->mc = mc;
    uint64_t cap = mc->cap[MEM_FLOWS] / CLOSED_SHARE / sizeof(struct conn_rec);
    t->max_closed = cap > CLOSED_MAX ? CLOSED_MAX : (uint32_t)cap;
    t->sum.closed = true;
    return t;
}

void conn_table_free(struct conn_table *t)
{
    if (!t) return;
    for (uint32_t i = 0; i < t->nchunks; i++) {
        memcap_give(t->mc, MEM_FLOWS, CONN_CHUNK * sizeof(struct conn_rec));
        free(t->chunks[i]);
    }
    memcap_give(t->mc, MEM_FLOWS, t->chunks_cap * sizeof *t->chunks);
    memcap_give(t->mc, MEM_FLOWS, t->hcap * sizeof *t->hash);
    free(t->chunks);
    free(t->hash);
    free(t);
}

static void hash_put(uint32_t *h, uint32_t mask, uint32_t key_home, uint32_t slot1)
{
    uint32_t i = key_home;
    while (h[i]) i = (i + 1) & mask;
    h[i] = slot1;
}

/* Room in the id table for n slots (load at most one half). */
static bool hash_room(struct conn_table *t, uint32_t n)
{
    if ((uint64_t)n * 2 <= t->hcap) return true;
    uint32_t ncap = t->hcap ? t->hcap : 128;
    while ((uint64_t)ncap < (uint64_t)n * 2) ncap *= 2;
    if (!memcap_take(t->mc, MEM_FLOWS, (size_t)ncap * sizeof *t->hash)) return false;
    uint32_t *nh = calloc(ncap, sizeof *nh);
    if (!nh) { memcap_give(t->mc, MEM_FLOWS, (size_t)ncap * sizeof *nh); return false; }
    uint32_t ocap = t->hcap;
    uint32_t *oh = t->hash;
    t->hcap = ncap;
    for (uint32_t i = 0; i < ocap; i++)
        if (oh[i]) hash_put(nh, ncap - 1, home(t, slot_rec(t, oh[i] - 1)->c.id), oh[i]);
    free(oh);
    memcap_give(t->mc, MEM_FLOWS, (size_t)ocap * sizeof *oh);
    t->hash = nh;
    return true;
}

/* Index of id in the id table, or hcap when absent. */
static uint32_t hash_find(const struct conn_table *t, uint32_t id)
{
    if (!t->hcap || !id) return t->hcap;
    uint32_t mask = t->hcap - 1;
    for (uint32_t i = home(t, id);; i = (i + 1) & mask) {
        if (!t->hash[i]) return t->hcap;
        if (slot_rec(t, t->hash[i] - 1)->c.id == id) return i;
    }
}

/* Linear probing deletion: shift back the entries that probed past i. */
static void hash_del(struct conn_table *t, uint32_t i)
{
    uint32_t mask = t->hcap - 1;
    for (uint32_t j = (i + 1) & mask; t->hash[j]; j = (j + 1) & mask) {
        uint32_t k = home(t, slot_rec(t, t->hash[j] - 1)->c.id);
        bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (stays) continue;
        t->hash[i] = t->hash[j];
        i = j;
    }
    t->hash[i] = 0;
}

/* One more chunk of slots, within the cap. */
static bool grow(struct conn_table *t)
{
    if (t->nchunks == t->chunks_cap) {
        uint32_t ncap = t->chunks_cap ? t->chunks_cap * 2 : 8;
        size_t more = (size_t)(ncap - t->chunks_cap) * sizeof *t->chunks;
        if (!memcap_take(t->mc, MEM_FLOWS, more)) return false;
        struct conn_rec **nc = realloc(t->chunks, ncap * sizeof *nc);
        if (!nc) { memcap_give(t->mc, MEM_FLOWS, more); return false; }
        t->chunks = nc;
        t->chunks_cap = ncap;
    }
    if (!hash_room(t, (t->nchunks + 1) * CONN_CHUNK)) return false;
    if (!memcap_take(t->mc, MEM_FLOWS, CONN_CHUNK * sizeof(struct conn_rec))) return false;
    struct conn_rec *chunk = malloc(CONN_CHUNK * sizeof *chunk);
    if (!chunk) { memcap_give(t->mc, MEM_FLOWS, CONN_CHUNK * sizeof(struct conn_rec)); return false; }
    t->chunks[t->nchunks++] = chunk;
    return true;
}

static void add_to_sum(struct ns_conn *s, const struct ns_conn *c, bool first)
{
    if (first || c->first_ts_ns < s->first_ts_ns) s->first_ts_ns = c->first_ts_ns;
    if (first || c->last_ts_ns > s->last_ts_ns) s->last_ts_ns = c->last_ts_ns;
    s->frames += c->frames;
    s->calls += c->calls;
    s->replies += c->replies;
    s->backchannel_calls += c->backchannel_calls;
    s->bytes_to_server += c->bytes_to_server;
    s->bytes_to_client += c->bytes_to_client;
    s->missing_bytes += c->missing_bytes;
    s->gaps = s->gaps + c->gaps < s->gaps ? UINT32_MAX : s->gaps + c->gaps;
    s->resyncs = s->resyncs + c->resyncs < s->resyncs ? UINT32_MAX : s->resyncs + c->resyncs;
    s->nfs_versions |= c->nfs_versions;
}

/* Drop the oldest closed record; its slot goes to the free list. */
static void drop_oldest(struct conn_table *t)
{
    uint32_t s = t->closed_head - 1;
    struct conn_rec *r = slot_rec(t, s);
    t->closed_head = r->next;
    if (!t->closed_head) t->closed_tail = 0;
    t->nclosed--;
    add_to_sum(&t->sum, &r->c, t->dropped == 0);
    t->dropped++;
    hash_del(t, hash_find(t, r->c.id));
    memset(r, 0, sizeof *r);
    r->next = t->free_head;
    t->free_head = s + 1;
    t->kept--;
}

struct ns_conn *conn_table_add(struct conn_table *t)
{
    uint32_t s;
    if (!t->free_head && t->high == t->nchunks * CONN_CHUNK && !grow(t)) {
        if (!t->nclosed) return NULL;
        drop_oldest(t); /* the pool is full: the oldest closed record makes room */
    }
    if (t->free_head) {
        s = t->free_head - 1;
        t->free_head = slot_rec(t, s)->next;
    } else {
        s = t->high++;
    }
    struct conn_rec *r = slot_rec(t, s);
    memset(r, 0, sizeof *r);
    r->c.id = ++t->last_id;
    hash_put(t->hash, t->hcap - 1, home(t, r->c.id), s + 1);
    t->kept++;
    return &r->c;
}

static struct conn_rec *rec_of(struct conn_table *t, uint32_t id)
{
    /* A message asks for its connection several times in a row. A dropped
     * or freed record is zeroed, so a stale slot never matches an id. */
    if (t->last_slot && id) {
        struct conn_rec *r = slot_rec(t, t->last_slot - 1);
        if (r->c.id == id) return r;
    }
    uint32_t i = hash_find(t, id);
    if (i == t->hcap) return NULL;
    t->last_slot = t->hash[i];
    return slot_rec(t, t->hash[i] - 1);
}

struct ns_conn *conn_table_get(struct conn_table *t, uint32_t id)
{
    struct conn_rec *r = rec_of(t, id);
    return r ? &r->c : NULL;
}

bool conn_table_tcp_get(struct conn_table *t, uint32_t id, struct ns_conn_tcp *out)
{
    struct conn_rec *r = rec_of(t, id);
    *out = r ? (struct ns_conn_tcp){r->tcp_retrans, r->tcp_ooo} : (struct ns_conn_tcp){0};
    return r != NULL;
}

void conn_table_tcp_add(struct conn_table *t, uint32_t id, uint64_t retrans, uint64_t ooo)
{
    struct conn_rec *r = rec_of(t, id);
    if (!r) return;
    r->tcp_retrans = retrans > UINT32_MAX - r->tcp_retrans ? UINT32_MAX : r->tcp_retrans + (uint32_t)retrans;
    r->tcp_ooo = ooo > (uint64_t)(UINT16_MAX - r->tcp_ooo) ? UINT16_MAX : (uint16_t)(r->tcp_ooo + ooo);
}

uint32_t conn_table_last_id(const struct conn_table *t) { return t->last_id; }
uint32_t conn_table_kept(const struct conn_table *t) { return t->kept; }
uint64_t conn_table_dropped(const struct conn_table *t) { return t->dropped; }
const struct ns_conn *conn_table_dropped_sum(const struct conn_table *t) { return &t->sum; }

/* Closed for good (flow gone, nothing outstanding): join the queue. */
static void maybe_close(struct conn_table *t, struct conn_rec *r)
{
    if (!r->flow_gone || r->pending || r->queued) return;
    r->queued = true;
    r->next = 0;
    uint32_t s1 = hash_find(t, r->c.id);
    s1 = t->hash[s1];
    if (t->closed_tail) slot_rec(t, t->closed_tail - 1)->next = s1;
    else t->closed_head = s1;
    t->closed_tail = s1;
    t->nclosed++;
    while (t->nclosed > t->max_closed) drop_oldest(t);
}

void conn_table_flow_gone(struct conn_table *t, uint32_t id)
{
    struct conn_rec *r = rec_of(t, id);
    if (!r || r->flow_gone) return;
    r->flow_gone = true;
    maybe_close(t, r);
}

void conn_table_txn_start(struct conn_table *t, uint32_t id)
{
    struct conn_rec *r = rec_of(t, id);
    if (r) r->pending++;
}

void conn_table_txn_end(struct conn_table *t, uint32_t id)
{
    struct conn_rec *r = rec_of(t, id);
    if (!r || !r->pending) return;
    r->pending--;
    maybe_close(t, r);
}
