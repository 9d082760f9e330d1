#include "memcap.h"

void memcap_init(struct memcap *m, uint64_t total)
{
    /* Reassembly buffers and pending calls dominate real captures. */
    static const unsigned share_pct[MEM_POOLS] = {20, 35, 30, 5, 10};
    for (int i = 0; i < MEM_POOLS; i++) {
        m->cap[i] = total / 100 * share_pct[i];
        m->used[i] = m->pool_peak[i] = 0;
    }
    m->total_used = m->peak = 0;
}

bool memcap_take(struct memcap *m, enum mem_pool p, size_t n)
{
    if (m->used[p] + n > m->cap[p]) return false;
    m->used[p] += n;
    m->total_used += n;
    if (m->used[p] > m->pool_peak[p]) m->pool_peak[p] = m->used[p];
    if (m->total_used > m->peak) m->peak = m->total_used;
    return true;
}

void memcap_give(struct memcap *m, enum mem_pool p, size_t n)
{
    m->used[p] -= n < m->used[p] ? n : m->used[p];
    m->total_used -= n < m->total_used ? n : m->total_used;
}
