/* The clock offset between two captures from causality alone.
 *
 * offset(t) = server clock - client clock, at client time t. A matched
 * transaction bounds it twice: its call was received after it was sent,
 *     offset(call_c) <= call_s - call_c            (an upper bound at call_c)
 * and its reply too,
 *     offset(reply_c) >= reply_s - reply_c          (a lower bound at reply_c).
 * With offset(t) = a + b*t, for a fixed drift b the feasible a lie in
 *     [max_i(lo_i - b*t_i), min_j(hi_j - b*t_j)]
 * whose width W(b) is concave (a minimum of lines minus a maximum of lines).
 * The estimate: the b that maximises W (ternary search), a in the middle
 * of its range; the drift's bounds: where W(b) >= 0 (binary searches); the
 * offset's bounds: the range of a over every feasible b. No b with W >= 0:
 * no line fits, one clock jumped. */
#ifndef NFSSCOPE_TP_OFFSET_H
#define NFSSCOPE_TP_OFFSET_H
#include <stdbool.h>
#include <stddef.h>

struct tp_bound {
    double t; /* client time, ns from the client capture's start */
    double v; /* offset bound there, ns */
};

struct tp_offset {
    bool estimated;      /* both kinds of bounds were given */
    bool feasible;       /* a line fits them all */
    double a, a_lo, a_hi; /* offset at t = 0 (ns): estimate and bounds */
    double b, b_lo, b_hi; /* drift (ns per ns): estimate and bounds */
    bool b_lo_open, b_hi_open; /* the bound is the search's edge (-b_max / +b_max) */
};

/* lo: lower bounds (replies), hi: upper bounds (calls); drifts searched in
 * [-b_max, b_max]. */
void tp_offset_estimate(const struct tp_bound *lo, size_t nlo, const struct tp_bound *hi, size_t nhi, double b_max,
                        struct tp_offset *out);

#endif
