/* Small helpers to write JSON text to a stdio stream. */
#ifndef NFSSCOPE_JSON_WRITE_H
#define NFSSCOPE_JSON_WRITE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A JSON string literal with escapes; n bytes of s (s need not end in NUL). */
void json_str(FILE *o, const char *s, size_t n);
static inline void json_cstr(FILE *o, const char *s) { json_str(o, s, __builtin_strlen(s)); }
/* Seconds since the epoch with 6 decimals, from nanoseconds. */
void json_ts(FILE *o, int64_t ns);
/* 32 lowercase hex digits of a 16-byte session id, quoted. */
void json_hex(FILE *o, const uint8_t *b, size_t n);
/* A connection's name ("c7"), quoted. */
void json_conn(FILE *o, uint32_t id);

#endif
