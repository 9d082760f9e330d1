/* Latency percentiles. Definition (stats.h, stats.c): nearest rank, i.e.
 * the smallest sample with at least p of all samples at or below it (rank =
 * ceil(p * n), at least 1); the answer is the midpoint of that sample's
 * histogram bucket, kept within [smallest sample, largest sample]. Buckets: values below 64 ns
 * are exact; above, each octave [2^k, 2^(k+1)) is cut into 64 equal buckets
 * of width 2^(k-6). Every expected value below is worked out by hand. */
#include "check.h"
#include "stats_int.h"

static void add_n(struct ns_latency *l, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) ns_latency_add(l, v);
}

static void test_small_exact(void)
{
    struct ns_latency l;
    memset(&l, 0, sizeof l);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.5), 0); /* no samples */
    for (uint64_t v = 10; v >= 1; v--) ns_latency_add(&l, v); /* 1..10, any order */
    CHECK_EQ_U(l.count, 10);
    CHECK_EQ_U(l.sum_ns, 55);
    CHECK_EQ_U(l.max_ns, 10);
    CHECK_EQ_U(l.min_ns, 1);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.0), 1);   /* rank 1 */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.1), 1);   /* rank 1 */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.11), 2);  /* ceil(1.1) = 2 */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.5), 5);   /* rank 5 */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.9), 9);   /* rank 9 */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.95), 10); /* ceil(9.5) = 10 */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.99), 10);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 1.0), 10);

    /* 63 is the last exact value; 64 is the first 1-wide bucket of octave 6 */
    memset(&l, 0, sizeof l);
    ns_latency_add(&l, 63);
    ns_latency_add(&l, 64);
    ns_latency_add(&l, 127);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.3), 63);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.6), 64);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 1.0), 127);
}

static void test_buckets(void)
{
    struct ns_latency l;
    memset(&l, 0, sizeof l);
    /* 1000 = 0b1111101000: octave 9, width 2^3 = 8, bucket [1000, 1008), midpoint 1004.
     * 5000: octave 12, width 64, bucket [4992, 5056), midpoint 5024 > max 5000. */
    add_n(&l, 1000, 2);
    ns_latency_add(&l, 5000);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.5), 1004);  /* rank 2 */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.67), 5000); /* rank 3: 5024 capped at 5000 */
    CHECK_EQ_U(l.sum_ns, 7000);

    /* 1 ms: octave 19, width 8192, bucket [999424, 1007616), midpoint 1003520.
     * 5 ms: octave 22, width 65536, bucket [4980736, 5046272), midpoint 5013504 > max. */
    memset(&l, 0, sizeof l);
    add_n(&l, 1000000, 99);
    ns_latency_add(&l, 5000000);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.5), 1003520);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.99), 1003520);  /* rank 99 */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.995), 5000000); /* rank 100, capped */
    CHECK_EQ_U(l.max_ns, 5000000);

    /* values sharing a bucket: 2000..2015 are octave 10, width 16, [2000, 2016) */
    memset(&l, 0, sizeof l);
    for (uint64_t v = 2000; v < 2016; v++) ns_latency_add(&l, v);
    ns_latency_add(&l, 1);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.05), 1);    /* rank 1 */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.5), 2008);  /* rank 9: bucket midpoint */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 1.0), 2008);  /* 2008 < max 2015 */

    /* 1 s = 10^9 ns: octave 29, width 2^23; bucket lo = floor(10^9 / 2^23) * 2^23
     * = 119 * 8388608 = 998244352, midpoint 1002438656 > max: 10^9 */
    memset(&l, 0, sizeof l);
    ns_latency_add(&l, 1000000000);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.5), 1000000000);
    ns_latency_add(&l, 999000000); /* 119 * 2^23 = 998244352 <= 999000000: same bucket */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.5), 1000000000);
    ns_latency_add(&l, 998000000); /* below 998244352: bucket 118, [989855744, 998244352) */
    CHECK_EQ_U(l.min_ns, 998000000);
    /* rank 1: midpoint 989855744 + 4194304 = 994050048 < min: 998000000 */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.3), 998000000);
    ns_latency_add(&l, 990000000); /* same bucket 118, now the minimum */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.25), 994050048); /* rank 1: the midpoint itself */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.5), 994050048);  /* rank 2: bucket 118 too */
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.75), 1000000000); /* rank 3: bucket 119, capped */
}

/* The last bucket has no upper end: it holds every value from 127 * 2^40 ns
 * on (each octave has 64 buckets; the 42nd row is octave 46). A "midpoint"
 * of 127.5 * 2^40 can be far below every sample in it; the largest sample is
 * the only bound there is. */
static void test_overflow_bucket(void)
{
    struct ns_latency l;
    memset(&l, 0, sizeof l);
    uint64_t big = 1ull << 50;
    ns_latency_add(&l, big);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.5), big);
    ns_latency_add(&l, 1000);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 0.5), 1004);
    CHECK_EQ_U(ns_latency_percentile_ns(&l, 1.0), big);
}

/* Per-operation counters (10.8 KB each) come out of the memory cap: a key
 * the cap refuses has no counters and is counted; freeing gives it back. */
static void test_op_stats_memcap(void)
{
    static struct ns_stats st;
    memset(&st, 0, sizeof st);
    struct memcap mc;
    memcap_init(&mc, 64u << 20);
    mc.cap[MEM_FLOWS] = 2 * sizeof(struct ns_op_stats) + 100;
    CHECK(stats_op(&st, &mc, 1) != NULL);
    CHECK(stats_op(&st, &mc, 2) != NULL);
    CHECK(stats_op(&st, &mc, 1) == st.ops[1]); /* found again: nothing taken */
    CHECK_EQ_U(mc.used[MEM_FLOWS], 2 * sizeof(struct ns_op_stats));
    CHECK(stats_op(&st, &mc, 3) == NULL);
    CHECK_EQ_U(st.evicted_op_stats, 1);
    stats_free(&st, &mc);
    CHECK_EQ_U(mc.used[MEM_FLOWS], 0);
    CHECK_EQ_U(mc.total_used, 0);
}

int main(void)
{
    test_small_exact();
    test_buckets();
    test_overflow_bucket();
    test_op_stats_memcap();
    return check_done("test_stats");
}
