/* Fixed-place storage for the session analyzer's tables: entries live in
 * chunks and never move while they live, so a pointer to one (and to the
 * view inside it) stays valid until the entry is released. Live entries are
 * also listed in order of insertion. Memory comes from MEM_SESSIONS. */
#ifndef NFSSCOPE_SESSION_POOL_H
#define NFSSCOPE_SESSION_POOL_H
#include <stdbool.h>
#include <stddef.h>

#include "memcap.h"

struct spool {
    struct memcap *mc;
    size_t size, per_chunk, max; /* entry bytes, entries per chunk, most entries */
    char *chunks;                /* newest chunk; each starts with a link to the one before */
    size_t nchunks;
    void *free;                  /* released entries, linked through their first bytes */
    void **order;                /* live entries, oldest first (n of them) */
    void **scratch;              /* room for every entry, for callers that rank them (shares order's block) */
    size_t n;
};

void spool_init(struct spool *p, struct memcap *mc, size_t size, size_t per_chunk, size_t max);
void spool_free(struct spool *p);
/* A zeroed entry, last in the order; NULL when max entries live or the cap
 * refuses another chunk (the caller may release some and retry). */
void *spool_alloc(struct spool *p);
/* Release every entry for which dead(e) holds; the others keep their order. */
void spool_sweep(struct spool *p, bool (*dead)(const void *e));

#endif
