/* Progress line on stderr for long offline runs (terminal only). */
#ifndef NFSSCOPE_CLI_PROGRESS_H
#define NFSSCOPE_CLI_PROGRESS_H
#include <stdint.h>
#include <stdio.h>

struct progress {
    FILE *f;            /* the capture being read; NULL = progress off */
    long long size;     /* file size, 0 if unknown (stdin) */
    double start, last; /* wall clock, seconds */
};

void progress_start(struct progress *p, FILE *f, const char *path);
void progress_tick(struct progress *p, uint64_t frames);
/* Erase the progress line. */
void progress_end(struct progress *p);

#endif
