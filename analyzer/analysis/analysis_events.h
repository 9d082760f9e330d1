/* What the analyzers tell the pipeline about single frames: the per-frame
 * facts of a call or reply (slot verdict, UDP timing) and amendments, when a
 * later frame changes what was said about an earlier one. Turned into
 * nfsscope/events.h events by the pipeline. */
#ifndef NFSSCOPE_ANALYSIS_EVENTS_H
#define NFSSCOPE_ANALYSIS_EVENTS_H
#include <stdbool.h>
#include <stdint.h>

#include "nfsscope/events.h"
#include "nfsscope/txn.h"

/* The session analyzer's word on one call or reply. */
struct sess_frame_info {
    bool has_slot;
    uint8_t sessionid[NS_SESSIONID_LEN];
    uint32_t slot, seqid;
    bool has_expected;
    uint32_t expected_seqid;
    uint8_t verdict;           /* enum ns_slot_verdict */
    uint32_t outstanding;      /* the session's requests in flight after this frame */
    uint32_t granted;          /* granted slots now (0: unknown) */
};

/* The UDP timing analyzer's word on one send or reply. */
struct udp_frame_info {
    bool udp;
    uint16_t send_no;          /* 1 = first transmission */
    int64_t gap_ns;            /* resend: time since the previous send */
    int64_t armed_timeout_ns;  /* timeout a Linux client armed at this send (0: unknown) */
    int64_t rtt_ns;            /* reply: RTT sample (Karn), else -1 */
    int64_t srtt_ns, rto_ns;   /* the pair's estimator for the call's timer class after this frame */
};

/* An earlier frame's verdict changed (t: its transaction, may be NULL). */
typedef void (*analysis_amend_fn)(void *ctx, uint64_t frame, uint8_t amend, const struct ns_txn *t,
                                  uint64_t by_frame);
struct analysis_amend {
    analysis_amend_fn fn;
    void *ctx;
};

static inline void analysis_amend_tell(const struct analysis_amend *a, uint64_t frame, uint8_t amend,
                                       const struct ns_txn *t, uint64_t by_frame)
{
    if (a && a->fn) a->fn(a->ctx, frame, amend, t, by_frame);
}

#endif
