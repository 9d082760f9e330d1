/* Chunked storage whose entries never move (session_pool.h). */
#include "session_pool.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void spool_init(struct spool *p, struct memcap *mc, size_t size, size_t per_chunk, size_t max)
{
    memset(p, 0, sizeof *p);
    p->mc = mc;
    p->size = size < sizeof(void *) ? sizeof(void *) : size;
    p->per_chunk = per_chunk;
    p->max = max;
}

/* A chunk: the link to the previous one, then the entries. */
#define CHUNK_HEAD sizeof(max_align_t)

static size_t max_chunks(const struct spool *p) { return (p->max + p->per_chunk - 1) / p->per_chunk; }

/* Bytes one chunk costs: its entries and their room in order and scratch. */
static size_t chunk_bytes(const struct spool *p) { return CHUNK_HEAD + p->per_chunk * (p->size + 2 * sizeof(void *)); }

void spool_free(struct spool *p)
{
    while (p->chunks) {
        char *c = p->chunks;
        memcpy(&p->chunks, c, sizeof p->chunks);
        free(c);
    }
    memcap_give(p->mc, MEM_SESSIONS, p->nchunks * chunk_bytes(p));
    free(p->order);
    memset(p, 0, sizeof *p);
}

/* One more chunk onto the free list (false: at the most, or no memory). */
static bool add_chunk(struct spool *p)
{
    if (p->nchunks == max_chunks(p)) return false;
    if (!memcap_take(p->mc, MEM_SESSIONS, chunk_bytes(p))) return false;
    size_t ncap = (p->nchunks + 1) * p->per_chunk;
    char *c = malloc(CHUNK_HEAD + p->per_chunk * p->size);
    void **no = c ? realloc(p->order, 2 * ncap * sizeof *no) : NULL; /* order, then scratch */
    if (!no) {
        free(c);
        memcap_give(p->mc, MEM_SESSIONS, chunk_bytes(p));
        return false;
    }
    p->order = no;
    p->scratch = no + ncap;
    memcpy(c, &p->chunks, sizeof p->chunks);
    p->chunks = c;
    p->nchunks++;
    for (size_t i = p->per_chunk; i-- > 0;) { /* lowest address first out */
        void *e = c + CHUNK_HEAD + i * p->size;
        memcpy(e, &p->free, sizeof p->free);
        p->free = e;
    }
    return true;
}

void *spool_alloc(struct spool *p)
{
    if (p->n == p->max) return NULL;
    if (!p->free && !add_chunk(p)) return NULL;
    void *e = p->free;
    memcpy(&p->free, e, sizeof p->free);
    memset(e, 0, p->size);
    p->order[p->n++] = e;
    return e;
}

void spool_sweep(struct spool *p, bool (*dead)(const void *e))
{
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++) {
        void *e = p->order[i];
        if (!dead(e)) { p->order[k++] = e; continue; }
        memcpy(e, &p->free, sizeof p->free);
        p->free = e;
    }
    p->n = k;
}
