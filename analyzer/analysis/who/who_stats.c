#include "who_stats.h"

#include "nfsscope/stats.h"

bool who_txn_error(const struct ns_txn *t)
{
    if (!t->reply_frame) return false;
    if (t->reply_stat != NS_REPLY_ACCEPTED || t->rpc_status != NS_RPC_SUCCESS) return true;
    return t->has_status && t->status != 0;
}

void who_txn_io(const struct ns_txn *t, uint64_t *read, uint64_t *write)
{
    *read = *write = 0;
    if (!t->reply_frame || !t->call_frame) return;
    if (t->kind == NS_TXN_NFS3) {
        const struct nfs_io_res *r = &t->u.v3.reply.io;
        if (!r->has_io || t->u.v3.reply.status != 0) return;
        if (t->proc == 6) *read = r->count;
        else if (t->proc == 7) *write = r->count;
    } else if (t->kind == NS_TXN_NFS4) {
        const struct nfs_io_res *r = &t->u.v4.reply.io;
        if (!r->has_io || !t->u.v4.call.io.has_io) return;
        uint32_t op = t->u.v4.call.io.op;
        if (op == 25) *read = r->count;            /* READ */
        else if (op == 68) *read = r->data_bytes;  /* READ_PLUS */
        else if (op == 38) *write = r->count;      /* WRITE */
    }
}

/* Bucket of a latency: 4 per power of two of microseconds. */
static unsigned bucket_of(uint64_t ns)
{
    uint64_t us = ns / 1000;
    if (us < 4) return (unsigned)us;
    unsigned lg = 63u - (unsigned)__builtin_clzll(us);
    unsigned b = lg * 4 + (unsigned)((us >> (lg - 2)) & 3);
    return b < WHO_HIST ? b : WHO_HIST - 1;
}

/* Middle of a bucket, in microseconds. */
static uint64_t bucket_mid_us(unsigned b)
{
    if (b < 8) return b < 4 ? b : 4 + (b - 4);
    unsigned lg = b / 4;
    uint64_t lo = (1ull << lg) + ((uint64_t)(b % 4) << (lg - 2));
    return lo + (1ull << (lg - 2)) / 2;
}

void who_sample_of(struct who_sample *x, const struct ns_txn *t)
{
    x->bytes = (uint64_t)(t->call_frame ? t->call_bytes : 0) + (t->reply_frame ? t->reply_bytes : 0);
    x->error = who_txn_error(t);
    who_txn_io(t, &x->read, &x->write);
    int64_t lat = ns_txn_latency_ns(t);
    x->answered = lat >= 0;
    x->lat_ns = x->answered ? (uint64_t)lat : 0;
    x->bucket = x->answered ? (uint8_t)bucket_of(x->lat_ns) : 0;
}

void who_stats_add(struct who_stats *s, const struct who_sample *x)
{
    s->calls++;
    s->bytes += x->bytes;
    s->errors += x->error;
    s->read_bytes += x->read;
    s->write_bytes += x->write;
    if (!x->answered) return;
    s->time_ns += x->lat_ns;
    if (!s->answered || x->lat_ns < s->min_ns) s->min_ns = x->lat_ns;
    if (x->lat_ns > s->max_ns) s->max_ns = x->lat_ns;
    s->answered++;
    s->hist[x->bucket]++;
}

uint64_t who_stats_pct_us(const struct who_stats *s, double p)
{
    if (!s->answered) return 0;
    uint64_t rank = (uint64_t)(p * (double)s->answered + 0.999999);
    if (rank < 1) rank = 1;
    uint64_t seen = 0;
    for (unsigned b = 0; b < WHO_HIST; b++) {
        seen += s->hist[b];
        if (seen >= rank) {
            uint64_t v = bucket_mid_us(b), lo = s->min_ns / 1000, hi = s->max_ns / 1000;
            return v < lo ? lo : v > hi ? hi : v;
        }
    }
    return s->max_ns / 1000;
}
