/* The Slots view's history: one column per second of packet time, as the
 * rates are, whatever the replay speed or the screen's refresh (a column
 * per refresh was a column per wall second: ten seconds of capture in one
 * column at --speed 10). Kept from the call and reply events of each
 * session's fore channel. */
#include "tui_int.h"

#define SEC 1000000000LL

/* A new column for each second from the newest one to sec: a slot with a
 * request still in flight is busy in it, a granted slot idle. */
static void advance(struct session_extra *x, int64_t sec)
{
    int64_t steps = x->nhist ? sec - x->head_sec : 1;
    if (steps <= 0) return; /* an earlier second (reordered frames): counted in the newest column */
    if (steps > SLOT_HIST) steps = SLOT_HIST;
    for (int64_t i = 0; i < steps; i++) {
        x->head = (x->head + 1) % SLOT_HIST;
        uint8_t *col = x->hist[x->head];
        for (uint32_t k = 0; k < SLOT_SHOW; k++)
            col[k] = x->in_flight[k] ? NS_SLOT_USE_BUSY : k < x->granted ? NS_SLOT_USE_IDLE : NS_SLOT_USE_NONE;
    }
    x->nhist = x->nhist + (int)steps > SLOT_HIST ? SLOT_HIST : x->nhist + (int)steps;
    x->head_sec = sec;
}

void slot_history_catch_up(struct session_extra *x, int64_t now_ns, uint32_t granted)
{
    if (granted) x->granted = granted > SLOT_SHOW ? SLOT_SHOW : granted;
    if (x->granted > x->hist_slots) x->hist_slots = x->granted;
    if (x->nhist && now_ns > 0) advance(x, now_ns / SEC);
}

void slot_history_event(struct tui *t, const struct ns_event *ev)
{
    bool call = ev->kind == NS_EV_CALL || ev->kind == NS_EV_RESEND;
    bool done = ev->kind == NS_EV_REPLY || ev->kind == NS_EV_GIVEN_UP;
    if (ev->backchannel || (!call && !done) || ev->ts_ns <= 0) return;
    /* the slot from the event, else from the call's SEQUENCE (the core
     * does not fill has_slot on every reply) */
    const uint8_t *sid = NULL;
    uint32_t slot = 0;
    if (ev->has_slot) sid = ev->sessionid, slot = ev->slot;
    else if (ev->txn && ev->txn->kind == NS_TXN_NFS4 && ev->txn->u.v4.call.has_seq)
        sid = ev->txn->u.v4.call.seq.sessionid, slot = ev->txn->u.v4.call.seq.slotid;
    if (!sid || slot >= SLOT_SHOW) return;
    struct session_extra *x = session_extra(t, sid, true);
    if (!x) return;
    if (ev->granted) x->granted = ev->granted > SLOT_SHOW ? SLOT_SHOW : ev->granted;
    advance(x, ev->ts_ns / SEC);
    uint8_t *use = &x->hist[x->head][slot];
    if (call) {
        uint8_t u = x->granted && slot >= x->granted ? NS_SLOT_USE_ABOVE : NS_SLOT_USE_BUSY;
        if (*use < u) *use = u;
        x->in_flight[slot] = true;
    } else {
        x->in_flight[slot] = false;
        if (*use == NS_SLOT_USE_BUSY || *use < NS_SLOT_USE_USED) *use = NS_SLOT_USE_USED; /* answered in this second */
    }
    if (slot + 1 > x->hist_slots) x->hist_slots = slot + 1;
    if (x->granted > x->hist_slots) x->hist_slots = x->granted;
}
