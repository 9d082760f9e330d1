#include "finding_digits.h"

#include <string.h>

int64_t finding_digits(double v, unsigned decimals)
{
    /* v = m x 2^e exactly; v x 10^d = (m x 5^d) x 2^(e + d), and m x 5^d
     * (53 + 7 bits) fits 64: the rounding below sees the exact value, where
     * a double multiplication could make a tie or hide one. */
    static const uint64_t pow5[4] = {1, 5, 25, 125};
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int e = (int)(bits >> 52 & 0x7ff);
    uint64_t m = bits & ((UINT64_C(1) << 52) - 1);
    if (e) m |= UINT64_C(1) << 52;
    else e = 1; /* subnormal */
    m *= pow5[decimals & 3];
    int shift = e - 1075 + (int)(decimals & 3);
    if (shift >= 0) return shift <= 3 ? (int64_t)(m << shift) : INT64_MAX; /* past 2^62: no message has one */
    if (shift <= -61) return 0; /* m < 2^60: below one half */
    unsigned s = (unsigned)-shift;
    uint64_t q = m >> s, rest = m & ((UINT64_C(1) << s) - 1), half = UINT64_C(1) << (s - 1);
    if (rest > half || (rest == half && (q & 1))) q++;
    return (int64_t)q;
}
