/* The screen's frame: the header (source, time, rates, drops, what is
 * active, findings by severity), the view tabs with their keys, the
 * footer (filter, sort, prompt) and the help page. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui_int.h"

static const char *const g_tabs[V_COUNT] = {"Sessions", "Connections", "Findings", "Operations",
                                             "Slots",    "UDP",         "Clients"};
/* what a narrow screen shows instead: still words a person reads */
static const char *const g_short_tabs[V_COUNT] = {"Sess", "Conns", "Finds", "Ops", "Slots", "UDP", "Clients"};
static const char g_tab_end[] = " ? help  q quit";

/* The views with their keys: the names when they fit, else short names,
 * else the keys alone. */
static void draw_tabs(struct tui *t, int y)
{
    const char *const *names[2] = {g_tabs, g_short_tabs};
    int pick = 2;
    for (int k = 1; k >= 0; k--) {
        int need = (int)sizeof g_tab_end - 1;
        for (int i = 0; i < V_COUNT; i++) need += 2 + (int)strlen(names[k][i]) + 1;
        if (need <= t->cols) pick = k;
    }
    int x = 0;
    for (int i = 0; i < V_COUNT && x < t->cols; i++) {
        char tab[32];
        if (pick < 2) snprintf(tab, sizeof tab, "%d %s", i + 1, names[pick][i]);
        else snprintf(tab, sizeof tab, "%d", i + 1);
        if (i == t->view) attron(A_REVERSE);
        x += text_put(y, x, tab, t->cols - x) + 1;
        if (i == t->view) attroff(A_REVERSE);
    }
    if (x < t->cols) text_put(y, x, g_tab_end, t->cols - x);
}

/* Findings by severity, highest first, each in its colour, from column x. */
static void draw_severities(struct tui *t, int y, int x, const unsigned sev[4])
{
    static const char *const names[4] = {"info", "warn", "err", "crit"};
    for (int s = 3; s >= 0 && x < t->cols; s--) {
        char part[32];
        int n = snprintf(part, sizeof part, "%s %u%s", names[s], sev[s], s ? "  " : "");
        if (sev[s]) attron(term_sev_attr(s));
        text_put(y, x, part, t->cols - x);
        if (sev[s]) attroff(term_sev_attr(s));
        x += n;
    }
}

/* What the capture did not let the analysis see (the report's "Not
 * analysed"), in few words from column x of row y: the causes with a
 * count, as many as fit, then how many more. */
static void draw_not_analysed(struct tui *t, int y, int x)
{
    if (x >= t->cols) return;
    const struct ns_stats *st = ns_analyzer_stats(t->a);
    struct ns_loss_row rows[NS_LOSS_ROWS];
    size_t n = ns_loss_rows(st, rows, NS_LOSS_ROWS);
    char text[256];
    bool narrow = t->cols < 110;
    int len = snprintf(text, sizeof text, narrow ? "lost: " : "not analysed: ");
    int room = t->cols - x, shown = 0, more = 0;
    for (size_t i = 0; i < n; i++) {
        if (!rows[i].lost || !rows[i].value) continue;
        char part[64];
        int pl = snprintf(part, sizeof part, "%s%s %llu", shown ? ", " : "", rows[i].brief,
                          (unsigned long long)rows[i].value);
        if (more || len + pl + 4 > room || len + pl >= (int)sizeof text) { more++; continue; }
        memcpy(text + len, part, (size_t)pl + 1);
        len += pl;
        shown++;
    }
    if (!shown && !more) snprintf(text + len, sizeof text - (size_t)len, "nothing");
    else if (more) snprintf(text + len, sizeof text - (size_t)len, "%s+%d more", shown ? " " : "", more);
    bool lost = shown || more;
    if (lost) attron(term_sev_attr(1));
    text_put(y, x, text, room);
    if (lost) attroff(term_sev_attr(1));
}

