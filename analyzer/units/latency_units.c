/* Latency units (latency_units.h). */
#include "latency_units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct time_unit time_unit_for(unsigned long long max_ns)
{
    if (max_ns >= 100000000000ull) return (struct time_unit){"s", 1e9}; /* 100 s and beyond */
    if (max_ns >= 10000000ull) return (struct time_unit){"ms", 1e6};    /* 10 ms .. 100 s */
    return (struct time_unit){"us", 1e3};
}

const char *time_unit_symbol(struct time_unit u) { return strcmp(u.name, "us") == 0 ? "\xc2\xb5s" : u.name; }

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
