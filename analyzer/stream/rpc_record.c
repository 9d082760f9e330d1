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
    r->snap_cut = false;
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
    r->pos = 0;
    r->scan.have = r->alt_scan.have = 0;
    r->synced_once = in_sync;
    r->tentative = false;
    r->expect = 0;
    r->skip_to = 0;
    r->alt = REC_ALT_OFF;
    r->alt_have = 0;
    r->alt_pos = 0;
    r->unsynced = 0;
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
    bool at_head = r->truncated && r->snap_cut && r->head_frame; /* rec_msg_fn */
    c->on_msg(c->ctx, dir, &m, r->truncated, at_head ? r->head_frame : c->frame, at_head ? r->head_ts : c->ts);
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

/* ---- resynchronisation ----
 * Candidates are judged over the carried bytes s->b[0..have) followed by
 * p[0..n) (the "concatenation"). */

static uint8_t cat_byte(const struct rec_scan *s, const uint8_t *p, uint32_t i)
{
    return i < s->have ? s->b[i] : p[i - s->have];
}

/* Judge candidate starts in order. Returns the index of the first plausible
 * one (s untouched: the caller takes the bytes from there), -2 in expect
 * mode when offset 0 is rejected (s untouched), or -1: none, and the bytes
 * not yet judgeable (fewer than REC_SCAN_NEED) are kept in s. final: a hole
 * follows, judge every candidate with what there is, keep nothing. *judged:
 * the bytes before the index found, or every byte judged (or dropped). */
static int64_t scan_run(const struct rec_ctx *c, struct rec_scan *s, int dir, const uint8_t *p, uint32_t n,
                        bool expect, bool final, uint64_t *judged)
{
    uint32_t have = s->have, total = have + n, i = 0;
    uint8_t tmp[2 * REC_SCAN_NEED];
    *judged = 0;
    for (; i < total; i++) {
        const uint8_t *w;
        uint32_t avail = total - i;
        if (i < have) { /* a candidate in the carried bytes: join them to the chunk's first */
            uint32_t from_c = have - i, from_p = n < REC_SCAN_NEED ? n : REC_SCAN_NEED;
            memcpy(tmp, s->b + i, from_c);
            if (from_p) memcpy(tmp + from_c, p, from_p);
            w = tmp;
            avail = from_c + from_p;
        } else {
            w = p + (i - have);
        }
        if (avail < 4 && !final) break;
        bool ok = false;
        if (expect && avail >= 4) { /* where a record must start: the mark as take_mark judges it */
            struct xdr x;
            xdr_init_mem(&x, w, avail);
            uint32_t v = xdr_u32(&x), len = v & 0x7fffffff;
            bool last = v >> 31;
            if (len > REC_MAX_FRAGMENT || (last && len < MIN_RPC_MSG)) {
                c->st->bad_marks++;
                return -2;
            }
            if (!last && len < 32) { *judged = 0; return 0; } /* a short first fragment: no header to judge */
        }
        if (avail >= 4 && (w[0] & 0x7f) == 0) { /* cheap test first: a length below 16 MiB */
            struct xdr x;
            xdr_init_mem(&x, w, avail);
            uint32_t len = xdr_u32(&x) & 0x7fffffff;
            if (len >= MIN_RPC_MSG && len <= REC_MAX_FRAGMENT) {
                uint32_t need = 4 + (len < 32 ? len : 32);
                if (avail < need && !final) break; /* judged when more bytes come */
                uint32_t body = avail - 4 < len ? avail - 4 : len;
                ok = body >= 16 && c->plausible(c->ctx, dir, w + 4, body, len, expect);
            }
        }
        if (ok) { *judged = i; return i; }
        if (expect) return -2;
    }
    uint32_t keep = final ? 0 : total - i;
    uint8_t nb[REC_SCAN_NEED];
    for (uint32_t k = 0; k < keep; k++) nb[k] = cat_byte(s, p, i + k);
    memcpy(s->b, nb, keep);
    s->have = (uint8_t)keep;
    *judged = total - keep;
    return -1;
}

