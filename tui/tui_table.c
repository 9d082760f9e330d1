/* Tables of the views: rows filled from the analyzer, filtered by the
 * user's text, sorted by the chosen column, drawn within the screen width
 * (low-priority columns dropped first, then text columns shortened), with
 * a selection that follows its row across redraws. */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"

void table_reset(struct tui_table *t, const struct tui_col *cols, int ncols)
{
    t->cols = cols;
    t->ncols = ncols;
    t->n = 0;
    t->nidx = 0;
}

struct tui_row *table_add(struct tui_table *t)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        struct tui_row *v = realloc(t->rows, cap * sizeof *v);
        if (!v) return NULL;
        t->rows = v;
        t->cap = cap;
    }
    struct tui_row *r = &t->rows[t->n];
    memset(r, 0, sizeof *r);
    r->sev = -1;
    r->order = t->n++;
    return r;
}

/* qsort has no context argument: the sort of one table at a time. */
static const struct tui_table *g_sort_t;
static int g_sort_col;

static int cmp_rows(const void *pa, const void *pb)
{
    const struct tui_row *a = &g_sort_t->rows[*(const size_t *)pa], *b = &g_sort_t->rows[*(const size_t *)pb];
    int c = 0;
    if (g_sort_col >= 0) {
        if (g_sort_t->cols[g_sort_col].left && !g_sort_t->cols[g_sort_col].ranked) c = strcmp(a->cell[g_sort_col], b->cell[g_sort_col]);
        else c = a->key[g_sort_col] < b->key[g_sort_col] ? 1 : a->key[g_sort_col] > b->key[g_sort_col] ? -1 : 0;
    }
    if (!c) c = a->order < b->order ? -1 : a->order > b->order;
    return c;
}

void table_finish(struct tui_table *t, const char *filter, struct view_state *vs)
{
    if (t->idxcap < t->n) {
        size_t *v = realloc(t->idx, t->n * sizeof *v);
        if (!v) { t->nidx = 0; return; }
        t->idx = v;
        t->idxcap = t->n;
    }
    t->nidx = 0;
    for (size_t i = 0; i < t->n; i++)
        if (!filter || !*filter || strstr(t->rows[i].match, filter)) t->idx[t->nidx++] = i;
    g_sort_t = t;
    g_sort_col = vs->sort < t->ncols ? vs->sort : -1;
    if (t->nidx) qsort(t->idx, t->nidx, sizeof *t->idx, cmp_rows);
    /* keep the selected row selected wherever it moved */
    if (vs->sel_idlen) {
        for (size_t i = 0; i < t->nidx; i++) {
            const struct tui_row *r = &t->rows[t->idx[i]];
            if (r->idlen == vs->sel_idlen && memcmp(r->id, vs->sel_id, r->idlen) == 0) { vs->sel = (int)i; break; }
        }
    }
    if (vs->sel >= (int)t->nidx) vs->sel = (int)t->nidx - 1;
    if (vs->sel < 0) vs->sel = 0;
    const struct tui_row *r = table_selected(t, vs);
    vs->sel_idlen = r ? r->idlen : 0;
    if (r) memcpy(vs->sel_id, r->id, r->idlen);
}

const struct tui_row *table_selected(const struct tui_table *t, const struct view_state *vs)
{
    if (!t->nidx || vs->sel < 0 || (size_t)vs->sel >= t->nidx) return NULL;
    return &t->rows[t->idx[vs->sel]];
}

/* Which columns fit in w, and how wide. */
static void fit(const struct tui_table *t, int w, bool show[TUI_COLS], int width[TUI_COLS])
{
    int total = -1;
    for (int c = 0; c < t->ncols; c++) {
        show[c] = t->cols[c].drop >= 0;
        width[c] = t->cols[c].width;
        total += show[c] ? width[c] + 1 : 0;
    }
    while (total > w) {
        int best = -1;
        for (int c = 0; c < t->ncols; c++)
            if (show[c] && t->cols[c].drop > 0 && (best < 0 || t->cols[c].drop > t->cols[best].drop)) best = c;
        if (best < 0) break;
        show[best] = false;
        total -= width[best] + 1;
    }
    for (int c = t->ncols - 1; c >= 0 && total > w; c--) { /* the last text column gives way first */
        if (!show[c] || !t->cols[c].left) continue;
        int cut = total - w, room = width[c] - 6;
        if (cut > room) cut = room;
        if (cut > 0) { width[c] -= cut; total -= cut; }
    }
}

/* A line being built: bytes, and the columns they take of w. */
struct line { char b[1024]; size_t len; int x, w; };

