/* The pair table of the UDP timing analyzer: at most UDP_PAIRS_MAX pairs,
 * the one idle longest evicted (first in order on ties). Pairs live in
 * chunks that are never reallocated, so a view pointer stays valid until its
 * pair is evicted; a hash on the key finds them, an array keeps the order
 * of first appearance. Storage grows as the old doubling array did. */
#include <stdlib.h>
#include <string.h>

#include "udp_int.h"

bool udp_addr_eq(const struct ns_addr *a, const struct ns_addr *b)
{
    return a->family == b->family && memcmp(a->a, b->a, 16) == 0;
}

static bool key_eq(const struct pair *p, const struct ns_addr *cl, const struct ns_addr *sv, int port)
{
    return (port < 0 || p->v.server.port == port) && udp_addr_eq(&p->v.client, cl) && udp_addr_eq(&p->v.server.addr, sv);
}

/* FNV-1a over the key: deterministic, no seed needed (at most 256 keys). */
static size_t key_hash(const struct ns_addr *cl, const struct ns_addr *sv, uint16_t port)
{
    uint32_t h = 2166136261u;
    h = (h ^ cl->family) * 16777619u;
    for (int i = 0; i < 16; i++) h = (h ^ cl->a[i]) * 16777619u;
    h = (h ^ sv->family) * 16777619u;
    for (int i = 0; i < 16; i++) h = (h ^ sv->a[i]) * 16777619u;
    h = (h ^ (port >> 8)) * 16777619u;
    h = (h ^ (port & 0xff)) * 16777619u;
    return h & (UDP_HASH_BUCKETS - 1);
}

struct pair *udp_pair_find(struct udp_timing *u, const struct ns_addr *cl, const struct ns_addr *sv, int port)
{
    if (u->last && key_eq(u->last, cl, sv, port)) return u->last;
    if (!u->n) return NULL;
    struct pair *p = NULL;
    if (port >= 0) {
        p = u->bucket[key_hash(cl, sv, (uint16_t)port)];
        while (p && !key_eq(p, cl, sv, port)) p = p->hnext;
    } else { /* only for fragments without their UDP header: rare */
        for (size_t i = 0; i < u->n && !p; i++)
            if (key_eq(u->order[i], cl, sv, -1)) p = u->order[i];
    }
    if (p) u->last = p;
    return p;
}

/* One more chunk of slots, as the array used to double (false: no memory). */
static bool grow(struct udp_timing *u)
{
    if (u->cap >= UDP_PAIRS_MAX || u->nchunks == UDP_CHUNKS) return false;
    if (!u->order) {
        size_t idx = UDP_PAIRS_MAX * sizeof *u->order + UDP_HASH_BUCKETS * sizeof *u->bucket;
        if (!memcap_take(u->mc, MEM_SESSIONS, idx)) return false;
        u->order = calloc(UDP_PAIRS_MAX, sizeof *u->order);
        u->bucket = calloc(UDP_HASH_BUCKETS, sizeof *u->bucket);
        if (!u->order || !u->bucket) {
            free(u->order);
            free(u->bucket);
            u->order = NULL;
            u->bucket = NULL;
            memcap_give(u->mc, MEM_SESSIONS, idx);
            return false;
        }
    }
    size_t ncap = u->cap ? u->cap * 2 : 8;
    if (ncap > UDP_PAIRS_MAX) ncap = UDP_PAIRS_MAX;
    size_t add = ncap - u->cap;
    if (!memcap_take(u->mc, MEM_SESSIONS, add * sizeof(struct pair))) return false;
    struct pair *c = malloc(add * sizeof *c);
    if (!c) {
        memcap_give(u->mc, MEM_SESSIONS, add * sizeof *c);
        return false;
    }
    u->chunk[u->nchunks++] = c;
    for (size_t i = add; i-- > 0;) { c[i].hnext = u->free; u->free = &c[i]; }
    u->cap = ncap;
    return true;
}

