/* The screen's life: open, refresh from a settled analyzer (roll the
 * rates once a second), keys, close. Per-session latency comes from the
 * analyzer's reply events, the only per-frame work the screen does. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"

static void on_event(void *ctx, const struct ns_event *ev)
{
    struct tui *t = ctx;
    if (t->pass_fn) t->pass_fn(t->pass_ctx, ev);
    clients_on_event(t, ev);
    slot_history_event(t, ev);
    if (ev->kind != NS_EV_REPLY || !ev->txn || ev->backchannel) return;
    /* the session from the event's slot facts, else from the call's SEQUENCE
     * (the core does not fill has_slot on every reply yet) */
    const uint8_t *sid = ev->has_slot ? ev->sessionid : NULL;
    if (!sid && ev->txn->kind == NS_TXN_NFS4 && ev->txn->u.v4.call.has_seq) sid = ev->txn->u.v4.call.seq.sessionid;
    int64_t lat = ns_txn_latency_ns(ev->txn);
    struct session_extra *x = sid && lat >= 0 ? session_extra(t, sid, true) : NULL;
    if (x) ns_latency_add(&x->lat, (uint64_t)lat);
}

struct tui *tui_open(ns_analyzer *a, char *err, size_t errlen)
{
    struct tui *t = calloc(1, sizeof *t);
    if (!t) { snprintf(err, errlen, "out of memory"); return NULL; }
    t->a = a;
    for (int i = 0; i < V_COUNT; i++) t->vs[i].sort = -1;
    if (!term_open(err, errlen)) { free(t); return NULL; }
    ns_analyzer_on_event(a, on_event, t);
    getmaxyx(stdscr, t->rows, t->cols);
    return t;
}

void tui_set_min_severity(struct tui *t, uint8_t sev) { t->find_min_sev = sev <= NS_SEV_CRITICAL ? sev : NS_SEV_CRITICAL; }

void tui_pass_events(struct tui *t, ns_event_fn fn, void *ctx)
{
    t->pass_fn = fn;
    t->pass_ctx = ctx;
}

void tui_close(struct tui *t)
{
    if (!t) return;
    term_close();
    ns_analyzer_on_event(t->a, NULL, NULL);
    meters_free(&t->m_sess);
    meters_free(&t->m_conn);
    meters_free(&t->m_op);
    meters_free(&t->m_udp);
    meters_free(&t->m_find);
    meters_free(&t->m_hdr);
    meters_free(&t->m_client);
    table_free(&t->table);
    free(t);
}

static void roll(struct tui *t)
{
    int64_t now = ns_analyzer_now(t->a);
    if (!t->prev_now) t->prev_now = ns_analyzer_stats(t->a)->first_ts_ns;
    /* no packet time passed (replay over, or nothing yet): keep the last rates */
    if (!now || now <= t->prev_now) return;
    t->dt = now - t->prev_now;
    t->prev_now = now;
    roll_sessions(t);
    roll_others(t);
    roll_findings(t);
    roll_clients(t);
}

static void draw(struct tui *t)
{
    erase();
    getmaxyx(stdscr, t->rows, t->cols);
    if (!t->view_chosen) t->view = view_most_useful(t);
    draw_header(t);
    int y = 3, h = t->rows - 4;
    if (h < 2) { refresh(); return; }
    if (t->help) draw_help(t);
    else if (t->detail) view_detail(t, y, h);
    else if (t->view == V_FINDINGS) view_findings(t, y, h);
    else if (t->view == V_SLOTS) view_slots(t, y, h);
    else {
        if (t->view == V_SESSIONS) view_sessions(t);
        else if (t->view == V_CONNS) view_conns(t);
        else if (t->view == V_OPS) view_ops(t);
        else if (t->view == V_CLIENTS) view_clients(t);
        else view_udp(t);
        table_finish(&t->table, t->filter, &t->vs[t->view]);
        char empty[160];
        table_draw(&t->table, y, h, t->cols, &t->vs[t->view], view_empty(t, empty, sizeof empty));
        if (t->view == V_SESSIONS) {
            const struct tui_row *r = table_selected(&t->table, &t->vs[V_SESSIONS]);
            if (r) { memcpy(t->sel_session, r->id, sizeof t->sel_session); t->has_sel_session = true; }
        }
    }
    draw_footer(t);
    refresh();
}

void tui_refresh(struct tui *t, const struct tui_status *st, bool do_roll)
{
    t->st = *st;
    snprintf(t->source, sizeof t->source, "%s", st->source ? st->source : "");
    if (do_roll) roll(t);
    if (!t->paused) draw(t);
}

/* A new filter: every view starts again from its first row (a selection
 * and scroll kept from the unfiltered rows would show the matches from the
 * middle, or only the last of them). */
