/* Text tables (see text_table.h). */
#include "text_table.h"

#include <math.h>
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

struct time_unit time_unit_for(unsigned long long max_ns)
{
    if (max_ns >= 100000000000ull) return (struct time_unit){"s", 1e9}; /* 100 s and beyond */
    if (max_ns >= 10000000ull) return (struct time_unit){"ms", 1e6};    /* 10 ms .. 100 s */
    return (struct time_unit){"us", 1e3};
}

void fmt_percentile(char *buf, size_t n, unsigned long long ns, struct time_unit u)
{
    double v = (double)ns / u.ns;
    int digits = v > 0 ? (int)floor(log10(v)) + 1 : 1; /* before the point */
    int dec = 3 - digits;
    if (dec < 0) { /* 31004 -> 31000: the digits beyond the third are noise */
        double scale = pow(10, -dec);
        v = round(v / scale) * scale;
        dec = 0;
    }
    /* rounding may add a digit (9.995 -> 10.00): one decimal fewer */
    if (dec > 0 && v > 0 && floor(log10(v * 1.0005)) + 1 > digits) dec--;
    snprintf(buf, n, "%.*f", dec, v);
}

void fmt_percentile_within(char *buf, size_t n, unsigned long long ns, unsigned long long min_ns,
                           unsigned long long max_ns, struct time_unit u)
{
    fmt_percentile(buf, n, ns, u);
    double shown = strtod(buf, NULL) * u.ns;
    if (shown > (double)max_ns || shown < (double)min_ns) fmt_exact(buf, n, (double)ns, u);
}

void fmt_exact(char *buf, size_t n, double ns, struct time_unit u)
{
    int dec = u.ns >= 1e9 ? 6 : u.ns >= 1e6 ? 3 : 0;
    snprintf(buf, n, "%.*f", dec, ns / u.ns);
}
