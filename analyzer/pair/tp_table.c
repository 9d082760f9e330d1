/* Amortized tables within a budget (see tp_table.h). */
#include "tp_table.h"

#include <stdlib.h>
#include <string.h>

static bool take(struct tp_mem *m, size_t n)
{
    if (m->used + n > m->cap) return false;
    m->used += n;
    if (m->used > m->peak) m->peak = m->used;
    return true;
}

bool tp_grow(struct tp_mem *m, void **p, size_t size, size_t n, size_t *cap)
{
    if (n < *cap) return true;
    size_t nc = *cap ? *cap * 2 : 64;
    if (nc > SIZE_MAX / size / 2) return false;
    if (!take(m, (nc - *cap) * size)) return false;
    void *q = realloc(*p, nc * size);
    if (!q) { m->used -= (nc - *cap) * size; return false; }
    *p = q;
    *cap = nc;
    return true;
}

void tp_free(struct tp_mem *m, void *p, size_t size, size_t cap)
{
    free(p);
    m->used -= size * cap;
}

void tp_table_init(struct tp_table *t, size_t entry_size)
{
    memset(t, 0, sizeof *t);
    t->size = entry_size;
}

void tp_table_free(struct tp_table *t, struct tp_mem *m)
{
    tp_free(m, t->e, t->size, t->cap_e);
    tp_free(m, t->hash, sizeof *t->hash, t->cap_h);
    tp_free(m, t->slot, sizeof *t->slot, t->nslot);
    tp_table_init(t, t->size);
}

long tp_table_next(const struct tp_table *t, uint32_t h, size_t *pos)
{
    if (!t->nslot) return -1;
    size_t mask = t->nslot - 1;
    for (; *pos < t->nslot; (*pos)++) {
        uint32_t s = t->slot[(h + *pos) & mask];
        if (!s) { *pos = t->nslot; return -1; }
        if (t->hash[s - 1] == h) { (*pos)++; return (long)(s - 1); }
    }
    return -1;
}

static void place(struct tp_table *t, size_t i)
{
    size_t mask = t->nslot - 1;
    for (size_t k = t->hash[i];; k++)
        if (!t->slot[k & mask]) { t->slot[k & mask] = (uint32_t)(i + 1); return; }
}

/* Twice as many slots as entries at most: rebuilt at the double. */
static bool rehash(struct tp_table *t, struct tp_mem *m)
{
    size_t ns = t->nslot ? t->nslot * 2 : 128;
    if (!take(m, ns * sizeof *t->slot)) return false;
    uint32_t *s = calloc(ns, sizeof *s);
    if (!s) { m->used -= ns * sizeof *s; return false; }
    tp_free(m, t->slot, sizeof *t->slot, t->nslot);
    t->slot = s;
    t->nslot = ns;
    for (size_t i = 0; i < t->n; i++) place(t, i);
    return true;
}

long tp_table_add(struct tp_table *t, struct tp_mem *m, uint32_t h, const void *entry)
{
    if (t->n >= UINT32_MAX - 1) return -1;
    if ((t->n + 1) * 2 > t->nslot && !rehash(t, m)) return -1;
    if (!tp_grow(m, &t->e, t->size, t->n, &t->cap_e)) return -1;
    if (!tp_grow(m, (void **)&t->hash, sizeof *t->hash, t->n, &t->cap_h)) return -1;
    memcpy(tp_table_at(t, t->n), entry, t->size);
    t->hash[t->n] = h;
    place(t, t->n);
    return (long)t->n++;
}

uint32_t tp_hash(uint64_t seed, const uint64_t *w, size_t n)
{
    uint64_t x = seed;
    for (size_t i = 0; i < n; i++) {
        x ^= w[i] + 0x9e3779b97f4a7c15ull + (x << 6) + (x >> 2);
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        x ^= x >> 31;
    }
    return (uint32_t)x;
}
