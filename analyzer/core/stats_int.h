/* Updating the statistics (private to the core). */
#ifndef NFSSCOPE_STATS_INT_H
#define NFSSCOPE_STATS_INT_H
#include "memcap.h"
#include "nfsscope/stats.h"

/* The counters of an operation key, created on first use inside the memory
 * cap (pool MEM_FLOWS, with the other per-key tables; mc NULL: no cap).
 * NULL when refused: counted in st->evicted_op_stats. */
struct ns_op_stats *stats_op(struct ns_stats *st, struct memcap *mc, uint32_t key);
void stats_status(struct ns_stats *st, uint8_t vers, uint32_t status);
void stats_free(struct ns_stats *st, struct memcap *mc);

#endif
