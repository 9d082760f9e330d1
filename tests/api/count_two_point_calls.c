/* The two-point joiner's cost per frame and its memory cap (issue 26): the
 * program is linked with -Wl,--wrap for the allocator (malloc, calloc,
 * realloc), the formatting functions and strlen, as count_feed_calls.c, and
 * counts the calls made inside ns_two_point_frame and ns_two_point_txn while
 * a pair is fed as nfsscope --peer feeds it (the server capture through its
 * analyzer, then the client capture's). Tables grow by doubling: the
 * allocations are a few per table, however many frames.
 *
 *   count_two_point_calls [--alloc-max N] [--memcap BYTES] CLIENT SERVER
 *
 * --alloc-max: at most N allocations in all (default 40); no formatting, no
 * strlen. --memcap: the joiner's budget: its peak stays within it and what
 * did not fit is counted (not_recorded_segments > 0). Exit 1 if not. */
#include <pcap/pcap.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfsscope/nfsscope.h"
#include "nfsscope/two_point.h"

static bool counting;
static uint64_t allocs, fmts, strlens;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
size_t __real_strlen(const char *s);
int __real_vsnprintf(char *s, size_t n, const char *fmt, va_list ap);
int __real___vsnprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, va_list ap);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
size_t __wrap_strlen(const char *s);
int __wrap_snprintf(char *s, size_t n, const char *fmt, ...);
int __wrap_vsnprintf(char *s, size_t n, const char *fmt, va_list ap);
int __wrap___snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, ...);
int __wrap___vsnprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, va_list ap);

void *__wrap_malloc(size_t n) { allocs += counting; return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { allocs += counting; return __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { allocs += counting; return __real_realloc(p, n); }
size_t __wrap_strlen(const char *s) { strlens += counting; return __real_strlen(s); }
int __wrap_vsnprintf(char *s, size_t n, const char *fmt, va_list ap)
{
    fmts += counting;
    return __real_vsnprintf(s, n, fmt, ap);
}
int __wrap_snprintf(char *s, size_t n, const char *fmt, ...)
{
    fmts += counting;
    va_list ap;
    va_start(ap, fmt);
    int r = __real_vsnprintf(s, n, fmt, ap);
    va_end(ap);
    return r;
}
int __wrap___vsnprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, va_list ap)
{
    fmts += counting;
    return __real___vsnprintf_chk(s, n, flag, slen, fmt, ap);
}
int __wrap___snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, ...)
{
    fmts += counting;
    va_list ap;
    va_start(ap, fmt);
    int r = __real___vsnprintf_chk(s, n, flag, slen, fmt, ap);
    va_end(ap);
    return r;
}

struct side {
    ns_two_point *tp;
    ns_analyzer *a;
    enum ns_tp_side which;
};

static void on_txn(void *ctx, const struct ns_txn *t)
{
    struct side *s = ctx;
    struct ns_tp_split sp;
    const struct ns_conn *c = ns_analyzer_conn(s->a, t->conn_id);
    counting = true;
    ns_two_point_txn(s->tp, s->which, t, c, &sp);
    counting = false;
}

static uint64_t feed(ns_two_point *tp, enum ns_tp_side which, const char *file)
{
    char ebuf[PCAP_ERRBUF_SIZE];
    pcap_t *pc = pcap_open_offline_with_tstamp_precision(file, PCAP_TSTAMP_PRECISION_NANO, ebuf);
    if (!pc) { fprintf(stderr, "%s: %s\n", file, ebuf); exit(2); }
    struct ns_config cfg = NS_CONFIG_INIT;
    ns_analyzer *a = ns_analyzer_new(&cfg, NULL, 0);
    struct side s = {tp, a, which};
    ns_analyzer_on_txn(a, on_txn, &s);
    struct pcap_pkthdr *h;
    const u_char *d;
    uint64_t n = 0;
    while (pcap_next_ex(pc, &h, &d) == 1) {
        struct ns_frame f = {.number = ++n, .ts_ns = (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec,
                             .caplen = h->caplen, .len = h->len, .linktype = pcap_datalink(pc), .data = d};
        ns_analyzer_feed(a, &f);
        counting = true;
        ns_two_point_frame(tp, which, &f);
        counting = false;
    }
    ns_analyzer_finish(a);
    ns_analyzer_free(a);
    pcap_close(pc);
    return n;
}

int main(int argc, char **argv)
{
    uint64_t alloc_max = 40, memcap = 0;
    int i = 1;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (!strcmp(argv[i], "--alloc-max")) alloc_max = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--memcap")) memcap = strtoull(argv[i + 1], NULL, 10);
        else { fprintf(stderr, "unknown option %s\n", argv[i]); return 2; }
    }
    if (argc - i != 2) { fprintf(stderr, "usage: count_two_point_calls [--alloc-max N] [--memcap B] CLIENT SERVER\n"); return 2; }
    ns_two_point *tp = ns_two_point_new(memcap);
    uint64_t frames = feed(tp, NS_TP_SERVER, argv[i + 1]);
    frames += feed(tp, NS_TP_CLIENT, argv[i]);
    ns_two_point_finish(tp);
    const struct ns_tp_result *r = ns_two_point_result(tp);
    printf("%llu frames, %llu matched calls: %llu allocations, %llu formatting, %llu strlen in the joiner's feed; "
           "memory peak %llu bytes, not recorded: %llu segments, %llu transactions\n",
           (unsigned long long)frames, (unsigned long long)r->matched_calls, (unsigned long long)allocs,
           (unsigned long long)fmts, (unsigned long long)strlens, (unsigned long long)r->memory_peak,
           (unsigned long long)r->not_recorded_segments, (unsigned long long)r->not_recorded_txns);
    int rc = 0;
    if (allocs > alloc_max || fmts || strlens) { fprintf(stderr, "FAIL: more than %llu allocations, or formatting\n", (unsigned long long)alloc_max); rc = 1; }
    if (memcap && (r->memory_peak > memcap || !r->not_recorded_segments)) {
        fprintf(stderr, "FAIL: memcap %llu: peak %llu, not recorded %llu\n", (unsigned long long)memcap,
                (unsigned long long)r->memory_peak, (unsigned long long)r->not_recorded_segments);
        rc = 1;
    }
    if (!memcap && (!r->matched_calls || r->not_recorded_segments)) { fprintf(stderr, "FAIL: nothing matched\n"); rc = 1; }
    ns_two_point_free(tp);
    return rc;
}
