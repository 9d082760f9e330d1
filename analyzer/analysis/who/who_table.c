#include "who_table.h"

#include <stdlib.h>
#include <string.h>

uint32_t who_hash(const uint8_t *key, uint32_t len)
{
    /* four bytes a step (handles are 8 to 128 bytes): multiply-xorshift */
    uint64_t h = 0x9e3779b97f4a7c15ull ^ len;
    uint32_t i = 0;
    for (; i + 4 <= len; i += 4) {
        uint32_t w;
        memcpy(&w, key + i, 4);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
    }
    for (; i < len; i++) h = (h ^ key[i]) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return (uint32_t)h;
}

bool who_table_init(struct who_table *t, struct memcap *mc, size_t payload, uint32_t max, unsigned share_div)
{
    memset(t, 0, sizeof *t);
    t->mc = mc;
    t->stride = (sizeof(struct who_head) + payload + 7) & ~(size_t)7;
    if (mc && share_div) {
        uint64_t fit = mc->cap[MEM_SESSIONS] / share_div / (t->stride + 2 * sizeof(uint32_t));
        if (fit < max) max = fit < 64 ? 64 : (uint32_t)fit;
    }
    t->max = max;
    uint32_t nb = 64; /* grows with the records (grow()): an idle table costs little */
    if (mc && !memcap_take(mc, MEM_SESSIONS, nb * sizeof *t->bucket)) return false;
    t->bucket = malloc(nb * sizeof *t->bucket);
    if (!t->bucket) {
        if (mc) memcap_give(mc, MEM_SESSIONS, nb * sizeof *t->bucket);
        return false;
    }
    memset(t->bucket, 0xff, nb * sizeof *t->bucket);
    t->mask = nb - 1;
    t->lru_head = t->lru_tail = WHO_NONE;
    return true;
}

void who_table_free(struct who_table *t)
{
    if (t->mc) memcap_give(t->mc, MEM_SESSIONS, (size_t)(t->mask + 1) * sizeof *t->bucket + (size_t)t->cap * t->stride);
    free(t->bucket);
    free(t->rec);
    memset(t, 0, sizeof *t);
}

static void lru_unlink(struct who_table *t, uint32_t i)
{
    struct who_head *h = who_rec(t, i);
    if (h->lru_prev != WHO_NONE) who_rec(t, h->lru_prev)->lru_next = h->lru_next;
    else t->lru_head = h->lru_next;
    if (h->lru_next != WHO_NONE) who_rec(t, h->lru_next)->lru_prev = h->lru_prev;
    else t->lru_tail = h->lru_prev;
}

static void lru_front(struct who_table *t, uint32_t i)
{
    struct who_head *h = who_rec(t, i);
    h->lru_prev = WHO_NONE;
    h->lru_next = t->lru_head;
    if (t->lru_head != WHO_NONE) who_rec(t, t->lru_head)->lru_prev = i;
    t->lru_head = i;
    if (t->lru_tail == WHO_NONE) t->lru_tail = i;
}

/* An empty record goes to the tail: it is the first reused. */
static void lru_back(struct who_table *t, uint32_t i)
{
    struct who_head *h = who_rec(t, i);
    h->lru_next = WHO_NONE;
    h->lru_prev = t->lru_tail;
    if (t->lru_tail != WHO_NONE) who_rec(t, t->lru_tail)->lru_next = i;
    t->lru_tail = i;
    if (t->lru_head == WHO_NONE) t->lru_head = i;
}

uint32_t who_find(struct who_table *t, const uint8_t *key, uint32_t len, uint32_t hash, bool touch)
{
    for (uint32_t i = t->bucket[hash & t->mask]; i != WHO_NONE; i = who_rec(t, i)->chain) {
        struct who_head *h = who_rec(t, i);
        if (h->hash == hash && h->key_len == len && memcmp(h->key, key, len) == 0) {
            if (touch && t->lru_head != i) {
                lru_unlink(t, i);
                lru_front(t, i);
            }
            return i;
        }
    }
    return WHO_NONE;
}

