#include "frame_table.h"

#include <stdlib.h>
#include <string.h>

void frame_table_init(struct frame_table *t, uint64_t cap)
{
    memset(t, 0, sizeof *t);
    t->cap = cap;
}

void frame_table_free(struct frame_table *t)
{
    free(t->index);
    free(t->recs);
    uint64_t cap = t->cap;
    frame_table_init(t, cap);
}

struct frame_rec *frame_table_get(const struct frame_table *t, uint64_t n)
{
    if (n >= t->index_len || !t->index[n]) return NULL;
    return &t->recs[t->index[n] - 1];
}

/* Grows by doubling, within the cap: false when the cap forbids it. */
static bool grow_index(struct frame_table *t, uint64_t n)
{
    uint64_t len = t->index_len ? t->index_len : 4096;
    while (len <= n) len *= 2;
    uint64_t extra = (len - t->index_len) * sizeof *t->index;
    if (t->used + extra > t->cap) return false;
    uint32_t *v = realloc(t->index, len * sizeof *v);
    if (!v) return false;
    memset(v + t->index_len, 0, (len - t->index_len) * sizeof *v);
    t->index = v;
    t->index_len = len;
    t->used += extra;
    return true;
}

static bool grow_recs(struct frame_table *t)
{
    uint32_t cap = t->recs_cap ? t->recs_cap * 2 : 1024;
    if (cap <= t->recs_cap) return false; /* 2^32 records */
    uint64_t extra = (uint64_t)(cap - t->recs_cap) * sizeof *t->recs;
    if (t->used + extra > t->cap) return false;
    struct frame_rec *v = realloc(t->recs, (size_t)cap * sizeof *v);
    if (!v) return false;
    t->recs = v;
    t->recs_cap = cap;
    t->used += extra;
    return true;
}

struct frame_rec *frame_table_get_or_add(struct frame_table *t, uint64_t n)
{
    struct frame_rec *r = frame_table_get(t, n);
    if (r) return r;
    if ((n >= t->index_len && !grow_index(t, n)) || (t->nrecs == t->recs_cap && !grow_recs(t)) ||
        t->nrecs == UINT32_MAX) {
        t->frames_unrecorded++;
        if (!t->first_unrecorded) t->first_unrecorded = n;
        return NULL;
    }
    r = &t->recs[t->nrecs++];
    memset(r, 0, sizeof *r);
    t->index[n] = t->nrecs;
    return r;
}

bool frame_rec_has_finding(const struct frame_rec *r, uint32_t id)
{
    for (unsigned i = 0; i < r->nfindings; i++)
        if (r->findings[i] == id) return true;
    return false;
}

void frame_rec_add_finding(struct frame_rec *r, uint32_t id)
{
    if (frame_rec_has_finding(r, id)) return;
    if (r->nfindings < FR_FINDINGS_MAX) r->findings[r->nfindings++] = id;
    else if (r->findings_more < UINT16_MAX) r->findings_more++;
}
