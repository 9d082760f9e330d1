/* Text tables of the report: cells collected row by row, then printed with
 * each column as wide as its widest cell (a report at 100 columns keeps
 * narrow tables narrow, and a long IPv6 address widens only its column). */
#ifndef NFSSCOPE_TEXT_TABLE_H
#define NFSSCOPE_TEXT_TABLE_H
#include <stddef.h>
#include <stdio.h>

#include "latency_units.h" /* latency cells: the unit rule the HTML page shares */

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

#endif