static void line_add(struct line *ln, const char *s, int cols)
{
    size_t l = strlen(s);
    if (ln->len + l >= sizeof ln->b) return;
    memcpy(ln->b + ln->len, s, l + 1);
    ln->len += l;
    ln->x += cols;
}

static void line_pad(struct line *ln, int n)
{
    for (; n > 0 && ln->len + 1 < sizeof ln->b; n--) ln->b[ln->len++] = ' ', ln->x++;
    ln->b[ln->len] = 0;
}

/* One cell and the space after it: text cut with its mark, a number too
 * wide shown as '#' rather than lie. */
static void put_cell(struct line *ln, const char *s, int width, bool left)
{
    char buf[TUI_CELL + 8];
    int room = ln->w - ln->x, cw = width < room ? width : room, l;
    if (room <= 0) return;
    if (!left && text_cols(s) > cw) {
        memset(buf, '#', (size_t)cw);
        buf[l = cw] = 0;
    } else l = text_fit(buf, sizeof buf, s, cw);
    if (!left) line_pad(ln, cw - l);
    line_add(ln, buf, l);
    if (left) line_pad(ln, cw - l);
    if (ln->x < ln->w) line_pad(ln, 1);
}

void table_draw(const struct tui_table *t, int y, int h, int w, struct view_state *vs, const char *empty)
{
    bool show[TUI_COLS];
    int width[TUI_COLS];
    struct line ln = {.w = w};
    if (h < 2) return;
    fit(t, w, show, width);
    for (int c = 0; c < t->ncols; c++) {
        if (!show[c]) continue;
        char title[TUI_CELL];
        snprintf(title, sizeof title, "%s%s", t->cols[c].title, vs->sort == c ? "*" : "");
        put_cell(&ln, title, width[c], t->cols[c].left);
    }
    attron(A_BOLD);
    mvaddstr(y, 0, ln.b);
    attroff(A_BOLD);
    int rows = h - 1;
    if (vs->sel < vs->top) vs->top = vs->sel;
    if (vs->sel >= vs->top + rows) vs->top = vs->sel - rows + 1;
    /* no empty lines below the last row while rows above are hidden */
    if (vs->top > (int)t->nidx - rows) vs->top = (int)t->nidx - rows;
    if (vs->top < 0) vs->top = 0;
    for (int i = 0; i < rows && (size_t)(vs->top + i) < t->nidx; i++) {
        const struct tui_row *r = &t->rows[t->idx[vs->top + i]];
        ln = (struct line){.w = w};
        for (int c = 0; c < t->ncols; c++)
            if (show[c]) put_cell(&ln, r->cell[c], width[c], t->cols[c].left);
        int attr = r->sev >= 0 ? term_sev_attr(r->sev) : (int)A_NORMAL;
        if (vs->top + i == vs->sel) attr |= A_REVERSE;
        attron(attr);
        mvaddstr(y + 1 + i, 0, ln.b);
        attroff(attr);
    }
    if (!t->nidx) text_put(y + 1, 0, empty ? empty : "(nothing yet)", w);
}

void table_free(struct tui_table *t)
{
    free(t->rows);
    free(t->idx);
    memset(t, 0, sizeof *t);
}

void cell_str(struct tui_row *r, int col, const char *s)
{
    /* longer than a cell holds: cut here with its mark, as on the screen */
    if (strlen(s) < TUI_CELL) snprintf(r->cell[col], TUI_CELL, "%s", s);
    else text_fit(r->cell[col], TUI_CELL, s, TUI_CELL - 4);
}

void row_match(struct tui_row *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->match, sizeof r->match, fmt, ap);
    va_end(ap);
}

void cell_u64(struct tui_row *r, int col, uint64_t v)
{
    snprintf(r->cell[col], TUI_CELL, "%llu", (unsigned long long)v);
    r->key[col] = (double)v;
}

void rate_str(char *buf, size_t n, double v)
{
    if (v >= 10000) snprintf(buf, n, "%.0fk", v / 1000);
    else if (v >= 100) snprintf(buf, n, "%.0f", v);
    else snprintf(buf, n, "%.1f", v);
}

void cell_rate(struct tui_row *r, int col, double v)
{
    rate_str(r->cell[col], TUI_CELL, v);
    r->key[col] = v;
}

void cell_ns(struct tui_row *r, int col, int64_t ns)
{
    r->key[col] = (double)ns;
    if (ns < 0) snprintf(r->cell[col], TUI_CELL, "-");
    else if (ns < 1000000) snprintf(r->cell[col], TUI_CELL, "%lldus", (long long)(ns / 1000));
    else if (ns < 1000000000) snprintf(r->cell[col], TUI_CELL, "%.1fms", (double)ns / 1e6);
    else snprintf(r->cell[col], TUI_CELL, "%.2fs", (double)ns / 1e9);
}
