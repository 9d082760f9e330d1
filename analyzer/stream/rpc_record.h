/* ONC RPC record marking over TCP (RFC 5531 §11): turns one direction's byte
 * stream (data and holes) into RPC messages made of captured spans and holes.
 * A message that fits in one delivered chunk is handed over without a copy;
 * others are gathered in a per-direction buffer whose size is capped. After a
 * hole that swallows a record mark the direction resynchronises by scanning
 * for a plausible record mark followed by an RPC header.
 *
 * Resynchronising (a capture that starts mid-stream, a gap that took a mark):
 * every byte offset is a candidate record start, judged from the mark and the
 * header behind it (rec_plausible_fn); the last REC_SCAN_NEED - 1 bytes of a
 * chunk, not yet judgeable, are carried to the next chunk (so a mark and
 * header split over two segments still sync), and judged with what there is
 * when a hole follows. A record found so is tentative: the bytes at its end
 * must be a plausible record too (judged on its shape only), else it was a
 * false start (RPC-looking words inside a WRITE's data) and the stream
 * resynchronises: at the next boundary of a second chain, found by scanning
 * the false record's own bytes and followed by its marks while the false
 * record lasted (so real records inside it are not all lost), or by scanning
 * on. Only these two small windows are kept; no bytes are buffered for it.
 *
 * Large messages stream through: once a message (the last fragment of its
 * record known) has REC_HEAD captured bytes and more than 2 * REC_TAIL still
 * to come, the caller is asked whether its decoders can do without the
 * middle (skippable: a trial decode of the head with the middle missing and
 * the tail zero-filled). If so only the head and the last REC_TAIL..2*REC_TAIL
 * bytes are kept; the middle (a WRITE's or READ's data) becomes a hole that
 * is not counted as missing (the message is not "truncated" for it). Else
 * (a 1 MiB READDIR reply: entries all the way) the message is kept whole as
 * before, up to REC_MAX_BUFFER. So a message in flight holds at most
 * REC_HEAD + 2 * REC_TAIL bytes unless its decoders need every byte. */
#ifndef NFSSCOPE_RPC_RECORD_H
#define NFSSCOPE_RPC_RECORD_H
#include <stdbool.h>
#include <stdint.h>

#include "memcap.h"
#include "nfsscope/msg.h"

#define REC_MAX_FRAGMENT (8u << 20) /* a longer record mark means "not RPC here" */
#define REC_MAX_SPANS 256
#define REC_MAX_BUFFER (4u << 20)   /* captured bytes kept per message */
#define REC_HEAD (8u << 10)         /* a streamed message: bytes kept at its start */
#define REC_TAIL (4u << 10)         /* ... and at least this many at its end */

enum rec_state { REC_MARK = 0, REC_BODY, REC_SYNC };

#define REC_SCAN_NEED 36u /* a candidate is judged on the mark and 32 header bytes (call up to the cred length) */

/* Candidate record starts not yet judged: the last bytes of the stream so far. */
struct rec_scan {
    uint8_t have;
    uint8_t b[REC_SCAN_NEED - 1];
};

enum rec_alt { REC_ALT_OFF = 0, REC_ALT_SCAN, REC_ALT_FOLLOW };

struct rec_span { uint32_t off, len; }; /* off == UINT32_MAX: hole */

