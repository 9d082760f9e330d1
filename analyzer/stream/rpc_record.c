#include "rpc_record.h"

#include <stdlib.h>
#include <string.h>

#include "xdr.h"

#define HOLE UINT32_MAX
#define SHRINK_ABOVE (256u << 10) /* give back big buffers after a message */
#define MAX_FRAGMENTS 4096
#define MIN_RPC_MSG 20 /* a denied AUTH_ERROR reply: xid, type, stat, reject, auth_stat */

static void reset_stream(struct rec_dir *r)
{
    r->streaming = r->whole = false;
    r->skipped = r->tail_base = r->tail_len = 0;
}

void rec_init(struct rec_dir *r, bool in_sync)
{
    r->state = in_sync ? REC_MARK : REC_SYNC;
    r->mark_have = 0;
    r->frag_left = r->msg_len = r->nfrags = 0;
    r->truncated = r->last = false;
    r->buf_len = 0;
    r->nspans = 0;
    reset_stream(r);
}

static void reset_msg(const struct rec_ctx *c, struct rec_dir *r)
{
    r->msg_len = r->nfrags = 0;
    r->truncated = false;
    r->buf_len = 0;
    r->nspans = 0;
    reset_stream(r);
    if (r->buf_cap > SHRINK_ABOVE) {
        free(r->buf);
        memcap_give(c->mc, MEM_REASSEMBLY, r->buf_cap);
        r->buf = NULL;
        r->buf_cap = 0;
    }
}

void rec_trim(const struct rec_ctx *c, struct rec_dir *r)
{
    if (r->nspans == 0 && r->msg_len == 0) rec_release(c, r);
}

void rec_release(const struct rec_ctx *c, struct rec_dir *r)
{
    free(r->buf);
    memcap_give(c->mc, MEM_REASSEMBLY, r->buf_cap);
    r->buf = NULL;
    r->buf_cap = r->buf_len = 0;
    if (r->spans) {
        free(r->spans);
        memcap_give(c->mc, MEM_REASSEMBLY, REC_MAX_SPANS * sizeof *r->spans);
        r->spans = NULL;
    }
    r->nspans = 0;
}

static void lose_sync(const struct rec_ctx *c, struct rec_dir *r)
{
    c->st->resyncs++;
    reset_msg(c, r);
    r->state = REC_SYNC;
    r->mark_have = 0;
}

static bool ensure_spans(const struct rec_ctx *c, struct rec_dir *r)
{
    if (r->spans) return true;
    size_t need = REC_MAX_SPANS * sizeof *r->spans;
    if (!memcap_take(c->mc, MEM_REASSEMBLY, need)) return false;
    r->spans = malloc(need);
    if (!r->spans) { memcap_give(c->mc, MEM_REASSEMBLY, need); return false; }
    return true;
}

/* Append a span; when the table is full, fold the last two into a hole so the
 * head and the tail of the message survive. */
static void add_span(struct rec_dir *r, uint32_t off, uint32_t len)
{
    if (len == 0) return;
    if (r->nspans) {
        struct rec_span *l = &r->spans[r->nspans - 1];
        if (off == HOLE && l->off == HOLE) { l->len += len; return; }
        if (off != HOLE && l->off != HOLE && l->off + l->len == off) { l->len += len; return; }
    }
    if (r->nspans == REC_MAX_SPANS) {
        struct rec_span *a = &r->spans[REC_MAX_SPANS - 2], *b = &r->spans[REC_MAX_SPANS - 1];
        a->off = HOLE;
        a->len += b->len;
        r->nspans--;
        r->truncated = true;
        if (off == HOLE) { a->len += len; return; }
    }
    r->spans[r->nspans++] = (struct rec_span){off, len};
}

static void append_hole(const struct rec_ctx *c, struct rec_dir *r, uint32_t n)
{
    (void)c;
    r->truncated = true;
    if (r->streaming) { /* lost bytes after the middle: they join it, the tail restarts */
        r->skipped += r->tail_len + n;
        r->tail_len = 0;
        return;
    }
    add_span(r, HOLE, n);
}

/* Grow the buffer to at least need bytes within the caps. */
static bool buf_room(const struct rec_ctx *c, struct rec_dir *r, uint64_t need)
{
    if (need <= r->buf_cap) return true;
    uint64_t want = r->buf_cap ? r->buf_cap : 4096;
    while (want < need) want *= 2;
    if (want > REC_MAX_BUFFER) want = REC_MAX_BUFFER;
    if (want < need || !memcap_take(c->mc, MEM_REASSEMBLY, want - r->buf_cap)) return false;
    uint8_t *nb = realloc(r->buf, want);
    if (!nb) { memcap_give(c->mc, MEM_REASSEMBLY, want - r->buf_cap); return false; }
    r->buf = nb;
    r->buf_cap = (uint32_t)want;
    return true;
}

/* Streaming: keep the last bytes in the tail (between REC_TAIL and
 * 2 * REC_TAIL of them, so each byte moves at most once); the bytes pushed
 * out join the skipped middle. */
