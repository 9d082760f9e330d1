/* Minimal unit-test support: CHECK records a failure and continues;
 * check_done() prints a summary and returns the exit status. */
#ifndef NFSSCOPE_CHECK_H
#define NFSSCOPE_CHECK_H
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failures, check_count;

#define CHECK(cond) do { check_count++; if (!(cond)) { check_failures++; \
    fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_EQ_U(a, b) do { unsigned long long _a = (a), _b = (b); check_count++; if (_a != _b) { \
    check_failures++; fprintf(stderr, "%s:%d: %s == %llu, expected %s == %llu\n", \
    __FILE__, __LINE__, #a, _a, #b, _b); } } while (0)
#define CHECK_EQ_S(a, b) do { const char *_a = (a), *_b = (b); check_count++; \
    if (!_a || !_b || strcmp(_a, _b) != 0) { check_failures++; \
    fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, \
    _a ? _a : "(null)", _b ? _b : "(null)"); } } while (0)

static inline int check_done(const char *name)
{
    fprintf(stderr, "%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}
#endif
