/* Shared by the name tables: the name of a value no table knows. */
#ifndef NFSSCOPE_NAMES_INT_H
#define NFSSCOPE_NAMES_INT_H
#include <stdint.h>

/* "UNKNOWN(<v>)": the number is kept (a fuzzed server's 0x41414141 shows as
 * UNKNOWN(1094795585)). The string lives in a ring of 256 slots, so up to
 * 256 such names can be held at once (a status table has 128 rows). */
const char *names_unknown_number(uint32_t v);

#endif
