/* Fuzz target (1): a sequence of frames of one link type through the whole
 * analyzer (IP fragment trains, TCP reassembly with holes, snaplen cuts,
 * RPC matching across frames).
 *
 * Input: byte 0 picks the link type (index into a table that includes one
 * unsupported type), then up to MAX_FRAMES records of
 *   u16 captured length L, u16 bytes "on the wire" beyond the captured ones
 *   (snaplen cut), u8 time step (index into steps[]), then L frame bytes
 * (a last record cut short keeps what is there). After the sequence the
 * first frame is fed again cut to half its length (duplicates, truncated
 * copies), then the analyzer is finished and freed. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_analyzer.h"
#include "fuzz_asan_options.h"
#include "nfsscope/nfsscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FRAMES 512

static const int linktypes[] = {1, 101, 113, 276, 0, 108, 12, 14, 228, 229, 105};
static const int64_t steps[8] = {1000, 0, 100000, 1000000000ll, -1000, 31ll * 1000000000ll, 200ll * 1000000000ll, 7};

static void ignore_txn(void *ctx, const struct ns_txn *t)
{
    (void)ctx;
    (void)t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 300000) return 0;
    int lt = linktypes[data[0] % (sizeof linktypes / sizeof linktypes[0])];
    ns_analyzer *a = fuzz_analyzer_new(4u << 20);
    if (!a) return 0;
    ns_analyzer_on_txn(a, ignore_txn, NULL);
    size_t pos = 1;
    uint64_t n = 0;
    int64_t ts = 1000000000;
    const uint8_t *first = NULL;
    uint32_t first_len = 0, first_wire = 0;
    while (pos + 5 <= size && n < MAX_FRAMES) {
        uint32_t caplen = (uint32_t)data[pos] << 8 | data[pos + 1];
        uint32_t extra = (uint32_t)data[pos + 2] << 8 | data[pos + 3];
        ts += steps[data[pos + 4] & 7];
        pos += 5;
        if (caplen > size - pos) caplen = (uint32_t)(size - pos);
        struct ns_frame f = {++n, ts, caplen, caplen + extra, lt, data + pos};
        ns_analyzer_feed(a, &f);
        if (!first) { first = data + pos; first_len = caplen; first_wire = caplen + extra; }
        pos += caplen;
    }
    if (first) {
        struct ns_frame g = {++n, ts + 1000, first_len / 2, first_wire, lt, first};
        ns_analyzer_feed(a, &g);
    }
    ns_analyzer_finish(a);
    (void)ns_analyzer_stats(a);
    ns_analyzer_free(a);
    return 0;
}