struct rec_dir {
    uint8_t state;
    uint8_t mark_have;
    uint8_t mark[4];
    bool last;            /* current fragment is the last of the record */
    bool truncated;       /* the message has holes */
    uint32_t frag_left;
    uint32_t msg_len;
    uint32_t nfrags;
    uint8_t *buf;
    uint32_t buf_len, buf_cap;
    struct rec_span *spans;
    uint16_t nspans;
    bool streaming;       /* the middle of this message is being skipped */
    bool whole;           /* asked, and the message must be kept whole */
    uint32_t skipped;     /* bytes of the middle not kept (and holes after it) */
    uint32_t tail_base, tail_len; /* the tail: buf[tail_base .. +tail_len) */
    /* The message in progress remembers the frame and time of its first
     * byte (rec_ctx.frame/ts when it began), and whether the snapshot
     * length cut it (rec_hole_snaplen): such a message is the frame's that
     * carries its header, as tshark, which cannot reassemble it, decodes it
     * there. */
    uint64_t head_frame;
    int64_t head_ts;
    bool snap_cut;
    /* resynchronisation (see the top of this file) */
    uint64_t pos;         /* stream bytes (data and holes) delivered so far */
    struct rec_scan scan; /* REC_SYNC: candidates carried to the next chunk */
    bool synced_once;     /* a record boundary has been known in this direction */
    bool tentative;       /* the record in progress was found by scanning */
    bool expect;          /* REC_SYNC at the end of a tentative record: offset 0 should be a record */
    uint64_t skip_to;     /* REC_SYNC: no candidate before this position (the second chain's next mark) */
    uint8_t alt;          /* enum rec_alt: the second chain while tentative */
    uint8_t alt_have;
    uint8_t alt_mark[4];
    uint64_t alt_pos;     /* REC_ALT_SCAN: next position to scan; FOLLOW: position of the next mark */
    struct rec_scan alt_scan;
    uint64_t unsynced;    /* data bytes skipped looking for a record, not yet taken into the counters */
};

struct rec_stats {
    uint64_t messages, bad_marks, resyncs, dropped_bytes, zero_length_fragments;
    uint64_t streamed, streamed_bytes_skipped; /* large messages whose middle was not kept */
    uint64_t kept_whole;  /* large messages the decoders needed whole */
    uint64_t msgs_lost;   /* messages begun but dropped (a gap took their mark or end, a false start hid them);
                           * the transport moves them into ns_stats.rpc_msgs_lost after each chunk */
    uint64_t false_starts; /* records found by scanning whose end was not followed by a record */
};

/* Does p[0..n) start with something that looks like an RPC message? Used to
 * resynchronise; n may be short, in which case answer from what is there.
 * expected: the boundary the record before announced (only its shape is
 * judged); else any offset scanned (judged strictly). */
typedef bool (*rec_plausible_fn)(void *ctx, int dir, const uint8_t *p, uint32_t n, uint32_t record_len,
                                 bool expected);
/* One message out, dated by frame and ts: those of the bytes that completed
 * it (rec_ctx.frame/ts), or for a message the snapshot length cut, those of
 * the bytes that carried its header (tshark, which cannot reassemble it,
 * decodes it there: else a READ reply cut in every segment would be dated
 * by its last). */
typedef void (*rec_msg_fn)(void *ctx, int dir, const struct ns_msg *m, bool truncated, uint64_t frame, int64_t ts);
/* May the middle of this message be skipped? trial: the head as captured, a
 * hole, then REC_TAIL zero bytes standing for the tail (its length is the
 * message's). True when decoding it never reads inside the hole. */
typedef bool (*rec_skippable_fn)(void *ctx, int dir, const struct ns_msg *trial);

struct rec_ctx {
    struct memcap *mc;
    struct rec_stats *st;
    rec_msg_fn on_msg;
    rec_plausible_fn plausible;
    void *ctx;
    rec_skippable_fn skippable; /* NULL: every message is kept whole */
    /* the frame and time of the bytes handed over (tcp_deliver_fn's): kept
     * here, not per direction of every flow (a flood of flows under a small
     * cap) */
    uint64_t frame;
    int64_t ts;
};

/* Start a direction in sync (after a SYN) or needing resync (mid-stream). */
void rec_init(struct rec_dir *r, bool in_sync);
void rec_data(const struct rec_ctx *c, struct rec_dir *r, int dir, const uint8_t *p, uint32_t n);
void rec_hole(const struct rec_ctx *c, struct rec_dir *r, int dir, uint32_t n);
/* A hole of bytes that were on the wire but cut by the snapshot length: as
 * rec_hole, and the message they belong to is marked snap_cut. */
void rec_hole_snaplen(const struct rec_ctx *c, struct rec_dir *r, int dir, uint32_t n);
/* Free the buffers if no message is in progress (an idle connection). */
void rec_trim(const struct rec_ctx *c, struct rec_dir *r);
/* The message type (0 call, 1 reply) of a message still arriving, from its
 * captured first bytes; -1 when none is in progress or they were not captured. */
int rec_pending_msgtype(const struct rec_dir *r);
/* Free buffers (the partial message is dropped). */
void rec_release(const struct rec_ctx *c, struct rec_dir *r);

#endif