static void set_tentative(struct rec_dir *r, const struct rec_scan *s, const uint8_t *p, uint32_t at,
                          uint64_t at_pos)
{
    /* the second chain scans from the byte after the false start's first */
    r->tentative = true;
    r->alt = REC_ALT_SCAN;
    for (uint32_t k = 0; k < 3; k++) r->alt_scan.b[k] = cat_byte(s, p, at + 1 + k);
    r->alt_scan.have = 3;
    r->alt_pos = at_pos + 4;
}

/* The second chain sees the stream's bytes while a tentative record lasts. */
static void alt_feed(const struct rec_ctx *c, struct rec_dir *r, int dir, const uint8_t *p, uint32_t n,
                     uint64_t base)
{
    if (!r->tentative || r->alt == REC_ALT_OFF || n == 0) return;
    if (r->alt == REC_ALT_SCAN) {
        if (base + n <= r->alt_pos) return;
        if (base > r->alt_pos) { r->alt = REC_ALT_OFF; return; } /* not contiguous: give up the chain */
        uint32_t off = (uint32_t)(r->alt_pos - base);
        uint8_t have = r->alt_scan.have;
        uint64_t judged;
        int64_t j = scan_run(c, &r->alt_scan, dir, p + off, n - off, false, false, &judged);
        if (j < 0) { r->alt_pos = base + n; return; }
        uint8_t m[4];
        for (uint32_t k = 0; k < 4; k++) m[k] = cat_byte(&r->alt_scan, p + off, (uint32_t)j + k);
        struct xdr x;
        xdr_init_mem(&x, m, 4);
        uint32_t len = xdr_u32(&x) & 0x7fffffff;
        r->alt = REC_ALT_FOLLOW;
        r->alt_pos = base + off - have + (uint64_t)j + 4 + len;
        r->alt_have = 0;
        r->alt_scan.have = 0;
    }
    for (;;) { /* REC_ALT_FOLLOW: read the chain's marks as they pass */
        uint64_t want = r->alt_pos + r->alt_have;
        if (want >= base + n) return;
        if (want < base) { r->alt = REC_ALT_OFF; return; }
        r->alt_mark[r->alt_have++] = p[want - base];
        if (r->alt_have < 4) continue;
        struct xdr x;
        xdr_init_mem(&x, r->alt_mark, 4);
        uint32_t v = xdr_u32(&x), len = v & 0x7fffffff;
        if (len > REC_MAX_FRAGMENT || ((v >> 31) && len < MIN_RPC_MSG)) { r->alt = REC_ALT_OFF; return; }
        r->alt_pos += 4 + len;
        r->alt_have = 0;
    }
}

static void alt_hole(struct rec_dir *r, uint64_t base, uint32_t n)
{
    if (!r->tentative) return;
    if (r->alt == REC_ALT_SCAN) {
        r->alt_scan.have = 0;
        if (r->alt_pos < base + n) r->alt_pos = base + n;
    } else if (r->alt == REC_ALT_FOLLOW && r->alt_pos + r->alt_have < base + n) {
        r->alt = REC_ALT_OFF; /* a mark of the chain in the hole */
    }
}

/* Resynchronise from here on. A tentative record whose second chain is
 * being followed: go to that chain's next mark instead. */
static void enter_sync(const struct rec_ctx *c, struct rec_dir *r)
{
    r->state = REC_SYNC;
    r->mark_have = 0;
    r->scan.have = 0;
    r->expect = 0;
    if (r->tentative && r->alt == REC_ALT_FOLLOW && r->alt_have == 0) {
        c->st->false_starts++;
        c->st->msgs_lost++; /* the chain's message in progress: its head was inside the false record */
        r->skip_to = r->alt_pos;
        r->expect = 2;
    }
    r->tentative = false;
    r->alt = REC_ALT_OFF;
}

static void lose_sync(const struct rec_ctx *c, struct rec_dir *r)
{
    c->st->resyncs++;
    if (r->msg_len) c->st->msgs_lost++; /* a message begun (a fragment of it seen) */
    reset_msg(c, r);
    enter_sync(c, r);
}