static void tail_push(const struct rec_ctx *c, struct rec_dir *r, const uint8_t *p, uint32_t n)
{
    uint8_t *tail = r->buf + r->tail_base;
    if (n >= REC_TAIL) {
        r->skipped += r->tail_len + (n - REC_TAIL);
        c->st->streamed_bytes_skipped += r->tail_len + (n - REC_TAIL);
        memcpy(tail, p + (n - REC_TAIL), REC_TAIL);
        r->tail_len = REC_TAIL;
        return;
    }
    if (r->tail_len + n > 2 * REC_TAIL) {
        uint32_t drop = r->tail_len + n - REC_TAIL;
        memmove(tail, tail + drop, r->tail_len - drop);
        r->tail_len -= drop;
        r->skipped += drop;
        c->st->streamed_bytes_skipped += drop;
    }
    memcpy(tail + r->tail_len, p, n);
    r->tail_len += n;
}

/* The head is complete: may the rest stream through (see rpc_record.h)? */
static bool start_streaming(const struct rec_ctx *c, struct rec_dir *r, int dir)
{
    static const uint8_t zeros[REC_TAIL];
    r->whole = true; /* asked once per message */
    if (!c->skippable || !r->last) return false;
    uint64_t pos = 0;
    for (uint16_t i = 0; i < r->nspans; i++) pos += r->spans[i].len;
    uint32_t rest = r->frag_left; /* what this fragment, the last, still has to deliver */
    if (pos + rest != r->msg_len || rest <= 2 * REC_TAIL || r->nspans + 2 > REC_MAX_SPANS) return false;
    struct ns_span sp[REC_MAX_SPANS];
    for (uint16_t i = 0; i < r->nspans; i++)
        sp[i] = (struct ns_span){r->spans[i].off == HOLE ? NULL : r->buf + r->spans[i].off, r->spans[i].len};
    sp[r->nspans] = (struct ns_span){NULL, rest - REC_TAIL};
    sp[r->nspans + 1] = (struct ns_span){zeros, REC_TAIL};
    struct ns_msg trial = {sp, (uint32_t)r->nspans + 2, r->msg_len};
    if (!c->skippable(c->ctx, dir, &trial)) { c->st->kept_whole++; return false; }
    if (!buf_room(c, r, (uint64_t)r->buf_len + 2 * REC_TAIL)) { c->st->kept_whole++; return false; }
    r->streaming = true;
    r->tail_base = r->buf_len;
    r->tail_len = r->skipped = 0;
    c->st->streamed++;
    return true;
}

static void append_data(const struct rec_ctx *c, struct rec_dir *r, int dir, const uint8_t *p, uint32_t n)
{
    if (r->streaming) {
        tail_push(c, r, p, n);
        return;
    }
    if (!r->whole && r->buf_len + n > REC_HEAD) {
        /* fill the head, then ask; the rest streams or is kept as before */
        uint32_t head = REC_HEAD - r->buf_len;
        if (head) append_data(c, r, dir, p, head);
        r->frag_left -= head; /* what start_streaming sees as still to come */
        bool streaming = start_streaming(c, r, dir);
        r->frag_left += head;
        if (streaming) { tail_push(c, r, p + head, n - head); return; }
        p += head;
        n -= head;
        if (!n) return;
    }
    if (!buf_room(c, r, (uint64_t)r->buf_len + n)) { /* over the cap: keep the length, lose the bytes */
        c->st->dropped_bytes += n;
        append_hole(c, r, n);
        return;
    }
    memcpy(r->buf + r->buf_len, p, n);
    add_span(r, r->buf_len, n);
    r->buf_len += n;
}

static void emit_buffered(const struct rec_ctx *c, struct rec_dir *r, int dir)
{
    if (r->streaming) { /* head, the skipped middle, the tail */
        bool cut = r->truncated;
        add_span(r, HOLE, r->skipped);
        add_span(r, r->tail_base, r->tail_len);
        r->truncated = cut; /* the skipped middle is not missing */
    }
    struct ns_span sp[REC_MAX_SPANS];
    for (uint16_t i = 0; i < r->nspans; i++)
        sp[i] = (struct ns_span){r->spans[i].off == HOLE ? NULL : r->buf + r->spans[i].off, r->spans[i].len};
    struct ns_msg m = {sp, r->nspans, r->msg_len};
    c->st->messages++;
    c->on_msg(c->ctx, dir, &m, r->truncated);
    reset_msg(c, r);
}

/* Parse a complete 4-byte mark; false if it cannot start/continue a record. */
static bool take_mark(const struct rec_ctx *c, struct rec_dir *r, const uint8_t *m)
{
    struct xdr x;
    xdr_init_mem(&x, m, 4);
    uint32_t v = xdr_u32(&x);
    r->last = v >> 31;
    r->frag_left = v & 0x7fffffff;
    r->mark_have = 0;
    if (r->frag_left > REC_MAX_FRAGMENT || r->msg_len + (uint64_t)r->frag_left > REC_MAX_FRAGMENT ||
        ++r->nfrags > MAX_FRAGMENTS || (r->last && r->msg_len + r->frag_left < MIN_RPC_MSG)) {
        c->st->bad_marks++;
        return false;
    }
    if (r->frag_left == 0) c->st->zero_length_fragments++;
    r->msg_len += r->frag_left;
    r->state = REC_BODY;
    return true;
}

