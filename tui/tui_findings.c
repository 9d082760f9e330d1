/* View 3: findings, newest first, a storm folded into the finding it is a
 * storm of (same kind without _STORM, same session or client) with both
 * running counts, and the selected finding's message wrapped below. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"

/* severity: 9 wide for the sort mark, sorted by rank (critical first) */
static const struct tui_col g_cols[] = {
    {"severity", 9, true, 0, true}, {"kind", 22, true, 0, false}, {"count", 6, false, 0, false},
    {"new", 5, false, 3, false}, {"storm", 8, false, 2, false}, {"last seen", 15, true, 4, false},
    {"where", 56, true, 0, false},
};

static int newest_first(const void *pa, const void *pb)
{
    const struct ns_finding *a = *(const struct ns_finding *const *)pa, *b = *(const struct ns_finding *const *)pb;
    if (a->last_ts_ns != b->last_ts_ns) return a->last_ts_ns > b->last_ts_ns ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

static bool same_subject(const struct ns_finding *a, const struct ns_finding *b)
{
    if (a->has_session != b->has_session || a->has_client != b->has_client) return false;
    if (a->has_session && memcmp(a->sessionid, b->sessionid, sizeof a->sessionid)) return false;
    return !a->has_client || a->clientid == b->clientid;
}

/* The finding a storm is about, or NULL. */
static const struct ns_finding *storm_base(const struct ns_finding *const *v, size_t n, const struct ns_finding *f)
{
    size_t l = strlen(f->kind);
    if (l <= 6 || strcmp(f->kind + l - 6, "_STORM")) return NULL;
    for (size_t i = 0; i < n; i++)
        if (strlen(v[i]->kind) == l - 6 && !strncmp(v[i]->kind, f->kind, l - 6) && same_subject(v[i], f)) return v[i];
    return NULL;
}

static uint64_t new_since_roll(struct tui *t, const struct ns_finding *f)
{
    const struct meter *m = meter_find(&t->m_find, &f->id, sizeof f->id, false);
    return m && f->count > m->prev[0] ? f->count - m->prev[0] : (m ? 0 : f->count);
}

/* finding of each row, the storm folded into it, and how many findings the
 * row folds (more than FOLD_ABOVE of a kind and severity: one row, its
 * finding the newest), by natural order */
#define FOLD_ABOVE 3
#define ROWS_MAX 4096
static const struct ns_finding *g_shown[ROWS_MAX], *g_storm[ROWS_MAX];
static size_t g_folded[ROWS_MAX];

/* A finding the view may show, with the storm folded into it. */
struct entry { const struct ns_finding *f, *storm; int sev; };
static struct entry g_entries[ROWS_MAX];
/* Kinds and severities among them: few (every kind at most at each severity). */
struct group { const char *kind; int sev; size_t n, drawn; uint64_t count, fresh; int64_t last; };
static struct group g_groups[128];

static struct group *group_of(size_t ngroups, const struct entry *e)
{
    for (size_t k = 0; k < ngroups; k++)
        if (g_groups[k].sev == e->sev && strcmp(g_groups[k].kind, e->f->kind) == 0) return &g_groups[k];
    return NULL;
}

static void where_of(const struct ns_finding *f, char *where, size_t n)
{
    /* connections first: the session id is long and on a narrow screen it
     * is the part cut */
    char sid[40] = "";
    size_t w = 0;
    where[0] = 0;
    for (uint8_t k = 0; k < f->nconns && w < n - 16; k++) {
        char cn[NS_CONN_NAME_LEN];
        w += (size_t)snprintf(where + w, n - w, "%s%s", k ? "," : "", ns_conn_name(f->conns[k], cn, sizeof cn));
    }
    if (f->has_session) ns_hex_str(f->sessionid, sizeof f->sessionid, sid, sizeof sid);
    snprintf(where + w, n - w, "%s%s", w && sid[0] ? " " : "", sid);
}

static void row_of_entry(struct tui *t, const struct entry *e)
{
    struct tui_row *r = table_add(&t->table);
    if (!r) return;
    const struct ns_finding *f = e->f, *storm = e->storm;
    g_shown[r->order] = f;
    g_storm[r->order] = storm;
    g_folded[r->order] = 1;
    cell_str(r, 0, ns_severity_name((uint8_t)e->sev));
    r->key[0] = e->sev;
    cell_str(r, 1, f->kind);
    cell_u64(r, 2, f->count);
    uint64_t fresh = new_since_roll(t, f) + (storm ? new_since_roll(t, storm) : 0);
    if (fresh) snprintf(r->cell[3], TUI_CELL, "+%llu", (unsigned long long)fresh);
    r->key[3] = (double)fresh;
    if (storm) snprintf(r->cell[4], TUI_CELL, "x%llu", (unsigned long long)storm->count);
    r->key[4] = storm ? (double)storm->count : 0;
    ns_clock_str(storm && storm->last_ts_ns > f->last_ts_ns ? storm->last_ts_ns : f->last_ts_ns, r->cell[5], TUI_CELL);
    char where[160];
    where_of(f, where, sizeof where);
    cell_str(r, 6, where);
    r->sev = e->sev;
    row_match(r, "%s %s", f->kind, where);
    memcpy(r->id, &f->id, sizeof f->id);
    r->idlen = sizeof f->id;
}

/* One row for a group's findings: their occurrences, new ones, newest time. */
static void row_of_group(struct tui *t, const struct entry *newest, const struct group *g)
{
    struct tui_row *r = table_add(&t->table);
    if (!r) return;
    g_shown[r->order] = newest->f;
    g_storm[r->order] = NULL;
    g_folded[r->order] = g->n;
    cell_str(r, 0, ns_severity_name((uint8_t)g->sev));
    r->key[0] = g->sev;
    cell_str(r, 1, g->kind);
    cell_u64(r, 2, g->count);
    if (g->fresh) snprintf(r->cell[3], TUI_CELL, "+%llu", (unsigned long long)g->fresh);
    r->key[3] = (double)g->fresh;
    ns_clock_str(g->last, r->cell[5], TUI_CELL);
    snprintf(r->cell[6], TUI_CELL, "%zu findings folded (f: a row each)", g->n);
    r->sev = g->sev;
    row_match(r, "%s %s", g->kind, r->cell[6]);
    /* its identity: kind and severity, never a finding id (4 bytes) */
    memset(r->id, 0, sizeof r->id);
    snprintf((char *)r->id, sizeof r->id - 1, "%s", g->kind);
    r->id[sizeof r->id - 1] = (uint8_t)(0x80 | g->sev);
    r->idlen = sizeof r->id;
}

static void fill(struct tui *t, const struct ns_finding **sorted, size_t n)
{
    table_reset(&t->table, g_cols, 7);
    size_t ne = 0, ngroups = 0;
    t->find_hidden = 0;
    for (size_t i = 0; i < n && ne < ROWS_MAX; i++) {
        const struct ns_finding *f = sorted[i], *storm = NULL;
        if (storm_base(sorted, n, f)) continue; /* shown on its base's row */
        for (size_t j = 0; j < n; j++)
            if (storm_base(sorted, n, sorted[j]) == f) storm = sorted[j];
        int sev = storm && storm->severity > f->severity ? storm->severity : f->severity;
        if (sev < t->find_min_sev) { t->find_hidden += 1 + (storm != NULL); continue; }
        struct entry *e = &g_entries[ne++];
        *e = (struct entry){f, storm, sev};
        struct group *g = group_of(ngroups, e);
        if (!g && ngroups < sizeof g_groups / sizeof g_groups[0]) {
            g = &g_groups[ngroups++];
            *g = (struct group){.kind = f->kind, .sev = sev, .last = INT64_MIN};
        }
        if (!g) continue;
        g->n++;
        g->count += f->count;
        g->fresh += new_since_roll(t, f) + (storm ? new_since_roll(t, storm) : 0);
        int64_t last = storm && storm->last_ts_ns > f->last_ts_ns ? storm->last_ts_ns : f->last_ts_ns;
        if (last > g->last) g->last = last;
    }
    for (size_t i = 0; i < ne; i++) {
        struct group *g = t->find_unfolded ? NULL : group_of(ngroups, &g_entries[i]);
        if (!g || g->n <= FOLD_ABOVE) row_of_entry(t, &g_entries[i]);
        else if (!g->drawn++) row_of_group(t, &g_entries[i], g); /* where its newest would be */
    }
}

/* Lines of text wrapped at spaces to w columns, from line y, at most h lines. */
static int wrap(int y, int h, int w, const char *s)
{
    int used = 0;
    while (*s && used < h) {
        int l = (int)strlen(s);
        int cut = l <= w ? l : w;
        if (l > w)
            for (int k = w; k > w / 2; k--)
                if (s[k] == ' ') { cut = k; break; }
        mvaddnstr(y + used++, 0, s, cut);
        s += cut;
        while (*s == ' ') s++;
    }
    return used;
}

void view_findings(struct tui *t, int y, int h)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(t->a, &v);
    const struct ns_finding **sorted = n ? malloc(n * sizeof *sorted) : NULL;
    if (n && !sorted) return;
    if (n) memcpy(sorted, v, n * sizeof *sorted);
    if (n) qsort(sorted, n, sizeof *sorted, newest_first);
    fill(t, sorted, n);
    free(sorted);
    struct view_state *vs = &t->vs[V_FINDINGS];
    table_finish(&t->table, t->filter, vs);
    int msg = h >= 16 ? 7 : h >= 10 ? 4 : 0;
    char empty[160];
    if (!t->table.n && t->find_hidden && !t->filter[0])
        snprintf(empty, sizeof empty, "(no finding at %s or worse; %zu less severe: m shows more)",
                 ns_severity_name(t->find_min_sev), t->find_hidden);
    else view_empty(t, empty, sizeof empty);
    table_draw(&t->table, y, h - msg, t->cols, vs, empty);
    const struct tui_row *r = table_selected(&t->table, vs);
    if (!r || !msg) return;
    const struct ns_finding *f = g_shown[r->order], *storm = g_storm[r->order];
    /* the core may word a message only at the end of the capture: say so
     * (or show its storm's) rather than print nothing */
    if (!f->message[0] && storm && storm->message[0]) f = storm;
    char text[NS_FINDING_MSG_MAX + NS_FINDING_RFC_MAX + 136], folded[128] = "";
    if (g_folded[r->order] > 1)
        snprintf(folded, sizeof folded, "%zu %s findings in this row (f: a row each); the newest: ",
                 g_folded[r->order], f->kind);
    snprintf(text, sizeof text, "%s%s%s%s%s", folded, f->message[0] ? f->message : "(message when the capture ends)",
             f->rfc[0] ? " [" : "", f->rfc, f->rfc[0] ? "]" : "");
    mvhline(y + h - msg, 0, '-', t->cols);
    attron(term_sev_attr(f->severity));
    wrap(y + h - msg + 1, msg - 1, t->cols, text);
    attroff(term_sev_attr(f->severity));
}

