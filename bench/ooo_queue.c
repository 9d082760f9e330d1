/* Out-of-order queue benchmark: one TCP connection to port 2049 whose first
 * 1000 client bytes were never captured, then N segments of 1448 bytes of
 * which only the headers were captured (snaplen cut), in order, with no ACK
 * from the server: every one of them waits in the out-of-order queue (or is
 * given up by its bound). Three patterns: "run" (one gap, then contiguous
 * segments), "islands" (every other segment missing: each waits as its own
 * island until the bound gives the oldest up) and "reverse" (each segment
 * before the previous one: sorted insertion walks the queue). Prints
 * segments per second for each N; with a linear queue the rate does not
 * fall as N grows.
 *   ooo_queue N...        (default 10000 20000 40000 80000 100000 1000000) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nfsscope/nfsscope.h"

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, v >> 16); put16(p + 2, v); }

/* Raw IPv4 + TCP header (40 bytes), client 10.0.0.1:40000 -> 10.0.0.2:2049. */
static void header(uint8_t *p, uint32_t seq, uint8_t flags, uint32_t payload)
{
    memset(p, 0, 40);
    p[0] = 0x45;
    put16(p + 2, 40 + payload);
    p[8] = 64;
    p[9] = 6;
    put32(p + 12, 0x0a000001);
    put32(p + 16, 0x0a000002);
    put16(p + 20, 40000);
    put16(p + 22, 2049);
    put32(p + 24, seq);
    put32(p + 28, 1);
    p[32] = 0x50;
    p[33] = flags;
    put16(p + 34, 65535);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

enum pattern { RUN, ISLANDS, REVERSE };
static const char *const pattern_name[] = {"run", "islands", "reverse"};

static void run(uint32_t n, enum pattern pat)
{
    char err[256];
    ns_analyzer *a = ns_analyzer_new(NULL, err, sizeof err);
    if (!a) { fprintf(stderr, "ooo_queue: %s\n", err); exit(1); }
    uint8_t f[40];
    uint64_t frame = 0;
    int64_t ts = 1000000000;
    header(f, 100, 0x02, 0); /* SYN, ISN 100 */
    struct ns_frame syn = {++frame, ts, 40, 40, 101, f};
    ns_analyzer_feed(a, &syn);
    uint32_t seq = 101 + 1000; /* [101, 1101) never captured */
    double t0 = now_s();
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = pat == RUN ? seq + i * 1448u : pat == ISLANDS ? seq + i * 2896u : seq + (n - i) * 1448u;
        header(f, at, 0x18, 1448);
        struct ns_frame s = {++frame, ts += 1000, 40, 40 + 1448, 101, f};
        ns_analyzer_feed(a, &s);
    }
    double t1 = now_s();
    ns_analyzer_finish(a);
    double t2 = now_s();
    const struct ns_stats *st = ns_analyzer_stats(a);
    printf("%-8s %8u segments queued: %7.3f s feed, %7.3f s finish, %10.0f segments/s, %llu out of order, peak %llu KiB\n",
           pattern_name[pat], n, t1 - t0, t2 - t1, n / (t2 - t0), (unsigned long long)st->tcp_out_of_order,
           (unsigned long long)(st->peak_memory >> 10));
    ns_analyzer_free(a);
}

int main(int argc, char **argv)
{
    static const uint32_t def[] = {10000, 20000, 40000, 80000, 100000, 1000000};
    for (int p = RUN; p <= REVERSE; p++) {
        if (argc > 1)
            for (int i = 1; i < argc; i++) run((uint32_t)strtoul(argv[i], NULL, 10), (enum pattern)p);
        else
            for (size_t i = 0; i < sizeof def / sizeof def[0]; i++) run(def[i], (enum pattern)p);
    }
    return 0;
}
