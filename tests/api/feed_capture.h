/* The API test front ends' reading loop: every frame of a capture file fed
 * in order, numbered from 1, with nanosecond times. Uses only what API
 * version 4 declares (tests/api/frontend_compat.c builds against it). */
#ifndef NFSSCOPE_TEST_FEED_CAPTURE_H
#define NFSSCOPE_TEST_FEED_CAPTURE_H
#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdio.h>

#include "nfsscope/nfsscope.h"

/* after(ctx, a, n) runs after frame n is fed (NULL: nothing). false, with
 * "WHO: PATH: reason" on stderr, when the file cannot be opened. */
static inline bool feed_capture(const char *who, const char *path, ns_analyzer *a,
                                void (*after)(void *ctx, ns_analyzer *a, uint64_t n), void *ctx)
{
    char eb[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, eb);
    if (!p) { fprintf(stderr, "%s: %s: %s\n", who, path, eb); return false; }
    struct pcap_pkthdr *h;
    const u_char *d;
    uint64_t n = 0;
    while (pcap_next_ex(p, &h, &d) == 1) {
        struct ns_frame fr = {++n, (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec, h->caplen, h->len,
                              pcap_datalink(p), d};
        ns_analyzer_feed(a, &fr);
        if (after) after(ctx, a, n);
    }
    pcap_close(p);
    return true;
}
#endif