void draw_header(struct tui *t)
{
    char line[512], when[NS_TIME_STRLEN] = "-";
    bool narrow = t->cols < 110;
    int64_t e = t->st.elapsed_ns / 1000000000;
    int64_t now = ns_analyzer_now(t->a);
    if (now) ns_clock_str(now, when, sizeof when);
    const char *state = t->paused ? "  PAUSED" : "";
    if (t->st.ended) state = t->st.cut ? "  end of capture (cut short)" : "  end of capture";
    unsigned sev[4] = {0};
    const struct ns_finding *const *v;
    size_t nf = ns_analyzer_findings(t->a, &v);
    for (size_t i = 0; i < nf; i++) sev[v[i]->severity & 3]++;
    char sevs[96];
    int sevw = snprintf(sevs, sizeof sevs, "crit %u  err %u  warn %u  info %u", sev[3], sev[2], sev[1], sev[0]);
    if (narrow) {
        /* 80 columns: the file's last name, cut to leave room for the rest */
        const char *name = strrchr(t->source, '/') && !t->st.live ? strrchr(t->source, '/') + 1 : t->source;
        char rest[96];
        int rl = snprintf(rest, sizeof rest, " %02lld:%02lld:%02lld%s", (long long)(e / 3600), (long long)(e / 60 % 60),
                          (long long)(e % 60), state);
        char cut[256];
        int room = t->cols - 9 - rl - sevw - 2;
        text_fit(cut, sizeof cut, name, room > 4 ? room : 4);
        snprintf(line, sizeof line, "nfsscope %s%s", cut, rest);
    } else {
        /* a long path gives way from its start: the state at the end of
         * the line ("end of capture", "PAUSED") must stay on screen */
        char rest[160];
        int rl = snprintf(rest, sizeof rest, "  elapsed %02lld:%02lld:%02lld  packet time %s%s", (long long)(e / 3600),
                          (long long)(e / 60 % 60), (long long)(e % 60), when, state);
        const char *kind = t->st.live ? "interface" : "file";
        int room = t->cols - (int)strlen("nfsscope  ") - (int)strlen(kind) - 1 - rl;
        size_t sl = strlen(t->source);
        if (room < 8 || sl <= (size_t)room)
            snprintf(line, sizeof line, "nfsscope  %s %s%s", kind, t->source, rest);
        else
            snprintf(line, sizeof line, "nfsscope  %s ...%s%s", kind, t->source + sl - (size_t)(room - 3), rest);
    }
    attron(A_BOLD);
    text_put(0, 0, line, t->cols);
    attroff(A_BOLD);

    const struct meter *h = meter_find(&t->m_hdr, "hdr", 3, false);
    size_t nc = ns_analyzer_conn_count(t->a), ns = ns_analyzer_session_count(t->a), conns = 0, sess = 0;
    for (uint32_t id = 1; id <= nc; id++) {
        const struct ns_conn *c = ns_analyzer_conn(t->a, id);
        conns += c && !c->closed;
    }
    for (size_t i = 0; i < ns; i++) {
        const struct ns_session_view *s = ns_analyzer_session(t->a, i);
        sess += s && !s->destroyed;
    }
    char drops[32] = "-";
    if (t->st.drops_known) snprintf(drops, sizeof drops, "%llu", (unsigned long long)t->st.drops);
    /* rates as the rows print them (calls/s 0.1, not 0 beside rows of 0.1);
     * 80 columns: single spaces, to leave room for what was lost */
    char frames[24], calls[24];
    rate_str(frames, sizeof frames, h ? h->rate[0] : 0);
    rate_str(calls, sizeof calls, h ? h->rate[1] : 0);
    int x = snprintf(line, sizeof line,
                     narrow ? "frames/s %s calls/s %s MB/s %.2f drops %s conns %zu sessions %zu "
                            : "frames/s %s  calls/s %s  MB/s %.2f  drops %s  conns %zu  sessions %zu  ",
                     frames, calls, h ? h->rate[2] / 1e6 : 0, drops, conns, sess);
    text_put(1, 0, line, t->cols);
    /* narrow: the severities end the first line instead */
    if (narrow) {
        draw_severities(t, 0, t->cols - sevw > 0 ? t->cols - sevw : 0, sev);
        draw_not_analysed(t, 1, x);
    } else {
        draw_severities(t, 1, x, sev);
        draw_not_analysed(t, 1, x + sevw + 2);
    }
    draw_tabs(t, 2);
}

static const char *hidden_str(const struct tui *t, char *buf, size_t n)
{
    snprintf(buf, n, " (%zu hidden)", t->find_hidden);
    return buf;
}

void draw_footer(struct tui *t)
{
    char line[256], hid[32];
    int y = t->rows - 1;
    if (t->prompt)
        snprintf(line, sizeof line, "filter (address, session id or name; Enter, Esc cancel, Ctrl-U clear): %s_",
                 t->input);
    else if (t->filter[0]) snprintf(line, sizeof line, "filter: %s   (/ Enter on nothing clears it)", t->filter);
    else if (t->view == V_FINDINGS && !t->detail && !t->help) /* its own keys first: they say what is left out */
        snprintf(line, sizeof line, "m: %s and worse%s  f: %s  arrows/jk move  s sort  / filter  p pause",
                 ns_severity_name(t->find_min_sev), t->find_hidden ? hidden_str(t, hid, sizeof hid) : "",
                 t->find_unfolded ? "fold" : "unfold");
    else snprintf(line, sizeof line, "arrows/jk move  Enter detail  Tab next  s sort  / filter  p pause");
    attron(term_dim_attr());
    text_put(y, 0, line, t->cols);
    attroff(term_dim_attr());
}

void draw_help(struct tui *t)
{
    static const char *const lines[] = {
        "nfsscope live screen",
        "",
        "1-7      views: Sessions, Connections, Findings, Operations, Slots, UDP, Clients",
        "Tab      next view",
        "Up/Down  j/k  move the selection (PgUp/PgDn, Home/End)",
        "Enter    on a session: its detail (connections, slots, its and its client's findings); Esc back",
        "s        sort by the next column (* marks it; numbers and severity high first)",
        "/        filter rows by address, session id or name (Ctrl-U clears, Enter on nothing: no filter)",
        "m        Findings: show this severity and worse (info, warning, error, critical, info ...)",
        "f        Findings: more than 3 of a kind and severity in one row, or a row each",
        "p        pause drawing (the capture goes on)",
        "q        quit (the report follows)",
        "",
        "Rates are per second over the last interval of packet time.",
        "Slots: # busy  + used  . idle  ! above granted",
        "",
        "any key: back",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0] && (int)i + 3 < t->rows - 1; i++)
        text_put(3 + (int)i, 2, lines[i], t->cols - 2);
}
