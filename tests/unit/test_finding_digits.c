/* finding_digits (analysis/finding_digits.c): the integer a finding's state
 * keeps for a figure its message prints with "%.Nf" gives the same text as
 * printf did, for the figures the messages have (percentages, milliseconds,
 * seconds, computed as they are) and for exact ties, which printf rounds to
 * even (0.25 -> "0.2", 0.75 -> "0.8"). */
#include <stdlib.h>

#include "check.h"
#include "finding_digits.h"

static const int64_t POW10[4] = {1, 10, 100, 1000};

/* The text "%.Nf" of v, and the same from finding_digits. */
static int same_text(double v, unsigned d)
{
    char want[64], got[64];
    snprintf(want, sizeof want, "%.*f", (int)d, v);
    int64_t q = finding_digits(v, d);
    if (d) snprintf(got, sizeof got, "%" PRId64 ".%0*" PRId64, q / POW10[d], (int)d, q % POW10[d]);
    else snprintf(got, sizeof got, "%" PRId64, q);
    if (strcmp(want, got) == 0) return 1;
    fprintf(stderr, "%.17g at %u decimals: printf \"%s\", finding_digits \"%s\"\n", v, d, want, got);
    return 0;
}

static void test_ties(void)
{
    /* exact binary ties: to even */
    CHECK_EQ_U(finding_digits(0.25, 1), 2);
    CHECK_EQ_U(finding_digits(0.75, 1), 8);
    CHECK_EQ_U(finding_digits(2.5, 0), 2);
    CHECK_EQ_U(finding_digits(3.5, 0), 4);
    CHECK_EQ_U(finding_digits(0.0625, 3), 62);
    CHECK_EQ_U(finding_digits(0.1875, 3), 188);
    /* decimal "ties" that are not binary ones go by the exact value */
    CHECK_EQ_U(finding_digits(0.35, 1), 3);  /* 0.34999999999999997779... */
    CHECK_EQ_U(finding_digits(0.45, 1), 5);  /* 0.45000000000000001110... */
    CHECK_EQ_U(finding_digits(1.0005, 3), 1000);
    CHECK(same_text(0.05, 1));
    CHECK(same_text(99.95, 1));
    CHECK(same_text(100.0, 1));
    CHECK(same_text(0.0, 1));
    CHECK(same_text(5e-324, 3)); /* subnormal */
    CHECK(same_text(1e12, 3));
}

static void test_as_messages_compute(void)
{
    /* 100 x a / b (percentages), ns / 1e6 (ms), ns / 1e9 (s) over many values */
    unsigned bad = 0;
    srand(21);
    for (int i = 0; i < 200000; i++) {
        uint64_t a = (uint64_t)rand() % 5000, b = 1 + (uint64_t)rand() % 5000;
        int64_t ns = ((int64_t)rand() << 20 | rand()) % (int64_t)4e12;
        if (a > b) a = b;
        bad += !same_text(100.0 * (double)a / (double)b, 1);
        bad += !same_text((double)ns / 1e6, 1);
        bad += !same_text((double)ns / 1e9, 3);
        bad += !same_text(100.0 * (double)ns / (double)(ns + 1 + rand() % 1000000), 1);
        if (bad > 20) break;
    }
    /* every tie x.x5 ms from whole nanoseconds */
    for (int64_t ns = 50000; ns < 400000000; ns += 100000) bad += !same_text((double)ns / 1e6, 1);
    for (int64_t ns = 500000; ns < 4000000000; ns += 1000000) bad += !same_text((double)ns / 1e9, 3);
    CHECK_EQ_U(bad, 0);
}

int main(void)
{
    test_ties();
    test_as_messages_compute();
    return check_done("test_finding_digits");
}
