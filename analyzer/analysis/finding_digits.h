/* A number as a finding's message shows it, kept as an integer: the message
 * is rendered later from the state the analysis keeps (finding_table.h), and
 * equal states must be equal messages, so a figure the message prints with
 * "%.1f" is kept as the integer of tenths that "%.1f" would print. */
#ifndef NFSSCOPE_FINDING_DIGITS_H
#define NFSSCOPE_FINDING_DIGITS_H
#include <stdint.h>

/* v (>= 0, finite) times 10^decimals (decimals <= 3), rounded the way glibc's
 * printf rounds "%.<decimals>f": to nearest on the exact binary value, ties
 * to even. "%" PRId64 ".%0<decimals>" PRId64 of its quotient and remainder
 * by 10^decimals is then the same text. */
int64_t finding_digits(double v, unsigned decimals);

#endif
