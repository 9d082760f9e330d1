/* Fuzz target (1): one frame of any link type through the whole analyzer.
 * Input: byte 0 picks the link type (index into a table that includes one
 * unsupported type), byte 1 how many bytes were "on the wire" beyond the
 * captured ones (snaplen cut), the rest is the frame. The frame is fed twice
 * (the second time cut to half its length: duplicates, truncated copies),
 * then the analyzer is finished and freed. */
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/nfsscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int linktypes[] = {1, 101, 113, 276, 0, 108, 12, 14, 228, 229, 105};

static void ignore_txn(void *ctx, const struct ns_txn *t)
{
    (void)ctx;
    (void)t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 70000) return 0;
    int lt = linktypes[data[0] % (sizeof linktypes / sizeof linktypes[0])];
    uint32_t extra = data[1] == 0 ? 0 : (uint32_t)data[1] * 16;
    const uint8_t *frame = data + 2;
    uint32_t caplen = (uint32_t)(size - 2);
    struct ns_config cfg = NS_CONFIG_INIT;
    cfg.memcap = 4u << 20;
    ns_analyzer *a = ns_analyzer_new(&cfg, NULL, 0);
    if (!a) return 0;
    ns_analyzer_on_txn(a, ignore_txn, NULL);
    struct ns_frame f = {1, 1000000000, caplen, caplen + extra, lt, frame};
    ns_analyzer_feed(a, &f);
    struct ns_frame g = {2, 1000001000, caplen / 2, caplen + extra, lt, frame};
    ns_analyzer_feed(a, &g);
    ns_analyzer_finish(a);
    (void)ns_analyzer_stats(a);
    ns_analyzer_free(a);
    return 0;
}
