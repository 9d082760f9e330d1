/* Sizes and budgets of a new analyzer that every front end takes from the
 * defaults and the fuzz targets make small (issue 21): a fuzz input is a few
 * frames, so its analyzer must cost little to make, and a small table runs
 * the same code as a full one (the same growth, the same give-up). Not part
 * of the public API: reached through libnfsscope_internal only. */
#ifndef NFSSCOPE_ANALYZER_TUNING_H
#define NFSSCOPE_ANALYZER_TUNING_H
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/nfsscope.h"

/* 0 in any field takes the default. */
struct analyzer_tuning {
    /* Data bytes each way a TCP flow off the RPC ports is searched for an
     * RPC record before it is given up as not RPC (default PROBE_BUDGET,
     * analyzer_int.h: longer than the longest record). */
    uint64_t probe_budget;
    /* The flow table's hash buckets at the start and the flows its pool
     * takes at its first growth (defaults 1024 and 256: 174 KB at the
     * first flow). */
    uint32_t flow_buckets, flow_slots;
};

/* ns_analyzer_new with these sizes (t may be NULL: the defaults). */
ns_analyzer *analyzer_new_tuned(const struct ns_config *cfg, const struct analyzer_tuning *t, char *err,
                                size_t errlen);

#endif