/* The last fragment of a record ended: the next mark follows, or for a
 * tentative record, a record must be judged at the expected boundary. */
static void record_done(struct rec_dir *r)
{
    if (!r->tentative) { r->state = REC_MARK; return; }
    r->state = REC_SYNC;
    r->scan.have = 0;
    r->expect = 1;
}

static void rec_feed(const struct rec_ctx *c, struct rec_dir *r, int dir, const uint8_t *p, uint32_t n,
                     uint64_t base, bool final);

/* REC_SYNC: returns the bytes of p consumed (all, or up to the record found;
 * the state is then REC_MARK). */
static uint32_t sync_step(const struct rec_ctx *c, struct rec_dir *r, int dir, const uint8_t *p, uint32_t n,
                          uint64_t base, bool final)
{
    uint32_t skip = 0;
    if (r->skip_to > base) {
        uint64_t k = r->skip_to - base;
        skip = k < n ? (uint32_t)k : n;
        r->unsynced += skip;
        if (skip == n) return n;
        p += skip;
        n -= skip;
        base += skip;
    }
    uint8_t have = r->scan.have;
    uint64_t cat_base = base - have; /* position of the concatenation's first byte */
    uint64_t judged;
    int64_t at = scan_run(c, &r->scan, dir, p, n, r->expect != 0, final, &judged);
    if (at == -1) { r->unsynced += judged; return skip + n; }
    if (at == -2) { /* the expected boundary holds no record */
        uint8_t was = r->expect;
        r->expect = 0;
        if (was == 1) { /* the tentative record before it was a false start */
            c->st->resyncs++;
            r->tentative = true; /* still, for enter_sync's second chain */
            enter_sync(c, r);
            if (r->expect == 0) r->skip_to = cat_base + 1; /* no second chain: scan on from the next byte */
        } else {
            r->skip_to = cat_base + 1;
        }
        /* the carried bytes again, under the new rule */
        uint8_t tmp[REC_SCAN_NEED];
        memcpy(tmp, r->scan.b, have);
        r->scan.have = 0;
        if (have) rec_feed(c, r, dir, tmp, have, cat_base, false);
        return skip; /* the caller goes on with p */
    }
    r->unsynced += judged;
    r->synced_once = true;
    bool confirm = r->expect == 1;
    r->expect = 0;
    reset_msg(c, r);
    r->state = REC_MARK;
    r->mark_have = 0;
    if (confirm) {
        r->tentative = false;
        r->alt = REC_ALT_OFF;
    } else {
        set_tentative(r, &r->scan, p, (uint32_t)at, cat_base + (uint64_t)at);
    }
    if ((uint32_t)at < have) { /* the record starts in the carried bytes */
        uint8_t tmp[REC_SCAN_NEED];
        uint32_t k = have - (uint32_t)at;
        memcpy(tmp, r->scan.b + at, k);
        r->scan.have = 0;
        rec_feed(c, r, dir, tmp, k, cat_base + (uint64_t)at, false);
        return skip;
    }
    r->scan.have = 0;
    return skip + ((uint32_t)at - have);
}

