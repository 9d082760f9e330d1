/* Units of the HTML page (html_units.h). */
#include "html_units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct html_unit html_unit_for(uint64_t max_ns)
{
    if (max_ns >= 100000000000ull) return (struct html_unit){"s", 1e9};
    if (max_ns >= 10000000ull) return (struct html_unit){"ms", 1e6};
    return (struct html_unit){"\xc2\xb5s", 1e3};
}

void html_fmt_exact(char *buf, size_t n, double ns, struct html_unit u)
{
    int dec = u.ns >= 1e9 ? 6 : u.ns >= 1e6 ? 3 : 0;
    snprintf(buf, n, "%.*f", dec, ns / u.ns);
}

void html_fmt_percentile(char *buf, size_t n, uint64_t ns, uint64_t min_ns, uint64_t max_ns, struct html_unit u)
{
    double v = (double)ns / u.ns;
    int digits = v > 0 ? (int)floor(log10(v)) + 1 : 1, dec = 3 - digits;
    if (dec < 0) { /* 31004 -> 31000: the digits beyond the third are noise */
        double scale = pow(10, -dec);
        v = round(v / scale) * scale;
        dec = 0;
    }
    if (dec > 0 && v > 0 && floor(log10(v * 1.0005)) + 1 > digits) dec--; /* 9.995 -> 10.00 */
    snprintf(buf, n, "%.*f", dec, v);
    double shown = strtod(buf, NULL) * u.ns;
    if (shown > (double)max_ns || shown < (double)min_ns) html_fmt_exact(buf, n, (double)ns, u);
}

void html_fmt_duration(char *buf, size_t n, int64_t ns)
{
    if (ns < 1000000) snprintf(buf, n, "%.3g \xc2\xb5s", (double)ns / 1e3);
    else if (ns < 1000000000) snprintf(buf, n, "%.3g ms", (double)ns / 1e6);
    else snprintf(buf, n, "%.3g s", (double)ns / 1e9);
}
