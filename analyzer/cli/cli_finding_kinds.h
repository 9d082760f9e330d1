/* The finding kinds and severities --fail-on accepts (doc/findings.md lists
 * the same kinds; the doc test compares the two), --min-severity's value,
 * and whether --fail-on is met. */
#ifndef NFSSCOPE_CLI_FINDING_KINDS_H
#define NFSSCOPE_CLI_FINDING_KINDS_H
#include <stdbool.h>
#include <stddef.h>

#include "nfsscope/nfsscope.h"

/* "info", "warning", "error", "critical" (case-insensitive, len bytes of s)
 * as enum ns_severity; -1 if none. */
int severity_parse(const char *s, size_t len);

/* Check a --fail-on list "A,b,error": every word a known kind or a severity
 * (case-insensitive), none empty. On success the list is rewritten in place
 * to its kinds alone, in upper case (as the analyzer names kinds; "" when
 * it named only severities), *min_sev is the least severe severity named
 * ("error": error or worse; -1 when none), and true is returned; else false
 * with a one-line reason naming the severities and the valid kinds in err. */
bool finding_kinds_check(char *list, int *min_sev, char *err, size_t errlen);

/* A finding of one of the kinds (comma-separated; NULL or "": none) or of
 * severity min_sev or worse (-1: none) exists: --fail-on is met. */
bool fail_on_met(ns_analyzer *a, const char *kinds, int min_sev);

#endif
