/* The report's number formats (analyzer/report/text_table.c): a percentile
 * is never printed past the exact min or max beside it. The two cases the
 * issue saw (23): WRITE p99 "3.00" with max "2.999" (ms), COMMIT p50
 * "1400" with min "1404" (us). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "text_table.h"

static void check_within(unsigned long long p, unsigned long long min, unsigned long long max, struct time_unit u,
                         const char *want)
{
    char b[32], lo[32], hi[32];
    fmt_percentile_within(b, sizeof b, p, min, max, u);
    fmt_exact(lo, sizeof lo, (double)min, u);
    fmt_exact(hi, sizeof hi, (double)max, u);
    CHECK_EQ_S(b, want);
    CHECK(strtod(b, NULL) <= strtod(hi, NULL) && strtod(b, NULL) >= strtod(lo, NULL));
}

int main(void)
{
    struct time_unit ms = {"ms", 1e6}, us = {"us", 1e3};
    char b[32];
    /* three significant digits round 2.9994 ms up to 3.00, past max 2.9994 */
    fmt_percentile(b, sizeof b, 2999400, ms);
    CHECK_EQ_S(b, "3.00");
    check_within(2999400, 100000, 2999400, ms, "2.999");
    /* ... and 1404 us down to 1400, below min 1404 */
    fmt_percentile(b, sizeof b, 1404000, us);
    CHECK_EQ_S(b, "1400");
    check_within(1404000, 1404000, 2000000, us, "1404");
    /* inside the range the histogram's three digits stay */
    check_within(1523000, 1000000, 2000000, us, "1520");
    check_within(2512345, 100000, 2999400, ms, "2.51");
    return check_done("test_text_table");
}
