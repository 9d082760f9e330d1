/* View 5: the slot table of the selected session over the last seconds,
 * one column per second of packet time (newest on the right), with the
 * highest slot used and the server's highest and target slot ids. */
#include <curses.h>
#include <stdio.h>

#include "tui_int.h"

char slot_use_char(uint8_t use)
{
    switch (use) {
    case NS_SLOT_USE_BUSY: return '#';
    case NS_SLOT_USE_USED: return '+';
    case NS_SLOT_USE_IDLE: return '.';
    case NS_SLOT_USE_ABOVE: return '!';
    default: return ' ';
    }
}

void view_slots(struct tui *t, int y, int h)
{
    const struct ns_session_view *s = current_session(t);
    if (!s) { mvaddstr(y, 0, "no NFSv4.1 session yet"); return; }
    char sid[40], line[512];
    ns_hex_str(s->sessionid, NS_SESSIONID_LEN, sid, sizeof sid);
    snprintf(line, sizeof line, "session %s  granted %u", sid, s->granted_slots);
    int n = (int)(sizeof line);
    size_t l = 0;
    while (line[l]) l++;
    if (s->has_requested) l += (size_t)snprintf(line + l, (size_t)n - l, " (asked %u)", s->fore_requested.maxrequests);
    text_put(y, 0, line, t->cols);
    l = (size_t)snprintf(line, sizeof line, "highest used %u", s->any_slot_used ? s->highest_slot_used : 0);
    if (s->has_seq_reply)
        l += (size_t)snprintf(line + l, sizeof line - l, "  server highest %u target %u", s->sr_highest_slotid,
                              s->target_highest_slotid);
    snprintf(line + l, sizeof line - l, "  busy now %u  max outstanding %u", ns_slots_busy(s), s->max_outstanding);
    text_put(y + 1, 0, line, t->cols);
    attron(term_dim_attr());
    text_put(y + 2, 0, "# busy  + used  . idle  ! above granted  a column per packet second, newest right", t->cols);
    attroff(term_dim_attr());
    const struct session_extra *x = session_extra(t, s->sessionid, false);
    uint32_t slots = x ? x->hist_slots : 0;
    if (!slots) { mvaddstr(y + 3, 0, "(no history yet)"); return; }
    int rows = h - 3, tail = 22, width = t->cols - 10 - tail;
    if (width < 4) width = 4, tail = 0;
    if (width > x->nhist) width = x->nhist;
    struct view_state *vs = &t->vs[V_SLOTS];
    if (vs->sel >= (int)slots) vs->sel = (int)slots - 1;
    if (vs->sel < 0) vs->sel = 0;
    if (vs->sel < vs->top) vs->top = vs->sel;
    if (vs->sel >= vs->top + rows) vs->top = vs->sel - rows + 1;
    for (int i = 0; i < rows && (uint32_t)(vs->top + i) < slots; i++) {
        uint32_t k = (uint32_t)(vs->top + i);
        l = (size_t)snprintf(line, sizeof line, "slot %3u ", k);
        for (int c = width - 1; c >= 0; c--) line[l++] = slot_use_char(x->hist[(x->head - c + SLOT_HIST) % SLOT_HIST][k]);
        line[l] = 0;
        if (tail && k < s->nslots)
            snprintf(line + l, sizeof line - l, "  calls %-6llu seq %u", (unsigned long long)s->slots[k].calls,
                     s->slots[k].last_call_seqid);
        int attr = k >= s->granted_slots ? term_sev_attr(NS_SEV_WARNING) : (int)A_NORMAL;
        if (vs->top + i == vs->sel) attr |= A_REVERSE;
        attron(attr);
        text_put(y + 3 + i, 0, line, t->cols);
        attroff(attr);
    }
}
