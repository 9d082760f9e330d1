/* Transactions of both captures, matched by flow, direction and XID (see
 * tp_int.h). The server capture comes first and waits in a table; each
 * client transaction takes its twin as it is handed in: among calls of the
 * same key (an XID reused, a reconnection on the same ports), the one whose
 * call_s - call_c is nearest the offset estimated so far, else the earliest. */
#include <stdlib.h>

#include "tp_int.h"

static uint32_t key_hash(const struct ns_two_point *tp, uint32_t flow, uint32_t xid, bool bc)
{
    uint64_t w[2] = {(uint64_t)flow << 1 | bc, xid};
    return tp_hash(tp->seed, w, 2);
}

static void add_server(struct ns_two_point *tp, const struct ns_txn *t, long fl)
{
    struct tp_srv_txn s = {.flow = (uint32_t)fl, .xid = t->xid, .backchannel = t->backchannel,
                           .call_ns = t->call_ts_ns, .reply_ns = t->reply_frame ? t->reply_ts_ns : 0,
                           .lat_ns = ns_txn_latency_ns(t)};
    if (tp_table_add(&tp->srv, &tp->mem, key_hash(tp, s.flow, s.xid, s.backchannel), &s) < 0)
        tp->r.not_recorded_txns++;
}

static int64_t labs64(int64_t x) { return x < 0 ? -x : x; }

static struct tp_srv_txn *twin(struct ns_two_point *tp, uint32_t fl, const struct ns_txn *t)
{
    uint32_t h = key_hash(tp, fl, t->xid, t->backchannel);
    size_t pos = 0;
    struct tp_srv_txn *best = NULL;
    int64_t est = tp->est_lo / 2 + tp->est_hi / 2, best_d = 0;
    for (long i; (i = tp_table_next(&tp->srv, h, &pos)) >= 0;) {
        struct tp_srv_txn *s = tp_table_at(&tp->srv, (size_t)i);
        if (s->flow != fl || s->xid != t->xid || s->backchannel != t->backchannel || s->matched) continue;
        int64_t d = tp->est_any ? labs64(s->call_ns - t->call_ts_ns - est) : s->call_ns;
        if (!best || d < best_d) { best = s; best_d = d; }
    }
    return best;
}

/* The running estimate: the bounds of the matches so far, ignoring drift;
 * crossed (a drift, a jump): the last match's alone. */
static void estimate_add(struct ns_two_point *tp, int64_t lo, int64_t hi)
{
    if (!tp->est_any || lo > tp->est_hi || hi < tp->est_lo) {
        tp->est_lo = lo;
        tp->est_hi = hi;
        tp->est_any = true;
        return;
    }
    if (lo > tp->est_lo) tp->est_lo = lo;
    if (hi < tp->est_hi) tp->est_hi = hi;
}

static void add_client(struct ns_two_point *tp, const struct ns_txn *t, long fl, struct ns_tp_split *out)
{
    struct tp_cli_txn c = {.flow = fl < 0 ? UINT32_MAX : (uint32_t)fl, .op_key = ns_txn_op_key(t),
                           .call_c = t->call_ts_ns, .reply_c = t->reply_frame ? t->reply_ts_ns : 0};
    if (c.op_key == UINT32_MAX) {
        c.prog = t->prog;
        c.vers = t->vers;
        c.proc = t->proc;
    }
    struct tp_srv_txn *s = fl < 0 ? NULL : twin(tp, (uint32_t)fl, t);
    if (s) {
        s->matched = c.matched = true;
        c.call_s = s->call_ns;
        c.reply_s = s->reply_ns;
        int64_t lat = ns_txn_latency_ns(t);
        if (lat >= 0 && s->lat_ns >= 0) {
            c.has_split = true;
            c.client_ns = lat;
            c.server_ns = s->lat_ns;
            estimate_add(tp, c.reply_s - c.reply_c, c.call_s - c.call_c);
        }
    }
    if (out) {
        *out = (struct ns_tp_split){.matched = c.matched, .has_split = c.has_split};
        if (c.has_split) {
            out->client_ns = c.client_ns;
            out->server_ns = c.server_ns;
            out->network_ns = c.client_ns - c.server_ns;
        }
    }
    if (!tp_grow(&tp->mem, (void **)&tp->cli, sizeof *tp->cli, tp->ncli, &tp->cli_cap)) {
        tp->r.not_recorded_txns++;
        return;
    }
    tp->cli[tp->ncli++] = c;
}

void tp_match_txn(struct ns_two_point *tp, int side, const struct ns_txn *t, const struct ns_conn *c,
                  struct ns_tp_split *out)
{
    if (out) *out = (struct ns_tp_split){0};
    if (!t->call_frame) return; /* an orphan reply: no call to match */
    tp->calls[side]++;
    long fl = c ? tp_flow_of(tp, &c->client, &c->server) : -1;
    if (fl >= 0) {
        struct tp_flow *f = tp_table_at(&tp->flows, (size_t)fl);
        f->server = tp_flow_is_a(f, &c->server) ? 0 : 1;
    }
    if (side == NS_TP_SERVER) {
        if (fl >= 0) add_server(tp, t, fl);
        else tp->r.not_recorded_txns++;
        return;
    }
    add_client(tp, t, fl, out);
}
