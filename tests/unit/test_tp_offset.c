/* The two-point clock offset estimator (analyzer/pair/tp_offset.h) on
 * bounds whose answer is derived by hand below. */
#include <math.h>

#include "check.h"
#include "tp_offset.h"

#define NEAR(x, want, tol) CHECK(fabs((x) - (want)) <= (tol))

/* offset 0, no drift, 10 ns each way at t = 0 and t = 1000 ns:
 * W(b) = 20 - 1000|b|: best b = 0 (W = 20), feasible |b| <= 0.02;
 * a at b = 0 in [-10, 10]: estimate 0; over every feasible b, a_min(b) =
 * max(-10, -10 - 1000b) is lowest (-10) for b >= 0 and a_max(b) =
 * min(10, 10 - 1000b) highest (10) for b <= 0: bounds [-10, 10]. */
static void flat(void)
{
    struct tp_bound lo[] = {{0, -10}, {1000, -10}}, hi[] = {{0, 10}, {1000, 10}};
    struct tp_offset r;
    tp_offset_estimate(lo, 2, hi, 2, 1.0, &r);
    CHECK(r.estimated && r.feasible);
    NEAR(r.b, 0, 1e-9);
    NEAR(r.a, 0, 1e-6);
    NEAR(r.a_lo, -10, 1e-6);
    NEAR(r.a_hi, 10, 1e-6);
    NEAR(r.b_lo, -0.02, 1e-12);
    NEAR(r.b_hi, 0.02, 1e-12);
    CHECK(!r.b_lo_open && !r.b_hi_open);
}

/* A known line, offset 5000 ns + 100 ppm: bounds 10 ns either side of it
 * at t = 0, 1 s, 2 s. For b' = b - d (d > 0) the tightest upper bound is
 * at t = 0 (a + 10) and the tightest lower one at t = 2 s
 * (a - 10 + d * 2e9): W = 20 - 2e9 |b - b'|, so b' = b, a = 5000, and the
 * drift within 20 / 2e9 = 1e-8 (0.01 ppm); a over those drifts: lowest
 * a - 10 (b' >= b, at t = 0), highest a + 10 (b' <= b, at t = 0). */
static void drifting(void)
{
    const double a = 5000, b = 100e-6;
    struct tp_bound lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        double t = i * 1e9;
        lo[i] = (struct tp_bound){t, a + b * t - 10};
        hi[i] = (struct tp_bound){t, a + b * t + 10};
    }
    struct tp_offset r;
    tp_offset_estimate(lo, 3, hi, 3, 2e-3, &r);
    CHECK(r.estimated && r.feasible);
    NEAR(r.b * 1e6, 100, 1e-6);
    NEAR(r.a, 5000, 1e-3);
    NEAR(r.b_lo * 1e6, 99.99, 1e-6);
    NEAR(r.b_hi * 1e6, 100.01, 1e-6);
    NEAR(r.a_lo, 4990, 1e-3);
    NEAR(r.a_hi, 5010, 1e-3);
}

/* One bound of each kind: W(b) = (1100 - 900) + 400 b grows with b without
 * end, so the upper drift bound is the search's edge (open); the lower one
 * is where W = 0, b = -0.5. */
static void open_drift(void)
{
    struct tp_bound lo[] = {{400, 900}}, hi[] = {{0, 1100}};
    struct tp_offset r;
    tp_offset_estimate(lo, 1, hi, 1, 1.0, &r);
    CHECK(r.feasible);
    CHECK(r.b_hi_open);
    CHECK(!r.b_lo_open);
    NEAR(r.b_lo, -0.5, 1e-12);
}

/* The server's clock jumps 1 ms between t = 1 s and t = 2 s: the bounds at
 * 0 and 1 s force |b| <= 2e-8, and then offset(2 s) <= 50 ns, far below the
 * lower bound 1e6 - 10 there: no line fits. */
static void jump(void)
{
    struct tp_bound lo[] = {{0, -10}, {1e9, -10}, {2e9, 1e6 - 10}, {3e9, 1e6 - 10}};
    struct tp_bound hi[] = {{0, 10}, {1e9, 10}, {2e9, 1e6 + 10}, {3e9, 1e6 + 10}};
    struct tp_offset r;
    tp_offset_estimate(lo, 4, hi, 4, 2e-3, &r);
    CHECK(r.estimated);
    CHECK(!r.feasible);
    /* the first two alone fit */
    tp_offset_estimate(lo, 2, hi, 2, 2e-3, &r);
    CHECK(r.feasible);
}

/* A reply dated before its call's bound allows: lower bound above upper bound
 * at the same time, whatever the drift. */
static void crossed(void)
{
    struct tp_bound lo[] = {{0, 20}}, hi[] = {{0, 10}};
    struct tp_offset r;
    tp_offset_estimate(lo, 1, hi, 1, 2e-3, &r);
    CHECK(r.estimated && !r.feasible);
    tp_offset_estimate(lo, 1, hi, 0, 2e-3, &r);
    CHECK(!r.estimated);
}

int main(void)
{
    flat();
    drifting();
    open_drift();
    jump();
    crossed();
    return check_done("test_tp_offset");
}
