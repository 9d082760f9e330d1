/* Library calls the analysis makes per frame (issue 21): the program is
 * linked with -Wl,--wrap for the formatting functions (snprintf, vsnprintf,
 * sprintf and their _FORTIFY_SOURCE _chk forms), the allocator (malloc,
 * calloc, realloc), strlen and qsort, and counts the calls made while
 * ns_analyzer_feed runs, with no front end listening (the program's report
 * path). What it sees: every call the core object makes to these symbols
 * (checked first: a call of the core known to format and allocate must be
 * seen). What it cannot see: calls inside libc (qsort's own buffer,
 * snprintf's strlen of a %s), strlen the compiler expands inline, functions
 * not wrapped (free, strftime, the other string functions), the cost of a
 * call (bench/format_cost.sh counts instructions), and calls from other
 * functions than feed (settle, finish, the views a front end reads, where
 * messages are rendered).
 *
 *   count_feed_calls [--fmt MAX] [--strlen MAX] [--alloc PER_1K_FRAMES]
 *                    [--alloc-late PER_1K_FRAMES] [--events] CAPTURE...
 *
 * Limits are per capture: formatting and strlen calls in all (default 0);
 * allocations per 1,000 frames over the whole capture and over its second
 * half (after warm-up); exit 1 if one is passed. --events also feeds each
 * capture with an event listener, as the live screen and the Wireshark
 * plugin do, and prints those counts without limits (a finding event hands
 * out the finding with its message: rendered for each one). */
#include <pcap/pcap.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfsscope/nfsscope.h"

enum { C_FMT, C_ALLOC, C_STRLEN, C_QSORT, C_N };
static bool counting;
static uint64_t calls[C_N];
#define COUNT(k) do { if (counting) calls[k]++; } while (0)

/* The real functions (--wrap=X makes __real_X name them) and the wrappers. */
int __real_vsnprintf(char *s, size_t n, const char *fmt, va_list ap);
int __real_vsprintf(char *s, const char *fmt, va_list ap);
int __real___vsnprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, va_list ap);
int __real___vsprintf_chk(char *s, int flag, size_t slen, const char *fmt, va_list ap);
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
size_t __real_strlen(const char *s);
void __real_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
int __wrap_snprintf(char *s, size_t n, const char *fmt, ...);
int __wrap_vsnprintf(char *s, size_t n, const char *fmt, va_list ap);
int __wrap_sprintf(char *s, const char *fmt, ...);
int __wrap_vsprintf(char *s, const char *fmt, va_list ap);
int __wrap___snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, ...);
int __wrap___vsnprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, va_list ap);
int __wrap___sprintf_chk(char *s, int flag, size_t slen, const char *fmt, ...);
int __wrap___vsprintf_chk(char *s, int flag, size_t slen, const char *fmt, va_list ap);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
size_t __wrap_strlen(const char *s);
void __wrap_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

int __wrap_vsnprintf(char *s, size_t n, const char *fmt, va_list ap)
{
    COUNT(C_FMT);
    return __real_vsnprintf(s, n, fmt, ap);
}

int __wrap_snprintf(char *s, size_t n, const char *fmt, ...)
{
    COUNT(C_FMT);
    va_list ap;
    va_start(ap, fmt);
    int r = __real_vsnprintf(s, n, fmt, ap);
    va_end(ap);
    return r;
}

int __wrap_vsprintf(char *s, const char *fmt, va_list ap)
{
    COUNT(C_FMT);
    return __real_vsprintf(s, fmt, ap);
}

int __wrap_sprintf(char *s, const char *fmt, ...)
{
    COUNT(C_FMT);
    va_list ap;
    va_start(ap, fmt);
    int r = __real_vsprintf(s, fmt, ap);
    va_end(ap);
    return r;
}

int __wrap___vsnprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, va_list ap)
{
    COUNT(C_FMT);
    return __real___vsnprintf_chk(s, n, flag, slen, fmt, ap);
}

int __wrap___snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, ...)
{
    COUNT(C_FMT);
    va_list ap;
    va_start(ap, fmt);
    int r = __real___vsnprintf_chk(s, n, flag, slen, fmt, ap);
    va_end(ap);
    return r;
}

int __wrap___vsprintf_chk(char *s, int flag, size_t slen, const char *fmt, va_list ap)
{
    COUNT(C_FMT);
    return __real___vsprintf_chk(s, flag, slen, fmt, ap);
}

int __wrap___sprintf_chk(char *s, int flag, size_t slen, const char *fmt, ...)
{
    COUNT(C_FMT);
    va_list ap;
    va_start(ap, fmt);
    int r = __real___vsprintf_chk(s, flag, slen, fmt, ap);
    va_end(ap);
    return r;
}

void *__wrap_malloc(size_t n)
{
    COUNT(C_ALLOC);
    return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    COUNT(C_ALLOC);
    return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    COUNT(C_ALLOC);
    return __real_realloc(p, n);
}

size_t __wrap_strlen(const char *s)
{
    COUNT(C_STRLEN);
    return __real_strlen(s);
}

void __wrap_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    COUNT(C_QSORT);
    __real_qsort(base, n, size, cmp);
}

static void on_event(void *ctx, const struct ns_event *e)
{
    (void)e;
    ++*(uint64_t *)ctx;
}

struct result {
    uint64_t frames, events;
    uint64_t all[C_N], late[C_N]; /* the whole capture; its second half */
};

