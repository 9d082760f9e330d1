/* Fuzz target (2): the TCP-to-RPC stream layer (TCP reassembly, record
 * marking, resync, RPC matching) fed two byte streams under arbitrary
 * segmentation, orderings, overlaps, gaps, truncation and flags.
 *
 * Input: byte 0 options (bit 0: handshake first; bit 1: sequence numbers
 * about to wrap; bit 2: no well-known port; bit 3: IPv6), byte 1 the number
 * of segments N, bytes 2-3 where the data splits into the client stream and
 * the server stream, then N segment descriptors of 6 bytes
 *   ctl (bit 0 direction, 1 FIN, 2 RST, 3 snaplen cut, 4 SYN, 5-7 time step),
 *   offset in that direction's stream (u16), length (u16), ack (u8: share
 *   of the peer's stream acknowledged),
 * then the data. With N = 0 each stream is sent in order in 1000-byte
 * segments, alternating directions. Frames are raw IP (link type 101). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_analyzer.h"
#include "fuzz_asan_options.h"
#include "nfsscope/nfsscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct gen {
    ns_analyzer *a;
    uint64_t frame;
    int64_t ts;
    bool v6;
    uint16_t port[2];
    uint32_t isn[2];
    const uint8_t *s[2];
    uint32_t n[2];
    uint8_t buf[65536 + 80];
};

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, v >> 16); put16(p + 2, v); }

static void segment(struct gen *g, int dir, uint8_t flags, uint32_t off, uint32_t len, uint32_t ack_off,
                    bool cut, int64_t dt)
{
    if (off > g->n[dir]) off = g->n[dir];
    if (len > g->n[dir] - off) len = g->n[dir] - off;
    uint8_t *p = g->buf;
    uint32_t ip = g->v6 ? 40 : 20, hl = ip + 20, total = hl + len;
    memset(p, 0, hl);
    if (g->v6) {
        p[0] = 0x60;
        put16(p + 4, 20 + len);
        p[6] = 6;
        p[7] = 64;
        p[8] = 0xfd; p[23] = (uint8_t)(1 + dir);
        p[24] = 0xfd; p[39] = (uint8_t)(2 - dir);
    } else {
        p[0] = 0x45;
        put16(p + 2, total);
        p[8] = 64;
        p[9] = 6;
        put32(p + 12, 0x0a000001u + (uint32_t)dir);
        put32(p + 16, 0x0a000002u - (uint32_t)dir);
    }
    uint8_t *t = p + ip;
    put16(t, g->port[dir]);
    put16(t + 2, g->port[dir ^ 1]);
    put32(t + 4, g->isn[dir] + 1 + off - ((flags & 0x02) ? 1 : 0));
    put32(t + 8, g->isn[dir ^ 1] + 1 + ack_off);
    t[12] = 0x50;
    t[13] = flags;
    put16(t + 14, 65535);
    memcpy(p + hl, g->s[dir] + off, len);
    g->ts += dt;
    uint32_t caplen = cut ? hl + len / 2 : total;
    struct ns_frame f = {++g->frame, g->ts, caplen, total, 101, p};
    ns_analyzer_feed(g->a, &f);
}

static void ignore_txn(void *ctx, const struct ns_txn *t)
{
    (void)ctx;
    (void)t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4 || size > 200000) return 0;
    static struct gen g;
    memset(&g, 0, offsetof(struct gen, buf)); /* the frame buffer is written before it is read: 64 KiB not cleared per input */
    uint8_t opt = data[0];
    uint32_t nseg = data[1];
    uint32_t split = (uint32_t)data[2] << 8 | data[3];
    size_t pos = 4;
    if (size - pos < nseg * 6) nseg = (uint32_t)((size - pos) / 6);
    const uint8_t *ops = data + pos;
    pos += nseg * 6;
    uint32_t total = (uint32_t)(size - pos);
    if (split > total) split = total;
    g.s[0] = data + pos;
    g.n[0] = split;
    g.s[1] = data + pos + split;
    g.n[1] = total - split;
    g.v6 = opt & 8;
    g.port[0] = 40000;
    g.port[1] = (opt & 4) ? 7000 : 2049;
    g.isn[0] = (opt & 2) ? 0xffffff00u : 0x11000000u;
    g.isn[1] = (opt & 2) ? 0xfffffff0u : 0x22000000u;
    g.ts = 1000000000000000000ll;

    g.a = fuzz_analyzer_new(2u << 20);
    if (!g.a) return 0;
    ns_analyzer_on_txn(g.a, ignore_txn, NULL);
    if (opt & 1) {
        segment(&g, 0, 0x02, 0, 0, 0, false, 1000);
        segment(&g, 1, 0x12, 0, 0, 0, false, 1000);
    }
    if (nseg == 0) {
        uint32_t o[2] = {0, 0};
        while (o[0] < g.n[0] || o[1] < g.n[1]) {
            for (int d = 0; d < 2; d++) {
                if (o[d] >= g.n[d]) continue;
                uint32_t l = g.n[d] - o[d] < 1000 ? g.n[d] - o[d] : 1000;
                segment(&g, d, 0x18, o[d], l, o[d ^ 1], false, 1000);
                o[d] += l;
            }
        }
    }
    static const int64_t steps[8] = {0, 1000, 100000, 1000000000ll, -1000, -5000000000ll, 200ll * 1000000000ll, 7};
    for (uint32_t i = 0; i < nseg; i++) {
        const uint8_t *op = ops + 6 * i;
        int dir = op[0] & 1;
        uint8_t flags = 0x10 | ((op[0] & 2) ? 0x01 : 0) | ((op[0] & 4) ? 0x04 : 0) | ((op[0] & 16) ? 0x02 : 0);
        uint32_t off = (uint32_t)op[1] << 8 | op[2], len = (uint32_t)op[3] << 8 | op[4];
        uint32_t ack = (uint32_t)((uint64_t)g.n[dir ^ 1] * op[5] / 255);
        segment(&g, dir, flags, off, len, ack, op[0] & 8, steps[op[0] >> 5]);
    }
    ns_analyzer_finish(g.a);
    (void)ns_analyzer_stats(g.a);
    ns_analyzer_free(g.a);
    return 0;
}
