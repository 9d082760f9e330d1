#include "tcp_conn.h"

#include <string.h>

#include "flow.h"

bool tcp_conn_rpc_port(uint16_t port, const uint16_t *more, size_t n)
{
    if (port == 2049 || port == 111 || port == 20048) return true;
    for (size_t i = 0; i < n; i++)
        if (more[i] && more[i] == port) return true;
    return false;
}

void tcp_conn_start(struct flow *f, bool syn, bool rpc_port)
{
    f->tcp_conn.mid_stream = !syn;
    f->tcp_conn.rpc_port = rpc_port;
    for (int d = 0; d < 2; d++) rec_init(&f->rec[d], syn && rpc_port);
}

bool tcp_conn_reused(const struct flow *f, int side, uint8_t flags, uint32_t seq)
{
    if ((flags & (TH_SYN | TH_ACK)) != TH_SYN) return false;
    if (f->closed) return true;
    const struct tcp_dir *d = &f->tcp[side];
    return d->syn_seen && d->isn != seq && !tcp_reasm_syn_stale(d, seq);
}

void tcp_conn_restart(struct flow *f)
{
    memset(&f->tcp, 0, sizeof f->tcp);
    memset(&f->rec, 0, sizeof f->rec);
    memset(&f->tcp_conn, 0, sizeof f->tcp_conn);
    f->closed = false;
}

/* A segment of an ended connection that continues either side's stream,
 * shortly after the end: sent before the RST or FIN that ended it, though
 * captured after it. */
static bool continues_closed(const struct flow *f, int side, uint32_t seq, uint32_t wire, uint8_t flags, int64_t now)
{
    const struct tcp_dir *d = &f->tcp[side];
    if (!wire || (flags & (TH_SYN | TH_RST)) || !d->have_seq) return false;
    if (now - f->tcp_conn.closed_ts > TCP_CONN_LINGER) return false;
    return (int32_t)(seq - d->next_seq) <= 0 && (int32_t)(seq + wire - d->next_seq) > 0;
}

bool tcp_conn_takes(const struct flow *f, int side, uint32_t seq, uint32_t wire, uint8_t flags, int64_t now)
{
    if (f->tcp_conn.not_rpc) return false;
    return !f->tcp_conn.released || continues_closed(f, side, seq, wire, flags, now);
}

bool tcp_conn_rst(struct flow *f, int side, uint32_t seq, struct tcp_reasm_stats *st)
{
    if (!tcp_reasm_rst_acceptable(&f->tcp[side], seq)) {
        st->rst_ignored++;
        return false;
    }
    f->closed = true;
    return true;
}

bool tcp_conn_probe(struct flow *f, int dir, uint32_t len, uint64_t budget)
{
    struct tcp_conn *c = &f->tcp_conn;
    if (f->rpc.conn_id || c->rpc_port) return true;
    /* the count never passes the budget (else the connection is given up),
     * so it fits 32 bits with a budget that does */
    uint64_t seen = (uint64_t)c->probe_bytes[dir] + len;
    if (seen > (budget < UINT32_MAX ? budget : UINT32_MAX)) { /* a longest record and more, and no RPC */
        c->not_rpc = true;
        return false;
    }
    c->probe_bytes[dir] = (uint32_t)seen;
    return true;
}

bool tcp_conn_counts_unsynced(const struct flow *f) { return f->rpc.conn_id || f->tcp_conn.rpc_port; }

static uint16_t add_sat16(uint16_t a, uint64_t b) { return (uint16_t)(a + b > UINT16_MAX ? UINT16_MAX : a + b); }

void tcp_conn_count_early(struct tcp_conn *c, int side, uint32_t wire)
{
    c->early_frames++;
    c->early_bytes[side] += wire;
}

void tcp_conn_count_early_tcp(struct tcp_conn *c, uint64_t retrans, uint64_t ooo)
{
    c->early_retrans = add_sat16(c->early_retrans, retrans);
    c->early_ooo = add_sat16(c->early_ooo, ooo);
}

struct tcp_conn_early tcp_conn_take_early(struct tcp_conn *c)
{
    struct tcp_conn_early e = {c->early_frames, c->early_retrans, c->early_ooo,
                               {c->early_bytes[0], c->early_bytes[1]}};
    c->early_frames = 0;
    c->early_bytes[0] = c->early_bytes[1] = 0;
    c->early_retrans = c->early_ooo = 0;
    return e;
}

bool tcp_conn_ended(struct flow *f)
{
    if (f->tcp[0].fin_seen && f->tcp[1].fin_seen) f->closed = true;
    return f->closed;
}

bool tcp_conn_release(struct flow *f, int64_t now)
{
    if (f->tcp_conn.released) return false;
    f->tcp_conn.released = true;
    f->tcp_conn.closed_ts = now;
    return true;
}