static void unchain(struct who_table *t, uint32_t i)
{
    struct who_head *h = who_rec(t, i);
    uint32_t *p = &t->bucket[h->hash & t->mask];
    while (*p != WHO_NONE && *p != i) p = &who_rec(t, *p)->chain;
    if (*p == i) *p = h->chain;
}

void who_drop(struct who_table *t, uint32_t idx)
{
    struct who_head *h = who_rec(t, idx);
    if (!h->key_len) return;
    unchain(t, idx);
    h->key_len = 0;
    h->gen++;
    lru_unlink(t, idx);
    lru_back(t, idx);
}

/* Buckets as many as records (a power of two): every record chained anew.
 * Out of memory: the old buckets stay (longer chains, still correct). */
static void rehash(struct who_table *t, uint32_t want)
{
    uint32_t nb = t->mask + 1;
    while (nb < want) nb <<= 1;
    size_t add = (size_t)(nb - t->mask - 1) * sizeof *t->bucket;
    if (t->mc && !memcap_take(t->mc, MEM_SESSIONS, add)) return;
    uint32_t *b = malloc((size_t)nb * sizeof *b);
    if (!b) {
        if (t->mc) memcap_give(t->mc, MEM_SESSIONS, add);
        return;
    }
    uint32_t old_mask = t->mask;
    memset(b, 0xff, (size_t)nb * sizeof *b);
    for (uint32_t i = 0; i < t->n; i++) {
        struct who_head *h = who_rec(t, i);
        if (!h->key_len) continue;
        h->chain = b[h->hash & (nb - 1)];
        b[h->hash & (nb - 1)] = i;
    }
    free(t->bucket);
    t->bucket = b;
    t->mask = nb - 1;
    if (t->on_rehash && !t->on_rehash(t->evict_ctx, old_mask)) {
        /* the owner could not follow: keep the table as it was sized */
    }
}

/* Room for one more record: grow (doubling, under the cap and the maximum). */
static bool grow(struct who_table *t)
{
    uint32_t want = t->cap ? t->cap * 2 : 64;
    if (want > t->max) want = t->max;
    if (want <= t->cap) return false;
    size_t add = (size_t)(want - t->cap) * t->stride;
    if (t->mc && !memcap_take(t->mc, MEM_SESSIONS, add)) return false;
    uint8_t *r = realloc(t->rec, (size_t)want * t->stride);
    if (!r) {
        if (t->mc) memcap_give(t->mc, MEM_SESSIONS, add);
        return false;
    }
    t->rec = r;
    t->cap = want;
    if (want > t->mask + 1) rehash(t, want);
    return true;
}

uint32_t who_get(struct who_table *t, const uint8_t *key, uint32_t len, uint32_t hash, bool *fresh)
{
    *fresh = false;
    if (!len || len > WHO_KEY_MAX) return WHO_NONE;
    uint32_t i = who_find(t, key, len, hash, true);
    if (i != WHO_NONE) return i;
    if (t->n < t->cap || grow(t)) {
        i = t->n++;
        who_rec(t, i)->gen = 0;
    } else {
        i = t->lru_tail;
        if (i == WHO_NONE) return WHO_NONE;
        struct who_head *old = who_rec(t, i);
        if (old->key_len) {
            if (t->on_evict) t->on_evict(t->evict_ctx, i);
            t->evicted++;
            unchain(t, i);
        }
        lru_unlink(t, i);
        old->gen++;
    }
    struct who_head *h = who_rec(t, i);
    uint32_t gen = h->gen;
    memset(h, 0, t->stride);
    h->gen = gen;
    h->hash = hash;
    h->key_len = (uint8_t)len;
    memcpy(h->key, key, len);
    h->chain = t->bucket[hash & t->mask];
    t->bucket[hash & t->mask] = i;
    lru_front(t, i);
    *fresh = true;
    return i;
}
