/* Figures over an interval between two looks at the analyzer (the live
 * screen's rates and slot occupancy): the caller keeps the earlier counters. */
#include "nfsscope/view.h"

double ns_rate_per_s(uint64_t now, uint64_t before, int64_t interval_ns)
{
    /* A counter that went back belongs to a row that was evicted and
     * reused: no rate rather than a huge one. */
    if (interval_ns <= 0 || now < before) return 0.0;
    return (double)(now - before) * 1e9 / (double)interval_ns;
}

uint8_t ns_slot_use(const struct ns_session_view *s, uint32_t slot, uint64_t calls_before)
{
    bool granted = slot < s->granted_slots;
    if (slot >= s->nslots || !s->slots) return granted ? NS_SLOT_USE_IDLE : NS_SLOT_USE_NONE;
    const struct ns_slot_view *v = &s->slots[slot];
    if (v->in_flight) return NS_SLOT_USE_BUSY;
    if (v->calls > calls_before) return granted ? NS_SLOT_USE_USED : NS_SLOT_USE_ABOVE;
    return granted ? NS_SLOT_USE_IDLE : NS_SLOT_USE_NONE;
}

uint32_t ns_slots_busy(const struct ns_session_view *s)
{
    uint32_t n = 0;
    for (uint32_t i = 0; s->slots && i < s->nslots; i++) n += s->slots[i].in_flight;
    return n;
}
