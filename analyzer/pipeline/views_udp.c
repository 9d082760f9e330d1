/* Public accessors of the UDP timing analysis (nfsscope/udp_timing.h). */
#include "analyzer_int.h"
#include "nfsscope/udp_timing.h"

size_t ns_analyzer_udp_pair_count(const struct ns_analyzer *a) { return udp_timing_pair_count(a->udp); }

const struct ns_udp_pair *ns_analyzer_udp_pair(const struct ns_analyzer *a, size_t i)
{
    return udp_timing_pair(a->udp, i);
}

uint64_t ns_analyzer_udp_evicted_pairs(const struct ns_analyzer *a) { return udp_timing_evicted_pairs(a->udp); }
uint64_t ns_analyzer_udp_evicted_resends(const struct ns_analyzer *a) { return udp_timing_evicted_resends(a->udp); }