/* Feed the capture, counting inside ns_analyzer_feed only. */
static bool run(const char *path, bool events, struct result *r)
{
    memset(r, 0, sizeof *r);
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
    if (!p) { fprintf(stderr, "%s: %s\n", path, err); return false; }
    uint64_t total = 0; /* frames, for the half way mark */
    struct pcap_pkthdr *h;
    const u_char *d;
    while (pcap_next_ex(p, &h, &d) == 1) total++;
    pcap_close(p);
    p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
    struct ns_config cfg = NS_CONFIG_INIT;
    char aerr[NS_ERRBUF_SIZE];
    ns_analyzer *a = p ? ns_analyzer_new(&cfg, aerr, sizeof aerr) : NULL;
    if (!a) { fprintf(stderr, "%s: %s\n", path, p ? aerr : err); if (p) pcap_close(p); return false; }
    if (events) ns_analyzer_on_event(a, on_event, &r->events);
    int dlt = pcap_datalink(p);
    uint64_t half[C_N] = {0};
    while (pcap_next_ex(p, &h, &d) == 1) {
        struct ns_frame f = {++r->frames, (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec, h->caplen, h->len,
                             dlt, d};
        if (r->frames == total / 2 + 1) memcpy(half, calls, sizeof half);
        counting = true;
        ns_analyzer_feed(a, &f);
        counting = false;
    }
    for (int k = 0; k < C_N; k++) {
        r->all[k] = calls[k];
        r->late[k] = calls[k] - half[k];
        calls[k] = 0;
    }
    ns_analyzer_finish(a);
    ns_analyzer_free(a);
    pcap_close(p);
    return true;
}

/* The wrappers are in place: the core's own formatting and allocation are
 * seen (else every count below would pass for want of being seen). */
static bool wrapped(void)
{
    struct ns_endpoint e = {{4, {10, 0, 0, 1}}, 2049};
    char b[NS_ENDPOINT_STRLEN];
    struct ns_config cfg = NS_CONFIG_INIT;
    char err[NS_ERRBUF_SIZE];
    counting = true;
    ns_endpoint_str(&e, b, sizeof b);
    ns_analyzer *a = ns_analyzer_new(&cfg, err, sizeof err);
    counting = false;
    bool ok = calls[C_FMT] > 0 && calls[C_ALLOC] > 0;
    memset(calls, 0, sizeof calls);
    ns_analyzer_free(a);
    return ok;
}

static double per_k(uint64_t n, uint64_t frames) { return frames ? 1000.0 * (double)n / (double)frames : 0; }

int main(int argc, char **argv)
{
    uint64_t max_fmt = 0, max_strlen = 0;
    double max_alloc = -1, max_alloc_late = -1; /* < 0: no limit */
    bool events = false;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--events")) { events = true; continue; }
        if (i + 1 >= argc) break;
        if (!strcmp(argv[i], "--fmt")) max_fmt = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--strlen")) max_strlen = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--alloc")) max_alloc = strtod(argv[++i], NULL);
        else if (!strcmp(argv[i], "--alloc-late")) max_alloc_late = strtod(argv[++i], NULL);
        else break;
    }
    if (i >= argc || argv[i][0] == '-') {
        fprintf(stderr, "usage: count_feed_calls [--fmt MAX] [--strlen MAX] [--alloc PER_1K] [--alloc-late PER_1K] "
                        "[--events] CAPTURE...\n");
        return 2;
    }
    if (!wrapped()) {
        fprintf(stderr, "count_feed_calls: the wrappers see no call from the core (linked without --wrap?)\n");
        return 1;
    }
    int bad = 0;
    printf("%-40s %9s %8s %8s %10s %10s %7s\n", "capture (inside ns_analyzer_feed)", "frames", "format", "strlen",
           "alloc/1k", "late/1k", "qsort");
    for (; i < argc; i++) {
        struct result r;
        if (!run(argv[i], false, &r)) { bad++; continue; }
        const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        double al = per_k(r.all[C_ALLOC], r.frames), late = per_k(r.late[C_ALLOC], r.frames - r.frames / 2);
        printf("%-40s %9llu %8llu %8llu %10.2f %10.2f %7llu\n", name, (unsigned long long)r.frames,
               (unsigned long long)r.all[C_FMT], (unsigned long long)r.all[C_STRLEN], al, late,
               (unsigned long long)r.all[C_QSORT]);
        if (r.all[C_FMT] > max_fmt) printf("  FAIL: more than %llu formatting calls\n", (unsigned long long)max_fmt);
        if (r.all[C_STRLEN] > max_strlen) printf("  FAIL: more than %llu strlen calls\n", (unsigned long long)max_strlen);
        if (max_alloc >= 0 && al > max_alloc) printf("  FAIL: more than %.2f allocations per 1,000 frames\n", max_alloc);
        if (max_alloc_late >= 0 && late > max_alloc_late)
            printf("  FAIL: more than %.2f allocations per 1,000 frames in the second half\n", max_alloc_late);
        bad += r.all[C_FMT] > max_fmt || r.all[C_STRLEN] > max_strlen || (max_alloc >= 0 && al > max_alloc) ||
               (max_alloc_late >= 0 && late > max_alloc_late);
        if (events && run(argv[i], true, &r))
            printf("  with events: %llu events, format %llu, strlen %llu, alloc/1k %.2f\n",
                   (unsigned long long)r.events, (unsigned long long)r.all[C_FMT],
                   (unsigned long long)r.all[C_STRLEN], per_k(r.all[C_ALLOC], r.frames));
    }
    return bad ? 1 : 0;
}
