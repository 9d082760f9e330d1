/* Units of the HTML page (html_units.h). */
#include "html_units.h"

#include <stdio.h>

void html_fmt_duration(char *buf, size_t n, int64_t ns)
{
    if (ns < 1000000) snprintf(buf, n, "%.3g \xc2\xb5s", (double)ns / 1e3);
    else if (ns < 1000000000) snprintf(buf, n, "%.3g ms", (double)ns / 1e6);
    else snprintf(buf, n, "%.3g s", (double)ns / 1e9);
}
