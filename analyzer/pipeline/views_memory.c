/* Public memory view: each pool of the memory cap with what it holds, its
 * cap, its peak and the evictions the cap forced. */
#include "analyzer_int.h"
#include "nfsscope/session.h"
#include "nfsscope/udp_timing.h"

size_t ns_analyzer_memory(const ns_analyzer *a, struct ns_mem_pool *out, size_t n)
{
    static const char *const names[MEM_POOLS] = {"flows", "reassembly", "pending_calls", "ip_fragments",
                                                 "sessions"};
    static const char *const units[MEM_POOLS] = {"flows", "bytes", "calls", "fragments", "entries"};
    const struct ns_session_stats *ss = ns_analyzer_session_stats(a);
    uint64_t ev[MEM_POOLS] = {
        a->st.evicted_flows + rpc_stage_conns_over_cap(a->rpc) + rpc_stage_conns_dropped(a->rpc),
        a->tcp_st.evicted_ooo_bytes + a->rec_st.dropped_bytes,
        rpc_stage_evicted_calls(a->rpc),
        a->frags_dropped + ipfrag_evicted(a->frags),
        ss->clients_evicted + ss->sessions_evicted + ss->files_evicted + ns_analyzer_udp_evicted_pairs(a) +
            findings_dropped(a->an.findings),
    };
    for (size_t i = 0; i < n && i < MEM_POOLS; i++)
        out[i] = (struct ns_mem_pool){names[i], units[i], a->mc.used[i], a->mc.cap[i], a->mc.pool_peak[i], ev[i]};
    return MEM_POOLS;
}

uint64_t ns_analyzer_memory_total(const ns_analyzer *a, uint64_t *cap, uint64_t *peak)
{
    if (cap) {
        *cap = 0;
        for (int i = 0; i < MEM_POOLS; i++) *cap += a->mc.cap[i];
    }
    if (peak) *peak = a->mc.peak;
    return a->mc.total_used;
}