/* In REC_SYNC: find a plausible record start in p[0..n); returns its offset or n. */
static uint32_t find_sync(const struct rec_ctx *c, int dir, const uint8_t *p, uint32_t n)
{
    for (uint32_t i = 0; i + 4 + 12 <= n; i++) {
        struct xdr x;
        xdr_init_mem(&x, p + i, n - i);
        uint32_t len = xdr_u32(&x) & 0x7fffffff;
        if (len < MIN_RPC_MSG || len > REC_MAX_FRAGMENT) continue;
        if (c->plausible(c->ctx, dir, p + i + 4, n - i - 4, len)) return i;
    }
    return n;
}

void rec_data(const struct rec_ctx *c, struct rec_dir *r, int dir, const uint8_t *p, uint32_t n)
{
    while (n > 0) {
        switch (r->state) {
        case REC_SYNC: {
            uint32_t at = find_sync(c, dir, p, n);
            if (at == n) return; /* nothing here; try the next chunk */
            p += at;
            n -= at;
            reset_msg(c, r);
            r->state = REC_MARK;
            break;
        }
        case REC_MARK: {
            if (r->mark_have == 0 && n >= 4) {
                bool ok = take_mark(c, r, p);
                p += 4;
                n -= 4;
                if (!ok) lose_sync(c, r);
                break;
            }
            uint32_t take = 4u - r->mark_have < n ? 4u - r->mark_have : n;
            struct xdr x;
            xdr_init_mem(&x, p, n);
            xdr_bytes(&x, r->mark + r->mark_have, take); /* a mark split across chunks */
            r->mark_have = (uint8_t)(r->mark_have + take);
            p += take;
            n -= take;
            if (r->mark_have == 4 && !take_mark(c, r, r->mark)) lose_sync(c, r);
            break;
        }
        case REC_BODY: {
            if (r->frag_left == 0 && !r->last) { r->state = REC_MARK; break; }
            uint32_t take = n < r->frag_left ? n : r->frag_left;
            if (r->nspans == 0 && r->last && take == r->frag_left && r->msg_len == r->frag_left) {
                /* The whole message is in this chunk: no copy. */
                struct ns_span sp = {p, take};
                struct ns_msg m = {&sp, 1, take};
                c->st->messages++;
                c->on_msg(c->ctx, dir, &m, false);
                reset_msg(c, r);
            } else {
                if (!ensure_spans(c, r)) {
                    c->st->dropped_bytes += r->msg_len;
                    lose_sync(c, r);
                    return;
                }
                append_data(c, r, dir, p, take);
                r->frag_left -= take;
                if (r->frag_left) return; /* take == n */
            }
            p += take;
            n -= take;
            r->frag_left = 0;
            if (r->last) {
                if (r->nspans) emit_buffered(c, r, dir);
                r->state = REC_MARK;
            } else {
                r->state = REC_MARK;
            }
            break;
        }
        }
    }
    /* A completed last fragment whose bytes ended exactly with this chunk. */
    if (r->state == REC_BODY && r->frag_left == 0 && r->last && r->nspans) {
        emit_buffered(c, r, dir);
        r->state = REC_MARK;
    }
}

void rec_hole(const struct rec_ctx *c, struct rec_dir *r, int dir, uint32_t n)
{
    while (n > 0) {
        if (r->state == REC_SYNC) return;
        if (r->state == REC_MARK) { /* the length of what follows is unknown */
            lose_sync(c, r);
            return;
        }
        if (!ensure_spans(c, r)) { lose_sync(c, r); return; }
        uint32_t take = n < r->frag_left ? n : r->frag_left;
        append_hole(c, r, take);
        r->frag_left -= take;
        n -= take;
        if (r->frag_left == 0) {
            if (r->last) {
                emit_buffered(c, r, dir);
            }
            r->state = REC_MARK;
        }
    }
}

int rec_pending_msgtype(const struct rec_dir *r)
{
    if (r->state != REC_BODY && !(r->state == REC_MARK && r->msg_len)) return -1;
    if (!r->nspans || !r->spans) return -1;
    struct ns_span sp[REC_MAX_SPANS];
    for (uint16_t i = 0; i < r->nspans; i++)
        sp[i] = (struct ns_span){r->spans[i].off == HOLE ? NULL : r->buf + r->spans[i].off, r->spans[i].len};
    struct ns_msg m = {sp, r->nspans, r->msg_len};
    struct xdr x;
    xdr_init(&x, &m);
    xdr_u32(&x); /* xid */
    uint32_t type = xdr_u32(&x);
    return xdr_ok(&x) && type <= 1 ? (int)type : -1;
}
