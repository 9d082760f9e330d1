/* Numbers of the HTML page in the units a person reads: latency tables in
 * one unit per table, chosen and printed as the text report prints them
 * (analyzer/report/text_table.c: its helpers are not exported by the report
 * library, so the page keeps a copy of the rule), and the charts' interval
 * in µs, ms or s. */
#ifndef NFSSCOPE_OUTPUT_HTML_UNITS_H
#define NFSSCOPE_OUTPUT_HTML_UNITS_H
#include <stddef.h>
#include <stdint.h>

struct html_unit { const char *name; double ns; };

/* The text report's unit for a table whose largest value is max_ns: µs below
 * 10 ms, ms below 100 s, else s. */
struct html_unit html_unit_for(uint64_t max_ns);
/* An exact value (mean, max): to the microsecond. */
void html_fmt_exact(char *buf, size_t n, double ns, struct html_unit u);
/* A histogram's percentile: three significant digits, printed exactly when
 * rounding would put it past min or max. */
void html_fmt_percentile(char *buf, size_t n, uint64_t ns, uint64_t min_ns, uint64_t max_ns, struct html_unit u);
/* A duration such as a chart's interval: "512 µs", "1.02 ms", "0.262 s". */
void html_fmt_duration(char *buf, size_t n, int64_t ns);

#endif
