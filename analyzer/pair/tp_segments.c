/* Flows and TCP segments of both captures (see tp_int.h). */
#include <string.h>

#include "netdecode.h"
#include "tp_int.h"

static size_t addr_len(const struct ns_addr *a) { return a->family == 6 ? 16 : 4; }

static int ep_cmp(const struct ns_endpoint *x, const struct ns_endpoint *y)
{
    if (x->addr.family != y->addr.family) return x->addr.family < y->addr.family ? -1 : 1;
    int c = memcmp(x->addr.a, y->addr.a, addr_len(&x->addr));
    if (c) return c;
    return x->port == y->port ? 0 : x->port < y->port ? -1 : 1;
}

bool tp_flow_is_a(const struct tp_flow *f, const struct ns_endpoint *x) { return ep_cmp(&f->a, x) == 0; }

/* The words an endpoint pair hashes by. */
static size_t ep_words(const struct ns_endpoint *e, uint64_t *w)
{
    uint64_t x = 0, y = 0;
    memcpy(&x, e->addr.a, 8);
    memcpy(&y, e->addr.a + 8, 8);
    if (e->addr.family != 6) { x &= 0xffffffffull; y = 0; }
    w[0] = x;
    w[1] = y ^ ((uint64_t)e->port << 8) ^ e->addr.family;
    return 2;
}

long tp_flow_of(struct ns_two_point *tp, const struct ns_endpoint *x, const struct ns_endpoint *y)
{
    struct tp_flow f = {.server = -1};
    bool swap = ep_cmp(x, y) > 0;
    f.a = swap ? *y : *x;
    f.b = swap ? *x : *y;
    uint64_t w[4];
    ep_words(&f.a, w);
    ep_words(&f.b, w + 2);
    uint32_t h = tp_hash(tp->seed, w, 4);
    size_t pos = 0;
    for (long i; (i = tp_table_next(&tp->flows, h, &pos)) >= 0;) {
        const struct tp_flow *g = tp_table_at(&tp->flows, (size_t)i);
        if (!ep_cmp(&g->a, &f.a) && !ep_cmp(&g->b, &f.b)) return i;
    }
    return tp_table_add(&tp->flows, &tp->mem, h, &f);
}

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

void tp_segment_frame(struct ns_two_point *tp, int side, const struct ns_frame *f)
{
    if (!tp->first[side] || f->ts_ns < tp->first[side]) tp->first[side] = f->ts_ns;
    if (f->ts_ns > tp->last[side]) tp->last[side] = f->ts_ns;
    struct net_pkt p;
    if (net_decode(f->linktype, f->data, f->caplen, f->len, &p) != NET_OK) return;
    if (p.proto != 6 || (p.is_fragment && (p.frag_offset || p.more_fragments))) return;
    uint8_t th[20];
    if (!net_l4_copy(&p, 0, th, sizeof th)) { /* the TCP header not captured: nothing to compare */
        tp->r.headers_cut[side]++;
        return;
    }
    uint32_t hlen = (uint32_t)(th[12] >> 4) * 4;
    if (hlen < 20 || hlen > p.l4_len) return;
    struct ns_endpoint src = {.addr = p.src, .port = (uint16_t)(th[0] << 8 | th[1])};
    struct ns_endpoint dst = {.addr = p.dst, .port = (uint16_t)(th[2] << 8 | th[3])};
    long fl = tp_flow_of(tp, &src, &dst);
    if (fl < 0) { tp->r.not_recorded_segments++; return; }
    const struct tp_flow *flow = tp_table_at(&tp->flows, (size_t)fl);
    struct tp_seg s = {.flow = (uint32_t)fl, .seq = be32(th + 4), .len = p.l4_len - hlen,
                       .dir = tp_flow_is_a(flow, &src) ? 0 : 1};
    uint64_t w[2] = {(uint64_t)s.flow << 1 | s.dir, (uint64_t)s.seq << 32 | s.len};
    uint32_t h = tp_hash(tp->seed, w, 2);
    size_t pos = 0;
    struct tp_seg *e = NULL;
    for (long i; (i = tp_table_next(&tp->segs, h, &pos)) >= 0;) {
        struct tp_seg *g = tp_table_at(&tp->segs, (size_t)i);
        if (g->flow == s.flow && g->dir == s.dir && g->seq == s.seq && g->len == s.len) { e = g; break; }
    }
    if (!e) {
        long i = tp_table_add(&tp->segs, &tp->mem, h, &s);
        if (i < 0) { tp->r.not_recorded_segments++; return; }
        e = tp_table_at(&tp->segs, (size_t)i);
    }
    if (e->count[side] < UINT16_MAX) e->count[side]++;
    if (!e->ts[side]) e->ts[side] = f->ts_ns;
}
