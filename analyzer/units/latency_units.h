/* Latency in the units a person reads: the one rule the text report
 * (analyzer/report) and the HTML page (analyzer/output) print tables by.
 * A table takes one unit, chosen from its largest value; exact values
 * (mean, min, max) are printed to the microsecond, percentiles read from a
 * histogram to three significant digits, never past the exact min or max
 * beside them. Built into both libraries, hidden in each (no library
 * exports it): neither includes the other's private headers. */
#ifndef NFSSCOPE_LATENCY_UNITS_H
#define NFSSCOPE_LATENCY_UNITS_H
#include <stddef.h>

/* name: ASCII ("us", "ms", "s"), as the text report prints it. */
struct time_unit { const char *name; double ns; };
/* The unit's symbol where UTF-8 is at hand (the page): "µs"; else the name. */
const char *time_unit_symbol(struct time_unit u);

/* The unit of a table whose largest value is max_ns: us below 10 ms, ms
 * below 100 s, else s. */
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
