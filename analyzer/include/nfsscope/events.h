/* Per-frame events: what the analyzer decided about each frame, told while
 * frames are fed, for front ends that show results as they happen (the live
 * screen) or on every frame (the Wireshark plugin).
 *
 * An event names the frame it is about. Most are about the frame being fed;
 * some are decided later and name an earlier frame (NS_EV_AMEND, and
 * NS_EV_FINDING when a finding takes in earlier occurrences, as a storm
 * does once it reaches its threshold). Events come in the order decided. */
#ifndef NFSSCOPE_EVENTS_H
#define NFSSCOPE_EVENTS_H
#include <stdbool.h>
#include <stdint.h>

#include "nfsscope/findings.h"
#include "nfsscope/nfs_types.h"
#include "nfsscope/txn.h"

/* Everything declared here is the library's public ABI (the rest is hidden). */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

enum ns_event_kind {
    NS_EV_CALL = 1,        /* a call's first transmission */
    NS_EV_RESEND,          /* the same call sent again (same XID, same procedure) */
    NS_EV_REPLY,           /* the first reply to a call */
    NS_EV_DUP_REPLY,       /* a further reply to an answered call */
    NS_EV_ORPHAN_REPLY,    /* a reply whose call is not known */
    NS_EV_GIVEN_UP,        /* a call handed out without its reply: given up (timeout, end of input, XID
                            * reused) or evicted while still waiting (ns_event.verdict) */
    NS_EV_FINDING,         /* the frame is an occurrence of a finding, or the finding changed (frame 0) */
    NS_EV_AMEND,           /* a later frame changed what was said about an earlier frame */
    NS_EV_KINDS
};

/* Slot verdict of a SEQUENCE (or CB_SEQUENCE) call, from the slot table as
 * the capture shows it when the call is sent (RFC 8881 2.10.6.1). */
enum ns_slot_verdict {
    NS_SLOT_NONE = 0,       /* no SEQUENCE in the call */
    NS_SLOT_NEW,            /* sequence ID = the slot's last + 1: a new request */
    NS_SLOT_FIRST,          /* first use of the slot in the capture: expected value unknown */
    NS_SLOT_REPLAY,         /* same sequence ID and operations as the last call: a retry */
    NS_SLOT_FALSE_RETRY,    /* same sequence ID, other operations */
    NS_SLOT_GAP,            /* sequence ID ahead of last + 1 (misordered) */
    NS_SLOT_BACKWARDS,      /* sequence ID behind the last one (misordered) */
    NS_SLOT_IN_FLIGHT,      /* slot still busy with another request (misordered) */
    NS_SLOT_ABOVE_GRANTED,  /* slot ID above the highest the server granted */
    NS_SLOT_UNTRACKED,      /* slot ID beyond the tracked table, or session not tracked */
    NS_SLOT_VERDICTS
};

/* What an amendment says about its earlier frame. */
enum ns_amend_kind {
    NS_AMEND_SPURIOUS_RESEND = 1, /* UDP: this resend was not needed (the reply to an earlier send came) */
    NS_AMEND_REPLY_LOST_TO_FRAGMENTS, /* UDP: the reply to this send was lost in IP fragments */
    NS_AMEND_MISORDERED_CAUSE, /* the call's SEQ_MISORDERED reply came: cause in detail */
    NS_AMEND_KINDS
};

struct ns_event {
    uint8_t kind;              /* enum ns_event_kind */
    uint64_t frame;            /* the frame the event is about; 0: not tied to a frame */
    int64_t ts_ns;             /* that frame's time */
    uint64_t txn_id;           /* stable id of the transaction (1-based, in order of first sight); 0: none */
    uint32_t conn_id;          /* connection (c1 = 1); 0: none */
    uint32_t xid;
    bool backchannel;
    const struct ns_txn *txn;  /* the transaction as it stands; valid during the callback only; may be NULL */

    /* NFSv4.1+ session and slot of the call (CALL, RESEND, REPLY, DUP_REPLY, GIVEN_UP) */
    bool has_slot;
    uint8_t sessionid[NS_SESSIONID_LEN];
    uint32_t slot, seqid;
    bool has_expected;
    uint32_t expected_seqid;   /* the slot's last + 1 (valid with has_expected) */
    uint8_t slot_verdict;      /* enum ns_slot_verdict */
    uint32_t outstanding;      /* the session's requests in flight after this frame */
    uint32_t granted;          /* the session's granted slots at this frame (0: unknown) */

    /* RPC over UDP (CALL, RESEND, REPLY, DUP_REPLY) */
    bool udp;
    uint16_t send_no;          /* 1 = first transmission */
    int64_t gap_ns;            /* RESEND: time since the previous send */
    int64_t armed_timeout_ns;  /* the timeout a Linux client had armed when it sent this (0: unknown) */
    int64_t rtt_ns;            /* REPLY: measured RTT when the call was sent once (Karn), else -1 */
    int64_t srtt_ns, rto_ns;   /* the pair's estimator after this frame (0: not estimated) */

    /* NS_EV_FINDING */
    uint32_t finding_id;
    const struct ns_finding *finding; /* valid during the callback only */

    /* NS_EV_AMEND */
    uint8_t amend;             /* enum ns_amend_kind */
    uint64_t by_frame;         /* the frame that caused the amendment */

    /* API version 5. NS_EV_GIVEN_UP: why the call left without its reply
     * (enum ns_txn_verdict); NS_VERDICT_EVICTED_WAITING is not "unanswered":
     * the call was still waiting, for waited_ns, when memory ran short (its
     * reply, if it comes, is an NS_EV_REPLY whose txn has late_reply). */
    uint8_t verdict;
    int64_t waited_ns;
};

typedef void (*ns_event_fn)(void *ctx, const struct ns_event *ev);

const char *ns_event_kind_name(uint8_t kind);     /* "call", "resend", ... */
const char *ns_slot_verdict_name(uint8_t verdict); /* "new", "replay", "false_retry", ... */
const char *ns_amend_kind_name(uint8_t amend);    /* "spurious_resend", ... */

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
