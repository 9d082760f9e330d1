/* Clock offset line from causal bounds (see tp_offset.h). */
#include "tp_offset.h"

#include <math.h>

#define ITER 200 /* ternary/binary steps: (2/3)^200 of the drift range, far below 1e-15 */

struct bounds {
    const struct tp_bound *lo, *hi;
    size_t nlo, nhi;
};

/* Lowest a a drift b allows: max_i(lo_i - b t_i) (convex in b). */
static double a_min(const struct bounds *s, double b)
{
    double m = -INFINITY;
    for (size_t i = 0; i < s->nlo; i++) {
        double v = s->lo[i].v - b * s->lo[i].t;
        if (v > m) m = v;
    }
    return m;
}

/* Highest a a drift b allows: min_j(hi_j - b t_j) (concave in b). */
static double a_max(const struct bounds *s, double b)
{
    double m = INFINITY;
    for (size_t j = 0; j < s->nhi; j++) {
        double v = s->hi[j].v - b * s->hi[j].t;
        if (v < m) m = v;
    }
    return m;
}

static double width(const struct bounds *s, double b) { return a_max(s, b) - a_min(s, b); }

/* The b in [l, h] maximising f (concave), or minimising it (convex: sign -1). */
static double ternary(const struct bounds *s, double (*f)(const struct bounds *, double), double sign, double l,
                      double h)
{
    for (int i = 0; i < ITER && h - l > 0; i++) {
        double m1 = l + (h - l) / 3, m2 = h - (h - l) / 3;
        if (sign * f(s, m1) < sign * f(s, m2)) l = m1;
        else h = m2;
    }
    return (l + h) / 2;
}

/* The edge of {b : W(b) >= 0} between in (W >= 0) and out (W < 0). */
static double edge(const struct bounds *s, double in, double out)
{
    for (int i = 0; i < ITER; i++) {
        double m = (in + out) / 2;
        if (width(s, m) >= 0) in = m;
        else out = m;
    }
    return in;
}

void tp_offset_estimate(const struct tp_bound *lo, size_t nlo, const struct tp_bound *hi, size_t nhi, double b_max,
                        struct tp_offset *out)
{
    *out = (struct tp_offset){0};
    if (!nlo || !nhi) return;
    out->estimated = true;
    struct bounds s = {lo, hi, nlo, nhi};
    double b = ternary(&s, width, 1, -b_max, b_max);
    if (width(&s, b) < 0) return; /* no line fits */
    out->feasible = true;
    out->b = b;
    out->a = (a_min(&s, b) + a_max(&s, b)) / 2;
    out->b_lo_open = width(&s, -b_max) >= 0;
    out->b_hi_open = width(&s, b_max) >= 0;
    out->b_lo = out->b_lo_open ? -b_max : edge(&s, b, -b_max);
    out->b_hi = out->b_hi_open ? b_max : edge(&s, b, b_max);
    out->a_lo = a_min(&s, ternary(&s, a_min, -1, out->b_lo, out->b_hi));
    out->a_hi = a_max(&s, ternary(&s, a_max, 1, out->b_lo, out->b_hi));
    if (out->a_lo > out->a) out->a_lo = out->a; /* rounding at the edges */
    if (out->a_hi < out->a) out->a_hi = out->a;
}
