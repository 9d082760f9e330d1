/* The wall clock is used here only, to pace the progress line; it never
 * reaches the report. */
#include "cli_progress.h"

#include <sys/stat.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_start(struct progress *p, FILE *f, const char *path)
{
    p->f = f;
    p->size = 0;
    p->start = p->last = now_s();
    struct stat sb;
    if (f && path && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) p->size = (long long)sb.st_size;
}

void progress_tick(struct progress *p, uint64_t frames)
{
    if (!p->f) return;
    double t = now_s();
    if (t - p->last < 0.5) return;
    p->last = t;
    double el = t - p->start;
    long long pos = ftell(p->f);
    if (p->size > 0 && pos >= 0)
        fprintf(stderr, "\r  %5.1f%%  %llu frames  %.0f frames/s  %.1f s ", 100.0 * (double)pos / (double)p->size,
                (unsigned long long)frames, (double)frames / el, el);
    else
        fprintf(stderr, "\r  %llu frames  %.0f frames/s  %.1f s ", (unsigned long long)frames, (double)frames / el, el);
    fflush(stderr);
}

void progress_end(struct progress *p)
{
    if (p->f && p->last > p->start) fputs("\r\033[K", stderr);
}
