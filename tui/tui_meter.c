/* Counters kept from one look at the analyzer to the next, per row keyed
 * by a stable id (connection id, session id, pair key, op key), so rates
 * follow a row whatever the sort order. Open addressing: the screen looks
 * every row up once a second and every reply looks its session up. */
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"

static uint64_t hash(const uint8_t *k, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ k[i]) * 1099511628211ull;
    return h;
}

static bool grow(struct meters *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    struct meter *v = calloc(cap, sizeof *v);
    if (!v) return false;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->v[i].used) continue;
        size_t j = hash(m->v[i].key, m->v[i].klen) & (cap - 1);
        while (v[j].used) j = (j + 1) & (cap - 1);
        v[j] = m->v[i];
    }
    free(m->v);
    m->v = v;
    m->cap = cap;
    return true;
}

struct meter *meter_find(struct meters *m, const void *key, size_t klen, bool add)
{
    if (klen > METER_KEY) klen = METER_KEY;
    if (m->cap) {
        for (size_t j = hash(key, klen) & (m->cap - 1);; j = (j + 1) & (m->cap - 1)) {
            struct meter *e = &m->v[j];
            if (!e->used) break;
            if (e->klen == klen && memcmp(e->key, key, klen) == 0) return e;
        }
    }
    if (!add) return NULL;
    if ((m->n + 1) * 2 > m->cap && !grow(m)) return NULL;
    size_t j = hash(key, klen) & (m->cap - 1);
    while (m->v[j].used) j = (j + 1) & (m->cap - 1);
    struct meter *e = &m->v[j];
    memset(e, 0, sizeof *e);
    e->used = true;
    e->klen = (uint8_t)klen;
    memcpy(e->key, key, klen);
    m->n++;
    return e;
}

void meter_roll(struct meter *e, const uint64_t *now, size_t n, int64_t dt)
{
    for (size_t i = 0; i < n && i < METER_N; i++) {
        e->rate[i] = ns_rate_per_s(now[i], e->prev[i], dt);
        e->prev[i] = now[i];
    }
    e->rolled = true;
}

void meters_free(struct meters *m)
{
    for (size_t i = 0; i < m->cap; i++) free(m->v[i].extra);
    free(m->v);
    memset(m, 0, sizeof *m);
}
