/* Text tables (see text_table.h). */
#include "text_table.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define CELL_MAX 96

struct table {
    size_t ncols, nrows, cap, cur;  /* cur: cells in the row being filled */
    char align[TABLE_COLS];
    size_t width[TABLE_COLS];
    char (*cells)[CELL_MAX];        /* nrows+1 rows of ncols cells; row 0 the heads */
    bool failed;
};

static char *cell(struct table *t, size_t row, size_t col) { return t->cells[row * t->ncols + col]; }

static bool grow(struct table *t)
{
    if (t->nrows + 1 < t->cap) return true;
    size_t cap = t->cap ? t->cap * 2 : 16;
    void *p = realloc(t->cells, cap * t->ncols * CELL_MAX);
    if (!p) return false;
    t->cells = p;
    t->cap = cap;
    return true;
}

struct table *table_new(const char *align, const char *const heads[])
{
    struct table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->ncols = strlen(align);
    if (t->ncols > TABLE_COLS) t->ncols = TABLE_COLS;
    memcpy(t->align, align, t->ncols);
    if (!grow(t)) { free(t); return NULL; }
    for (size_t c = 0; c < t->ncols; c++) snprintf(cell(t, 0, c), CELL_MAX, "%s", heads[c]);
    t->nrows = 0; /* data rows; row 0 is the heads */
    return t;
}

void table_cell(struct table *t, const char *fmt, ...)
{
    if (!t || t->failed) return;
    if (t->cur == 0 && !grow(t)) { t->failed = true; return; }
    if (t->cur >= t->ncols) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cell(t, t->nrows + 1, t->cur), CELL_MAX, fmt, ap);
    va_end(ap);
    t->cur++;
}

void table_row_end(struct table *t)
{
    if (!t || t->failed) return;
    while (t->cur && t->cur < t->ncols) cell(t, t->nrows + 1, t->cur++)[0] = 0;
    if (t->cur) t->nrows++;
    t->cur = 0;
}

void table_print(struct table *t, FILE *o, int indent)
{
    if (!t) return;
    table_row_end(t);
    for (size_t r = 0; r <= t->nrows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            size_t l = strlen(cell(t, r, c));
            if (l > t->width[c]) t->width[c] = l;
        }
    /* the last columns may be empty everywhere (notes): not printed */
    size_t last = t->ncols;
    while (last > 0 && t->width[last - 1] == 0) last--;
    for (size_t r = 0; r <= t->nrows; r++) {
        char line[TABLE_COLS * (CELL_MAX + 2) + 64];
        size_t used = 0;
        used += (size_t)snprintf(line, sizeof line, "%*s", indent, "");
        for (size_t c = 0; c < last; c++) {
            const char *s = cell(t, r, c);
            int w = (int)t->width[c];
            used += (size_t)snprintf(line + used, sizeof line - used, "%s%*s", c ? "  " : "",
                                     t->align[c] == 'r' ? w : -w, s);
            if (used >= sizeof line) used = sizeof line - 1;
        }
        while (used > 0 && line[used - 1] == ' ') used--;
        line[used] = 0;
        fprintf(o, "%s\n", line);
    }
    free(t->cells);
    free(t);
}
