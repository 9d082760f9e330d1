/* Text tables of the report: cells collected row by row, then printed with
 * each column as wide as its widest cell (a report at 100 columns keeps
 * narrow tables narrow, and a long IPv6 address widens only its column). */
#ifndef NFSSCOPE_TEXT_TABLE_H
#define NFSSCOPE_TEXT_TABLE_H
#include <stddef.h>
#include <stdio.h>

#define TABLE_COLS 20

struct table;

/* align: one 'l' or 'r' per column ("lrr"); heads: the column titles. NULL
 * when out of memory (the caller prints nothing). */
struct table *table_new(const char *align, const char *const heads[]);
/* Append a cell to the current row (printf format). */
void table_cell(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* End the current row. */
void table_row_end(struct table *t);
/* Print with indent spaces before each line, two spaces between columns,
 * no trailing blanks; frees the table. */
void table_print(struct table *t, FILE *o, int indent);

/* Latency in one unit per table: chosen from the largest value shown. */
struct time_unit { const char *name; double ns; };
struct time_unit time_unit_for(unsigned long long max_ns);
/* A percentile read from the histogram (about 1% wide buckets): three
 * significant digits in unit u. */
void fmt_percentile(char *buf, size_t n, unsigned long long ns, struct time_unit u);
/* A percentile beside the exact min and max of the same samples: as
 * fmt_percentile, unless its rounding would print it past them (p99 "3.00"
 * beside max "2.999", p50 "1400" beside min "1404"); then exactly, as they
 * are printed. */
void fmt_percentile_within(char *buf, size_t n, unsigned long long ns, unsigned long long min_ns,
                           unsigned long long max_ns, struct time_unit u);
/* An exact value (mean, min, max) in unit u: to the microsecond. */
void fmt_exact(char *buf, size_t n, double ns, struct time_unit u);

#endif
