/* Public accessors of the UDP timing analysis (nfsscope/udp_timing.h). */
#include "analyzer_int.h"
#include "nfsscope/udp_timing.h"
#include "udp_model.h"

size_t ns_analyzer_udp_pair_count(const struct ns_analyzer *a) { return udp_timing_pair_count(a->an.udp); }

const struct ns_udp_pair *ns_analyzer_udp_pair(const struct ns_analyzer *a, size_t i)
{
    return udp_timing_pair(a->an.udp, i);
}

uint64_t ns_analyzer_udp_evicted_pairs(const struct ns_analyzer *a) { return udp_timing_evicted_pairs(a->an.udp); }
uint64_t ns_analyzer_udp_evicted_resends(const struct ns_analyzer *a) { return udp_timing_evicted_resends(a->an.udp); }

const struct ns_udp_pair *ns_analyzer_udp_pair_by_key(const struct ns_analyzer *a, const struct ns_addr *client,
                                                      const struct ns_endpoint *server)
{
    return udp_timing_pair_by_key(a->an.udp, client, server);
}