static void set_filter(struct tui *t, const char *filter)
{
    if (!strcmp(t->filter, filter)) return;
    snprintf(t->filter, sizeof t->filter, "%s", filter);
    for (int i = 0; i < V_COUNT; i++) {
        t->vs[i].sel = t->vs[i].top = 0;
        t->vs[i].sel_idlen = 0;
    }
}

/* Keys while the filter prompt is open (it opens empty: Enter on nothing
 * clears the filter, Esc keeps the one there was). */
static void prompt_key(struct tui *t, int ch)
{
    if (ch == '\n' || ch == KEY_ENTER || ch == '\r') {
        set_filter(t, t->input);
        t->prompt = false;
    } else if (ch == 27) t->prompt = false;
    else if (ch == 21) t->input[t->ninput = 0] = 0; /* Ctrl-U, as in a shell */
    else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && t->ninput) t->input[--t->ninput] = 0;
    else if (ch >= 32 && ch < 127 && t->ninput + 1 < sizeof t->input) {
        t->input[t->ninput++] = (char)ch;
        t->input[t->ninput] = 0;
    }
}

static void move_sel(struct tui *t, int d)
{
    struct view_state *vs = &t->vs[t->view];
    vs->sel += d;
    if (vs->sel < 0) vs->sel = 0;
    vs->sel_idlen = 0; /* the row under the new position is the selection now */
    if (t->view != V_SLOTS && t->view != V_FINDINGS && (size_t)vs->sel >= t->table.nidx && t->table.nidx)
        vs->sel = (int)t->table.nidx - 1;
}

enum tui_action tui_keys(struct tui *t)
{
    enum tui_action act = TUI_NONE;
    int ch;
    while ((ch = getch()) != ERR) {
        act = TUI_REDRAW;
        if (ch == KEY_RESIZE) continue;
        if (t->prompt) { prompt_key(t, ch); continue; }
        if (t->help) { t->help = false; if (ch != 'q') continue; }
        if (ch == 'q') return TUI_QUIT;
        /* a view the user has looked into stays (the most useful one is picked only until then) */
        if (ch != 'p' && ch != '?' && ch != '/') t->view_chosen = true;
        if (t->detail && (ch == 27 || ch == KEY_BACKSPACE || ch == 127 || ch == '\n' || ch == '\r' || ch == KEY_ENTER)) {
            t->detail = false;
            continue;
        }
        switch (ch) {
        case '1': case '2': case '3': case '4': case '5': case '6': case '7':
            t->view = ch - '1';
            t->detail = false;
            break;
        case '\t': t->view = (t->view + 1) % V_COUNT; t->detail = false; break;
        case KEY_BTAB: t->view = (t->view + V_COUNT - 1) % V_COUNT; t->detail = false; break;
        case KEY_UP: case 'k': move_sel(t, -1); break;
        case KEY_DOWN: case 'j': move_sel(t, 1); break;
        case KEY_PPAGE: move_sel(t, -(t->rows - 5)); break;
        case KEY_NPAGE: move_sel(t, t->rows - 5); break;
        case KEY_HOME: move_sel(t, -1000000); break;
        case KEY_END: move_sel(t, 1000000); break;
        case '\n': case '\r': case KEY_ENTER:
            if (t->view == V_SESSIONS && t->has_sel_session) t->detail = true;
            break;
        case 's': {
            struct view_state *vs = &t->vs[t->view];
            /* natural order, then each column shown in turn */
            int n = t->table.ncols ? t->table.ncols : TUI_COLS;
            do vs->sort = vs->sort + 1 >= n ? -1 : vs->sort + 1;
            while (vs->sort >= 0 && t->table.cols && t->table.cols[vs->sort].drop < 0);
            break;
        }
        case '/':
            t->prompt = true;
            t->input[t->ninput = 0] = 0;
            break;
        case 'm': /* the Findings view's minimum severity: info, warning, error, critical, info ... */
            if (t->view != V_FINDINGS || t->detail) break;
            t->find_min_sev = (uint8_t)((t->find_min_sev + 1) % (NS_SEV_CRITICAL + 1));
            t->vs[V_FINDINGS].sel = t->vs[V_FINDINGS].top = 0; /* other rows now: start from the first */
            t->vs[V_FINDINGS].sel_idlen = 0;
            break;
        case 'f':
            if (t->view == V_FINDINGS && !t->detail) t->find_unfolded = !t->find_unfolded;
            break;
        case 'p': t->paused = !t->paused; break;
        case '?': t->help = true; break;
        default: break;
        }
        if (ch == 'p' && t->paused) { draw_header(t); refresh(); } /* show PAUSED once */
    }
    if (act == TUI_REDRAW && t->paused) act = TUI_NONE;
    return act;
}
