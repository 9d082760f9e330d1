/* The charts' interval in the units a person reads. (The tables' latency
 * units are the text report's rule: analyzer/units/latency_units.h.) */
#ifndef NFSSCOPE_OUTPUT_HTML_UNITS_H
#define NFSSCOPE_OUTPUT_HTML_UNITS_H
#include <stddef.h>
#include <stdint.h>

/* A duration such as a chart's interval: "512 µs", "1.02 ms", "0.262 s". */
void html_fmt_duration(char *buf, size_t n, int64_t ns);

#endif
