/* Updating the statistics (private to the core). */
#ifndef NFSSCOPE_STATS_INT_H
#define NFSSCOPE_STATS_INT_H
#include "nfsscope/stats.h"

/* The counters of an operation key, created on first use (NULL if no memory). */
struct ns_op_stats *stats_op(struct ns_stats *st, uint32_t key);
void stats_status(struct ns_stats *st, uint8_t vers, uint32_t status);
void stats_free(struct ns_stats *st);

#endif