static void unlink_pair(struct udp_timing *u, size_t at)
{
    struct pair *p = u->order[at];
    struct pair **pp = &u->bucket[key_hash(&p->v.client, &p->v.server.addr, p->v.server.port)];
    while (*pp != p) pp = &(*pp)->hnext;
    *pp = p->hnext;
    memmove(&u->order[at], &u->order[at + 1], (u->n - at - 1) * sizeof *u->order);
    u->n--;
    if (u->last == p) u->last = NULL;
    p->hnext = u->free;
    u->free = p;
}

void udp_pair_refresh(struct pair *p)
{
    for (unsigned k = 0; k < NS_UDP_TIMERS; k++) {
        p->v.cls[k].rto_ns = udp_rtt_rto(&p->rtt, k);
        p->v.cls[k].srtt_ns = udp_rtt_srtt(&p->rtt, k);
        p->v.cls[k].rttvar_ns = udp_rtt_dev(&p->rtt, k);
    }
}

struct pair *udp_pair_get(struct udp_timing *u, const struct ns_addr *cl, const struct ns_endpoint *sv, int64_t now)
{
    struct pair *p = udp_pair_find(u, cl, &sv->addr, sv->port);
    if (p) return p;
    if (!u->free && !grow(u)) {
        if (u->n == 0) return NULL;
        size_t old = 0;
        for (size_t i = 1; i < u->n; i++)
            if (u->order[i]->v.last_ts_ns < u->order[old]->v.last_ts_ns) old = i;
        unlink_pair(u, old);
        u->evicted_pairs++;
    }
    p = u->free;
    u->free = p->hnext;
    memset(p, 0, sizeof *p);
    p->v.client = *cl;
    p->v.server = *sv;
    p->v.first_ts_ns = p->v.last_ts_ns = now;
    for (unsigned k = 0; k < NS_UDP_TIMERS; k++) p->v.cls[k].rtt_min_ns = p->v.cls[k].gap_min_ns = -1;
    for (unsigned k = 0; k < UDP_FK_KINDS; k++) p->fidx[k] = UDP_FIDX_NONE;
    udp_rtt_init(&p->rtt, u->cfg.timeo_ns);
    udp_pair_refresh(p);
    size_t b = key_hash(cl, &sv->addr, sv->port);
    p->hnext = u->bucket[b];
    u->bucket[b] = p;
    u->order[u->n++] = p;
    u->last = p;
    return p;
}

void udp_pairs_free(struct udp_timing *u)
{
    for (size_t i = 0; i < u->nchunks; i++) {
        size_t sz = i == 0 ? 8 : (size_t)8 << (i - 1); /* as grow() made them */
        memcap_give(u->mc, MEM_SESSIONS, sz * sizeof(struct pair));
        free(u->chunk[i]);
    }
    if (u->order)
        memcap_give(u->mc, MEM_SESSIONS, UDP_PAIRS_MAX * sizeof *u->order + UDP_HASH_BUCKETS * sizeof *u->bucket);
    free(u->order);
    free(u->bucket);
}

/* ---- lookups for the views ---- */

const struct ns_udp_pair *udp_timing_pair_by_key(const struct udp_timing *u, const struct ns_addr *client,
                                                 const struct ns_endpoint *server)
{
    if (!u->n) return NULL;
    const struct pair *p = u->bucket[key_hash(client, &server->addr, server->port)];
    while (p && !key_eq(p, client, &server->addr, server->port)) p = p->hnext;
    return p ? &p->v : NULL;
}

size_t udp_timing_pair_count(const struct udp_timing *u) { return u->n; }
const struct ns_udp_pair *udp_timing_pair(const struct udp_timing *u, size_t i)
{
    return i < u->n ? &u->order[i]->v : NULL;
}
uint64_t udp_timing_evicted_pairs(const struct udp_timing *u) { return u->evicted_pairs; }
