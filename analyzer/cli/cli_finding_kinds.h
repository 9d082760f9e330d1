/* The finding kinds --fail-on accepts (doc/findings.md lists the same; the
 * doc test compares the two). */
#ifndef NFSSCOPE_CLI_FINDING_KINDS_H
#define NFSSCOPE_CLI_FINDING_KINDS_H
#include <stdbool.h>
#include <stddef.h>

/* Check a --fail-on list "A,b,C": every kind known (case-insensitive), none
 * empty. On success the list is rewritten in place in upper case (as the
 * analyzer names kinds) and true is returned; else false with a one-line
 * reason naming the valid kinds in err. */
bool finding_kinds_check(char *list, char *err, size_t errlen);

#endif
