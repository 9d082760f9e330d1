/* Fuzz target (4): a whole capture file (pcap or pcapng) read by libpcap from
 * memory and fed to the analyzer, as the nfsscope program does. */
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>

#include "fuzz_analyzer.h"
#include "fuzz_asan_options.h"
#include "nfsscope/nfsscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore_txn(void *ctx, const struct ns_txn *t)
{
    (void)ctx;
    (void)t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    FILE *fp = fmemopen((void *)data, size, "rb");
    if (!fp) return 0;
    char ebuf[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, ebuf);
    if (!p) { fclose(fp); return 0; }
    int dlt = pcap_datalink(p);
    ns_analyzer *a = fuzz_analyzer_new(8u << 20);
    if (a) {
        ns_analyzer_on_txn(a, ignore_txn, NULL);
        struct pcap_pkthdr *h;
        const u_char *d;
        uint64_t n = 0;
        while (pcap_next_ex(p, &h, &d) == 1 && n < 100000) {
            struct ns_frame f = {++n, (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec, h->caplen, h->len, dlt, d};
            ns_analyzer_feed(a, &f);
        }
        ns_analyzer_finish(a);
        (void)ns_analyzer_stats(a);
        for (uint32_t id = 1; id <= ns_analyzer_conn_count(a); id++) {
            char buf[NS_ENDPOINT_STRLEN];
            const struct ns_conn *c = ns_analyzer_conn(a, id);
            if (c) ns_endpoint_str(&c->client, buf, sizeof buf);
        }
        ns_analyzer_free(a);
    }
    pcap_close(p); /* closes fp */
    return 0;
}
