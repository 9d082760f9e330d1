/* The plugin's capture state (dissector/capture_state.c) driven the way
 * Wireshark drives it, without Wireshark: a first pass feeding every frame
 * of a capture in order, the end of the first pass, then revisits in random
 * order (as the GUI's clicks and scrolls) and in order (as tshark -2):
 * every frame reads the same record both ways, frames fed out of order are
 * refused, and every frame a finding lists carries that finding. Under the
 * sanitizer build this runs the plugin's own code under ASan+UBSan.
 *   test_capture_state CAPTURE... */
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>

#include "capture_state.h"
#include "check.h"

#define MAX_FRAMES 200000

static void check_capture(const char *path)
{
    char ebuf[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, ebuf);
    CHECK(p != NULL);
    if (!p) { fprintf(stderr, "%s: %s\n", path, ebuf); return; }
    struct capture_state cs;
    capture_state_open(&cs, 64u << 20);
    CHECK(cs.a != NULL);
    struct pcap_pkthdr *h;
    const u_char *d;
    uint64_t n = 0;
    while (n < MAX_FRAMES && pcap_next_ex(p, &h, &d) == 1) {
        n++;
        int64_t ts = (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec;
        capture_state_feed(&cs, n, ts, h->caplen, h->len, pcap_datalink(p), d);
        /* a frame offered again (a revisit seen as a first visit) is refused */
        if (n == 3) CHECK(!capture_state_feed(&cs, 2, ts, h->caplen, h->len, pcap_datalink(p), d));
    }
    pcap_close(p);
    capture_state_finish(&cs); /* the end of the first pass */

    /* in order, as tshark -2 */
    struct frame_rec *in_order = calloc(n + 1, sizeof *in_order);
    bool *has = calloc(n + 1, sizeof *has);
    uint64_t recorded = 0;
    for (uint64_t f = 1; f <= n; f++) {
        capture_state_sync(&cs);
        const struct frame_rec *r = frame_table_get(&cs.frames, f);
        if (r) { in_order[f] = *r; has[f] = true; recorded++; }
    }
    /* in random order, as the GUI: the same records */
    uint64_t *order = malloc((n + 1) * sizeof *order);
    for (uint64_t f = 0; f < n; f++) order[f] = f + 1;
    srand(1);
    for (uint64_t i = n; i > 1; i--) {
        uint64_t j = (uint64_t)rand() % i, t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    uint64_t same = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t f = order[i];
        capture_state_sync(&cs);
        const struct frame_rec *r = frame_table_get(&cs.frames, f);
        if ((r != NULL) == has[f] && (!r || memcmp(r, &in_order[f], sizeof *r) == 0)) same++;
    }
    CHECK_EQ_U(same, n);
    /* every frame a finding lists carries it */
    const struct ns_finding *const *v;
    size_t nf = ns_analyzer_findings(cs.a, &v);
    uint64_t listed = 0, carried = 0;
    for (size_t i = 0; i < nf; i++)
        for (unsigned k = 0; k < v[i]->nframes; k++) {
            const struct frame_rec *r = frame_table_get(&cs.frames, v[i]->frames[k]);
            listed++;
            if (r && frame_rec_has_finding(r, v[i]->id)) carried++;
        }
    CHECK_EQ_U(carried, listed);
    CHECK_EQ_U(cs.frames_out_of_order, 1);
    fprintf(stderr, "%s: %" PRIu64 " frames, %" PRIu64 " recorded, %zu findings, %" PRIu64 " listed frames\n", path,
            n, recorded, nf, listed);
    free(order);
    free(has);
    free(in_order);
    capture_state_close(&cs);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: test_capture_state CAPTURE...\n"); return 2; }
    for (int i = 1; i < argc; i++) check_capture(argv[i]);
    return check_done("test_capture_state");
}
