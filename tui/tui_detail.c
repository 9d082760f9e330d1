/* A session's detail (Enter on view 1): its ends and channel, its
 * connections with bind method and share, its slot table now, and its
 * newest findings. Esc, Backspace or Enter goes back. */
#include <curses.h>
#include <stdio.h>

#include "tui_int.h"

static int put(int y, int w, int attr, const char *s)
{
    if (attr > 0) attron(attr);
    text_put(y, 0, s, w);
    if (attr > 0) attroff(attr);
    return y + 1;
}

void view_detail(struct tui *t, int y, int h)
{
    const struct ns_session_view *s = current_session(t);
    int end = y + h, w = t->cols;
    char line[512], sid[40], cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN];
    if (!s) { put(y, w, 0, "session gone (evicted)"); return; }
    ns_hex_str(s->sessionid, NS_SESSIONID_LEN, sid, sizeof sid);
    session_ends(t, s, cl, sizeof cl, sv, sizeof sv);
    snprintf(line, sizeof line, "Session %s  client %s  server %s%s%s", sid, cl, sv, s->destroyed ? "  destroyed" : "",
             s->mid_capture ? "  (picked up mid-capture)" : "");
    y = put(y, w, A_BOLD, line);
    const char *dead = ns_session_state_phrase(s);
    if (dead) {
        snprintf(line, sizeof line, "%s  BADSESSION replies %llu  calls after %llu  %s", dead,
                 (unsigned long long)s->badsession_replies, (unsigned long long)s->calls_after_dead,
                 s->recovered_frame ? "recovered (CREATE_SESSION)" : "not recovered");
        y = put(y, w, term_sev_attr(s->recovered_frame ? NS_SEV_WARNING : NS_SEV_ERROR), line);
    }
    const struct ns_client_view *c = s->has_client ? ns_analyzer_client_by_id(t->a, s->clientid) : NULL;
    snprintf(line, sizeof line, "calls %llu  errors %llu  outstanding %u (max %u)  saturated %.0f%% of the time  %s",
             (unsigned long long)s->calls, (unsigned long long)s->errors, s->outstanding, s->max_outstanding,
             ns_percent(s->saturated_fraction, 1.0), c ? ns_state_protect_name(c->sp_granted) : "");
    y = put(y, w, 0, line);
    if (y + 2 >= end) return;
    y = put(y + 1, w, A_BOLD, "conn  bind                  channels  calls     share");
    struct ns_session_conn_totals tot;
    ns_session_conn_totals(s, &tot);
    for (uint32_t k = 0; k < s->nconns && k < NS_SESSION_CONNS && y < end - 6; k++) {
        const struct ns_session_conn *sc = &s->conns[k];
        char cn[NS_CONN_NAME_LEN];
        snprintf(line, sizeof line, "%-5s %-21s %-9s %-9llu %3.0f%%", ns_conn_name(sc->conn_id, cn, sizeof cn),
                 ns_bind_method_name(sc->method), ns_channels_name(sc->fore, sc->back),
                 (unsigned long long)sc->calls, ns_percent((double)sc->calls, (double)tot.calls));
        y = put(y, w, sc->method == NS_BIND_NONE ? term_sev_attr(NS_SEV_ERROR) : 0, line);
    }
    if (y + 2 >= end) return;
    snprintf(line, sizeof line, "Slots: granted %u, highest used %u, server target %u, busy now %u", s->granted_slots,
             s->highest_slot_used, s->has_seq_reply ? s->target_highest_slotid : 0, ns_slots_busy(s));
    y = put(y + 1, w, A_BOLD, line);
    const struct session_extra *x = session_extra(t, s->sessionid, false);
    size_t l = 0;
    uint32_t n = s->nslots > s->granted_slots ? s->nslots : s->granted_slots;
    for (uint32_t k = 0; k < n && k < SLOT_SHOW && (int)l < w - 1; k++)
        line[l++] = slot_use_char(ns_slot_use(s, k, x ? x->slot_calls[k] : 0));
    line[l] = 0;
    y = put(y, w, 0, line);
    if (y + 2 >= end) return;
    y = put(y + 1, w, A_BOLD, "Recent findings");
    const struct ns_finding *f[16];
    size_t nf = session_findings(t, s, f, sizeof f / sizeof f[0]);
    for (size_t i = 0; i < nf && y < end; i++) {
        char when[NS_TIME_STRLEN];
        ns_clock_str(f[i]->last_ts_ns, when, sizeof when);
        /* one about the client, not this session alone, says so */
        char whose[40] = "";
        if (!f[i]->has_session) snprintf(whose, sizeof whose, "  client %016llx", (unsigned long long)f[i]->clientid);
        snprintf(line, sizeof line, "%-8s %-22s x%-5llu %s%s", ns_severity_name(f[i]->severity), f[i]->kind,
                 (unsigned long long)f[i]->count, when, whose);
        y = put(y, w, term_sev_attr(f[i]->severity), line);
    }
    if (!nf) put(y, w, 0, "none");
}
