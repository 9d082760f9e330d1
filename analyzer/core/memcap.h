/* Memory accounting per subsystem: every table asks before it allocates and
 * reports what it frees, so the totals are exact and the caps hold. */
#ifndef NFSSCOPE_MEMCAP_H
#define NFSSCOPE_MEMCAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mem_pool { MEM_FLOWS, MEM_REASSEMBLY, MEM_PENDING, MEM_FRAGMENTS, MEM_SESSIONS, MEM_POOLS };

struct memcap {
    uint64_t cap[MEM_POOLS];
    uint64_t used[MEM_POOLS];
    uint64_t pool_peak[MEM_POOLS];
    uint64_t total_used, peak;
};

/* Split total bytes over the pools. */
void memcap_init(struct memcap *m, uint64_t total);
/* true (and accounted) if n more bytes fit in pool p. */
bool memcap_take(struct memcap *m, enum mem_pool p, size_t n);
void memcap_give(struct memcap *m, enum mem_pool p, size_t n);

#endif
