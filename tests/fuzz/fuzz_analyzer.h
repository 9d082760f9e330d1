/* The analyzer a fuzz target makes for each input: small (issue 21). An
 * input is a few frames, so what an analyzer costs to make and free is paid
 * thousands of times a second; the tables start small and grow by the same
 * code as a full-size analyzer's (analyzer_tuning.h), so nothing the
 * targets reach is lost:
 *  - the flow table starts with 16 buckets and 4 flows (not 1024 and 256:
 *    a 174 KB pool at the first flow, above ASan's largest size class, so
 *    mapped and unmapped for every input);
 *  - a TCP flow off the RPC ports is searched for a record over 8 KiB each
 *    way (REC_HEAD, what a streamed message keeps of its start), not the
 *    8 MiB of the longest record, so an input (64 KiB at most) reaches the
 *    give-up too. */
#ifndef NFSSCOPE_FUZZ_ANALYZER_H
#define NFSSCOPE_FUZZ_ANALYZER_H
#include <stdint.h>

#include "analyzer_tuning.h"
#include "nfsscope/nfsscope.h"

static ns_analyzer *fuzz_analyzer_new(uint64_t memcap)
{
    struct ns_config cfg = NS_CONFIG_INIT;
    cfg.memcap = memcap;
    static const struct analyzer_tuning small = {.probe_budget = 8u << 10, .flow_buckets = 16, .flow_slots = 4};
    return analyzer_new_tuned(&cfg, &small, NULL, 0);
}

#endif
