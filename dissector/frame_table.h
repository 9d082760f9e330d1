/* What the plugin keeps about each frame: the analyzer's verdicts as of the
 * first pass, so later passes (tshark -2, the GUI's revisits in any order)
 * read instead of recomputing. One table per capture file, with a memory
 * cap: past it, frames are still analysed but not recorded (counted). */
#ifndef NFSSCOPE_FRAME_TABLE_H
#define NFSSCOPE_FRAME_TABLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/nfsscope.h"

#define FR_SHARE_MAX 8   /* connections of the session kept per frame */
#define FR_FINDINGS_MAX 6 /* finding ids kept per frame (more: counted) */

/* Bits of frame_rec.amends: 1 << enum ns_amend_kind. */
struct frame_rec {
    uint64_t txn_id;
    uint32_t conn_id, xid;
    uint8_t event;            /* enum ns_event_kind of the first RPC message in the frame */
    uint8_t messages;         /* RPC messages in the frame (saturates at 255) */
    bool backchannel;
    bool given_up;            /* the call was given up unanswered (later) */
    uint8_t left_why;         /* enum ns_txn_verdict: why it left without its reply (0: it did not) */
    bool has_slot, has_expected, udp;
    uint8_t verdict;          /* enum ns_slot_verdict */
    bool refused_misordered;  /* a reply: the server refused its call with SEQ_MISORDERED, whatever
                               * the call's verdict said (the call carries the amendment) */
    uint8_t sessionid[NS_SESSIONID_LEN];
    uint32_t slot, seqid, expected, outstanding, granted;
    /* the session as it stood at this frame */
    bool has_session_view, has_client;
    uint8_t bind_method;      /* enum ns_bind_method of this connection */
    uint8_t state_protect;    /* enum ns_state_protect */
    uint8_t nshare;           /* connections kept in share[] */
    uint32_t share_total;     /* connections that carried or bound the session */
    uint32_t share[FR_SHARE_MAX];
    uint64_t clientid;
    /* UDP */
    uint16_t send_no;
    int64_t gap_ns, armed_timeout_ns, rtt_ns, srtt_ns, rto_ns;
    /* later verdicts about this frame */
    uint8_t amends;
    uint64_t amend_by;
    /* findings this frame belongs to, by id */
    uint8_t nfindings;
    uint16_t findings_more;
    uint32_t findings[FR_FINDINGS_MAX];
};

struct frame_table {
    uint64_t cap;             /* bytes for the index and the records together */
    uint64_t used;
    uint32_t *index;          /* frame number -> record number + 1; 0: none */
    uint64_t index_len;       /* frames 0 .. index_len - 1 addressable */
    struct frame_rec *recs;
    uint32_t nrecs, recs_cap;
    uint64_t frames_unrecorded; /* a record was wanted but the cap was reached */
    uint64_t first_unrecorded;  /* the first such frame; 0: none */
};

void frame_table_init(struct frame_table *t, uint64_t cap);
void frame_table_free(struct frame_table *t);
/* The record of frame n, or NULL. Valid until the next frame_table_get_or_add. */
struct frame_rec *frame_table_get(const struct frame_table *t, uint64_t n);
/* The record of frame n, made empty if new; NULL past the cap (counted). */
struct frame_rec *frame_table_get_or_add(struct frame_table *t, uint64_t n);
/* Adds finding id to the record (once). */
void frame_rec_add_finding(struct frame_rec *r, uint32_t id);
bool frame_rec_has_finding(const struct frame_rec *r, uint32_t id);

#endif