void roll_findings(struct tui *t)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(t->a, &v);
    for (size_t i = 0; i < n; i++) {
        struct meter *m = meter_find(&t->m_find, &v[i]->id, sizeof v[i]->id, true);
        uint64_t now = v[i]->count;
        if (m) meter_roll(m, &now, 1, t->dt);
    }
}

/* A finding about the session, or about its client and no session in
 * particular (GRACE_STUCK: the client's grace, whichever session it used). */
static bool of_session(const struct ns_finding *f, const struct ns_session_view *s)
{
    if (f->has_session) return !memcmp(f->sessionid, s->sessionid, NS_SESSIONID_LEN);
    return f->has_client && s->has_client && f->clientid == s->clientid;
}

size_t session_findings(struct tui *t, const struct ns_session_view *s, const struct ns_finding **out, size_t cap)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(t->a, &v), k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!of_session(v[i], s)) continue;
        if (k < cap) out[k++] = v[i];
        else { /* keep the newest */
            size_t old = 0;
            for (size_t j = 1; j < k; j++)
                if (out[j]->last_ts_ns < out[old]->last_ts_ns) old = j;
            if (v[i]->last_ts_ns > out[old]->last_ts_ns) out[old] = v[i];
        }
    }
    qsort(out, k, sizeof *out, newest_first);
    return k;
}