static void rec_feed(const struct rec_ctx *c, struct rec_dir *r, int dir, const uint8_t *p, uint32_t n,
                     uint64_t base, bool final)
{
    while (n > 0) {
        switch (r->state) {
        case REC_SYNC: {
            uint32_t used = sync_step(c, r, dir, p, n, base, final);
            p += used;
            n -= used;
            base += used;
            break;
        }
        case REC_MARK: {
            if (r->mark_have == 0 && r->nfrags == 0) { /* a message starts here: its frame */
                r->head_frame = c->frame;
                r->head_ts = c->ts;
            }
            if (r->mark_have == 0 && n >= 4) {
                alt_feed(c, r, dir, p, 4, base);
                bool ok = take_mark(c, r, p);
                p += 4;
                n -= 4;
                base += 4;
                if (!ok) lose_sync(c, r);
                break;
            }
            uint32_t take = 4u - r->mark_have < n ? 4u - r->mark_have : n;
            alt_feed(c, r, dir, p, take, base);
            struct xdr x;
            xdr_init_mem(&x, p, n);
            xdr_bytes(&x, r->mark + r->mark_have, take); /* a mark split across chunks */
            r->mark_have = (uint8_t)(r->mark_have + take);
            p += take;
            n -= take;
            base += take;
            if (r->mark_have == 4 && !take_mark(c, r, r->mark)) lose_sync(c, r);
            break;
        }
        case REC_BODY: {
            if (r->frag_left == 0 && !r->last) { r->state = REC_MARK; break; }
            uint32_t take = n < r->frag_left ? n : r->frag_left;
            alt_feed(c, r, dir, p, take, base);
            if (r->nspans == 0 && r->last && take == r->frag_left && r->msg_len == r->frag_left) {
                /* The whole message is in this chunk: no copy. */
                struct ns_span sp = {p, take};
                struct ns_msg m = {&sp, 1, take};
                c->st->messages++;
                c->on_msg(c->ctx, dir, &m, false, c->frame, c->ts);
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
            base += take;
            r->frag_left = 0;
            if (r->last) {
                if (r->nspans) emit_buffered(c, r, dir);
                record_done(r);
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
        record_done(r);
    }
    /* a hole follows: judge what was carried */
    if (final && r->state == REC_SYNC && r->scan.have) {
        uint8_t tmp[REC_SCAN_NEED];
        uint32_t k = r->scan.have;
        memcpy(tmp, r->scan.b, k);
        r->scan.have = 0;
        rec_feed(c, r, dir, tmp, k, base - k, true);
    }
}

void rec_data(const struct rec_ctx *c, struct rec_dir *r, int dir, const uint8_t *p, uint32_t n)
{
    uint64_t base = r->pos;
    r->pos += n;
    rec_feed(c, r, dir, p, n, base, false);
}

void rec_hole(const struct rec_ctx *c, struct rec_dir *r, int dir, uint32_t n)
{
    uint64_t base = r->pos;
    r->pos += n;
    if (r->state == REC_SYNC && r->scan.have) { /* judge the carried bytes with what there is */
        uint8_t tmp[REC_SCAN_NEED];
        uint32_t k = r->scan.have;
        memcpy(tmp, r->scan.b, k);
        r->scan.have = 0;
        rec_feed(c, r, dir, tmp, k, base - k, true);
    }
    alt_hole(r, base, n);
    while (n > 0) {
        if (r->state == REC_SYNC) {
            r->scan.have = 0;
            if (r->expect == 1) { /* the mark after a tentative record: in the hole */
                c->st->resyncs++;
                c->st->msgs_lost++;
            }
            if (r->skip_to < base + n) r->expect = 0;
            if (r->expect == 0) { r->tentative = false; r->alt = REC_ALT_OFF; }
            return;
        }
        if (r->state == REC_MARK && r->msg_len && r->snap_cut && r->nspans) {
            /* The snaplen took the mark of a later fragment of a message whose
             * head was captured: it goes out as far as its fragments are known
             * (tshark decodes its header too), then the next record is sought. */
            emit_buffered(c, r, dir);
            c->st->resyncs++;
            enter_sync(c, r);
            continue;
        }
        if (r->state == REC_MARK) { /* the length of what follows is unknown */
            c->st->msgs_lost++; /* the message whose mark this was */
            bool had = r->msg_len != 0;
            lose_sync(c, r);
            if (had) c->st->msgs_lost--; /* counted once */
            continue;
        }
        if (!ensure_spans(c, r)) { lose_sync(c, r); continue; }
        uint32_t take = n < r->frag_left ? n : r->frag_left;
        append_hole(c, r, take);
        r->frag_left -= take;
        n -= take;
        base += take;
        if (r->frag_left == 0) {
            if (r->last) {
                emit_buffered(c, r, dir);
                record_done(r);
            } else {
                r->state = REC_MARK;
            }
        }
    }
}

void rec_hole_snaplen(const struct rec_ctx *c, struct rec_dir *r, int dir, uint32_t n)
{
    if (r->state == REC_BODY || (r->state == REC_MARK && r->msg_len)) r->snap_cut = true;
    rec_hole(c, r, dir, n);
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
