/* NFSv4.1+ clients, sessions, the connections bound to them, their slot
 * tables, and READ_PLUS statistics: read-only views of what the session
 * analyzer saw (RFC 8881 s.2.10, RFC 7862 s.15.10). Views live as
 * nfsscope.h's "Lifetimes" says; lists are in order of first appearance. */
#ifndef NFSSCOPE_SESSION_H
#define NFSSCOPE_SESSION_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/nfs_types.h"
#include "nfsscope/stats.h"

/* Everything declared here is the library's public ABI (the rest is hidden). */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_analyzer ns_analyzer;

enum ns_state_protect { NS_SP4_NONE = 0, NS_SP4_MACH_CRED = 1, NS_SP4_SSV = 2 };

/* An NFSv4.1 client ID (EXCHANGE_ID, or first seen in CREATE_SESSION). */
struct ns_client_view {
    uint64_t clientid;
    bool from_exchange_id;      /* false: EXCHANGE_ID not captured */
    uint32_t owner_wire_len;
    uint8_t owner_len;          /* bytes kept of the co_ownerid */
    uint8_t owner[NS_OWNER_MAX];
    uint32_t eir_sequenceid, eir_flags;
    uint32_t sp_requested, sp_granted; /* enum ns_state_protect: asked in the call, chosen in the reply */
    uint64_t server_minor_id;
    uint8_t server_major_len, scope_len;
    uint8_t server_major[NS_OWNER_MAX], scope[NS_OWNER_MAX];
    struct ns_endpoint server;  /* where EXCHANGE_ID was answered */
    uint32_t server_addrs;      /* server addresses answering with the same server owner and
                                   scope (> 1: server trunking, RFC 8881 2.10.5) */
    uint64_t replaces_clientid; /* earlier client ID of the same owner (re-established); 0 none */
    uint32_t conn_id;           /* connection of EXCHANGE_ID (or of the first sighting) */
    uint64_t exchange_call_frame, exchange_reply_frame;
    int64_t first_ts_ns, last_ts_ns;
    uint32_t sessions;          /* sessions of this client ID seen */
    uint32_t create_session_next; /* the csa_sequence the next CREATE_SESSION must carry */
    uint64_t grace_replies;     /* NFS4ERR_GRACE replies */
    uint64_t reclaim_complete_ok, reclaim_complete_failed;
    /* API version 8: the client's delegations and lease (below); never NULL
     * in a view of this library (NULL from an older one). */
    const struct ns_delegations *delegations;
    const struct ns_lease *lease;
};

/* API version 8: a client's delegations (RFC 8881 s.10.4, s.10.2): granted
 * by OPEN / WANT_DELEGATION replies, recalled by CB_RECALL, returned by
 * DELEGRETURN answered NFS4_OK, revoked (NFS4ERR_DELEG_REVOKED naming one,
 * or SEQ4_STATUS_RECALLABLE_STATE_REVOKED while one was recalled). The
 * delegations themselves are kept in a bounded table (ns_session_stats.
 * delegations_evicted). Handed out by pointer: grows only at its end. */
struct ns_delegations {
    uint64_t granted, granted_read, granted_write;
    uint64_t recalled;          /* CB_RECALL calls (resends not counted) naming a known delegation or not */
    uint64_t returned;          /* DELEGRETURN answered NFS4_OK */
    uint64_t revoked;
    uint64_t outstanding;       /* granted, not returned nor revoked (now) */
    uint64_t outstanding_max;   /* ... at most, over the capture */
    struct ns_latency recall_to_return; /* CB_RECALL call to the DELEGRETURN call of the same stateid */
    uint64_t return_max_frame;  /* the DELEGRETURN of the slowest return */
    uint64_t returns_slow;      /* returns after more than half the lease */
    uint64_t recalls_past_lease; /* recalls not returned within the lease (returned later, or never) */
    uint64_t errors_after_recall; /* BAD_STATEID / DELEG_REVOKED / EXPIRED replies to a call naming a recalled stateid */
    uint64_t recall_storms;     /* windows with a recall storm (RECALL_STORM findings) */
    uint64_t recalls_peak;      /* most recalls within the storm window */
};

/* API version 8: a client's lease (RFC 8881 s.8.3, RFC 7530 s.9.5). */
struct ns_lease {
    uint32_t lease_time_s;      /* the server's fattr4 lease_time, else --lease-time */
    bool from_server;           /* lease_time_s read from a GETATTR reply */
    uint64_t renewals;          /* SEQUENCE (4.1) or RENEW / stateful calls (4.0) seen */
    int64_t longest_gap_ns;     /* longest time between two renewals */
    uint64_t gap_end_frame;     /* the renewal that ended it */
    uint64_t gaps_past_lease;   /* gaps longer than the lease (LEASE_EXPIRED_GAP) */
};

enum ns_bind_method {
    NS_BIND_NONE = 0,           /* carried the session's calls but never bound in the capture */
    NS_BIND_CREATE_SESSION = 1, /* the connection that carried CREATE_SESSION */
    NS_BIND_BIND_CONN = 2,      /* BIND_CONN_TO_SESSION */
    NS_BIND_SEQUENCE = 3,       /* implicitly by a SEQUENCE answered NFS4_OK (SP4_NONE only) */
};

#define NS_SESSION_CONNS 32
struct ns_session_conn {
    uint32_t conn_id;
    uint8_t method;             /* enum ns_bind_method */
    bool fore, back;            /* channels bound */
    uint32_t dir_requested;     /* BIND_CONN_TO_SESSION bctsa_dir (1 FORE, 2 BACK, 3 FORE_OR_BOTH, 7 BACK_OR_BOTH) */
    uint32_t dir_granted;       /* bctsr_dir (1 FORE, 2 BACK, 3 BOTH) */
    uint64_t bind_frame;        /* reply that bound it; 0 none */
    uint64_t calls;             /* the session's fore-channel calls it carried */
    uint64_t bytes;             /* their call + reply bytes */
    uint64_t cb_calls;          /* backchannel calls it carried */
    uint64_t not_bound_errors;  /* NFS4ERR_CONN_NOT_BOUND_TO_SESSION replies on it */
};

struct ns_slot_view {
    bool used;
    bool has_ok;
    bool in_flight;
    uint32_t last_call_seqid;   /* last sequence ID seen in a call */
    uint32_t last_ok_seqid;     /* last sequence ID answered NFS4_OK */
    uint64_t calls;
    uint64_t in_flight_frame;   /* call in flight (valid with in_flight) */
    uint32_t in_flight_conn;
};

struct ns_slot_change {        /* the server changed sr_highest_slotid or target_highest_slotid */
    int64_t ts_ns;
    uint64_t frame;
    uint32_t highest_slotid, target_highest_slotid;
};

#define NS_OUTSTANDING_HIST 65  /* index n: calls sent with n requests outstanding (this one included); last: 64+ */
#define NS_SLOT_HISTORY 32
#define NS_SESSION_OPS 80       /* per opcode 0..78; 79: any other */
#define NS_SESSION_STATUS 16
#define NS_SLOTS_MAX 1024       /* slots tracked per session (higher slot ids only counted) */

struct ns_session_view {
    uint8_t sessionid[NS_SESSIONID_LEN];
    bool has_client;
    uint64_t clientid;
    bool mid_capture;           /* no CREATE_SESSION captured: tracked from SEQUENCE traffic */
    bool destroyed;
    uint64_t destroy_frame;
    uint64_t create_call_frame, create_reply_frame;
    uint32_t create_conn;
    uint32_t csa_sequence, flags_requested, flags_granted, cb_program;
    bool has_requested;         /* CREATE_SESSION call captured */
    bool has_granted;           /* CREATE_SESSION reply (NFS4_OK) captured */
    struct nfs4_chan_attrs fore_requested, fore_granted, back_requested, back_granted;
    bool back_same;             /* the back channel shares the fore channel's connection
                                   (CREATE_SESSION4_FLAG_CONN_BACK_CHAN granted, or a
                                   connection bound for both directions) */
    int64_t first_ts_ns, last_ts_ns;
    uint32_t nconns;            /* connections that carried or bound the session, by id */
    uint32_t conns_dropped;     /* more than NS_SESSION_CONNS */
    struct ns_session_conn conns[NS_SESSION_CONNS];
    bool nconnect;              /* several connections between one client and one server address */
    bool trunked;               /* several server addresses (session trunking) */
    /* fore-channel slot table */
    uint64_t calls, replies, errors, cb_calls;
    bool any_slot_used;
    uint32_t highest_slot_used; /* highest slot ID in any SEQUENCE call */
    uint32_t granted_slots;     /* now: last sr_highest_slotid + 1, else CREATE_SESSION's maxrequests */
    uint32_t outstanding;       /* requests in flight now */
    uint32_t max_outstanding;
    uint64_t outstanding_hist[NS_OUTSTANDING_HIST];
    uint64_t saturated_calls;   /* calls that left every granted slot busy */
    int64_t saturated_ns;       /* time with every granted slot busy */
    double saturated_fraction;  /* saturated_ns / (last_ts - first_ts) */
    double saturated_calls_fraction;
    bool has_seq_reply;
    uint32_t sr_highest_slotid, target_highest_slotid; /* last NFS4_OK SEQUENCE reply */
    uint32_t nhistory;
    uint64_t history_dropped;
    struct ns_slot_change history[NS_SLOT_HISTORY];
    uint32_t nslots;            /* slot ids 0..nslots-1 below */
    const struct ns_slot_view *slots;
    uint64_t slot_ids_untracked; /* calls on slot ids >= NS_SLOTS_MAX */
    uint64_t ops[NS_SESSION_OPS]; /* operations in the session's COMPOUNDs, by opcode */
    uint32_t nstatus;           /* error statuses of replies, by first appearance */
    struct { uint32_t status; uint64_t count; } status[NS_SESSION_STATUS];
    /* API version 3: a session the server does not know, or no longer
     * (RFC 8881 2.10.13, 18.46.3), and its use after that. */
    bool never_created;         /* no CREATE_SESSION captured and every call naming it (SEQUENCE,
                                   BIND_CONN_TO_SESSION, DESTROY_SESSION) answered NFS4ERR_BADSESSION */
    uint64_t badsession_replies; /* NFS4ERR_BADSESSION replies to calls naming it */
    uint64_t badsession_first_frame, badsession_last_frame;
    uint8_t dead;               /* enum ns_session_dead */
    uint64_t dead_frame;        /* the reply that showed it dead (first BADSESSION, or DESTROY_SESSION NFS4_OK) */
    uint64_t calls_after_dead;  /* answered calls naming it first sent after that reply */
    uint64_t after_dead_first_frame, after_dead_last_frame; /* their call frames */
    uint64_t recovered_frame;   /* first CREATE_SESSION answered NFS4_OK to the same client (client ID, else
                                   client address) after dead_frame; 0 = none in the capture */
    /* API version 7: the back channel and SEQUENCE's status flags (below);
     * never NULL in a view of this library (NULL from an older one). */
    const struct ns_back_channel *back_channel;
    const struct ns_status_flags *status_flags;
};

/* API version 7: a session's back channel, the server's callbacks
 * (CB_COMPOUND led by CB_SEQUENCE naming the session) to its client, its
 * slot table judged by the fore channel's rules (RFC 8881 s.2.10.6,
 * s.20.9; doc/findings.md). Handed out by pointer: grows only at its end. */
#define NS_CB_STATUS 8
#define NS_CB_VERDICTS 16       /* indexed by enum ns_slot_verdict (events.h) */
struct ns_back_channel {
    uint32_t slots_asked;       /* CREATE_SESSION csa_back_chan_attrs ca_maxrequests (0: call not captured) */
    uint32_t slots_granted;     /* ... in the reply's csr_back_chan_attrs (0: reply not captured) */
    uint32_t granted_now;       /* last NFS4_OK CB_SEQUENCE csr_highest_slotid + 1, else slots_granted */
    bool has_cb_reply;          /* an NFS4_OK CB_SEQUENCE reply was seen (csr_* below) */
    uint32_t csr_highest_slotid, csr_target_highest_slotid;
    uint64_t backchannel_ctl;   /* BACKCHANNEL_CTL answered NFS4_OK */
    uint64_t backchannel_ctl_frame; /* the last one's reply */
    uint64_t calls;             /* callbacks (first transmissions) */
    uint64_t replies;           /* their first replies */
    uint64_t resends;           /* the same XID sent again */
    uint64_t unanswered;        /* given up: no reply within the call timeout or by the end of input */
    uint64_t errors;            /* replies whose CB_COMPOUND status is not NFS4_OK */
    uint32_t nstatus;           /* those statuses, by first appearance (NS_CB_STATUS kept) */
    struct { uint32_t status; uint64_t count; } status[NS_CB_STATUS];
    uint64_t calls_unbound_conn; /* callbacks on a connection the capture does not show bound for the back channel */
    bool any_slot_used;
    uint32_t highest_slot_used; /* highest slot ID in a CB_SEQUENCE call */
    uint32_t outstanding;       /* callbacks in flight now */
    uint32_t max_outstanding;
    uint64_t verdicts[NS_CB_VERDICTS]; /* CB_SEQUENCE calls by slot verdict */
    uint32_t nslots;            /* slot ids 0..nslots-1 below */
    const struct ns_slot_view *slots;
    uint64_t slot_ids_untracked; /* calls on slot ids >= NS_SLOTS_MAX (or refused by the memory cap) */
    uint64_t first_call_frame, last_call_frame;
    int64_t first_ts_ns, last_ts_ns; /* of the callbacks (calls and replies) */
};

/* API version 7: sr_status_flags of the session's NFS4_OK SEQUENCE replies
 * (RFC 8881 s.18.46.3), per bit: a timeline of what the server signalled. */
#define NS_STATUS_FLAGS 16      /* bits 0..15 (RFC 8881 defines 0..12: ns_status_flag_name) */
struct ns_status_flag {         /* laid out in an array: never changes */
    uint64_t replies;           /* replies carrying the flag */
    int64_t first_ts_ns, last_ts_ns;
    uint64_t first_frame, last_frame;
};
struct ns_status_flags {
    uint64_t seq_replies;       /* NFS4_OK SEQUENCE replies read */
    uint64_t flagged_replies;   /* ... with any flag set */
    uint32_t other_bits;        /* bits 16..31 seen (undefined by the RFC) */
    struct ns_status_flag flag[NS_STATUS_FLAGS];
};
/* "CB_PATH_DOWN", "RECALLABLE_STATE_REVOKED", ... for a bit number
 * (SEQ4_STATUS_* without the prefix); NULL for an undefined bit. */
const char *ns_status_flag_name(uint32_t bit);

enum ns_session_dead {
    NS_SESS_ALIVE = 0,
    NS_SESS_BADSESSION = 1,     /* the server answered NFS4ERR_BADSESSION: never created, or lost (restart) */
    NS_SESS_DESTROYED = 2,      /* DESTROY_SESSION answered NFS4_OK */
};

/* READ and READ_PLUS results (NFSv4 replies NFS4_OK; READ: NFSv3 too). */
struct ns_read_bytes {
    uint64_t read_plus_replies, data_segments, data_bytes, hole_segments, hole_bytes;
    uint64_t read_replies, read_bytes;
};
struct ns_read_file {
    struct nfs4_fh fh;
    struct ns_read_bytes r;
    int64_t first_ts_ns, last_ts_ns;
};

struct ns_session_stats {
    uint64_t clients_evicted, sessions_evicted, files_evicted; /* memory cap */
    uint64_t rules_dropped;     /* occurrences not judged: finding or storm tables full */
    uint64_t delegations_evicted; /* API version 8: delegations dropped from the bounded table (oldest first) */
};

size_t ns_analyzer_client_count(const ns_analyzer *a);
const struct ns_client_view *ns_analyzer_client(const ns_analyzer *a, size_t i);
size_t ns_analyzer_session_count(const ns_analyzer *a);
/* Fractions are brought up to date by this call. NULL if i is out of range. */
const struct ns_session_view *ns_analyzer_session(const ns_analyzer *a, size_t i);
/* Totals over every reply, and per file handle sorted by handle bytes. */
const struct ns_read_bytes *ns_analyzer_read_totals(const ns_analyzer *a);
size_t ns_analyzer_read_files(const ns_analyzer *a, const struct ns_read_file *const **out);
const struct ns_session_stats *ns_analyzer_session_stats(const ns_analyzer *a);
/* Lookups by key (the 16-byte session ID, the client ID): NULL if not seen
 * or evicted. A returned view stays at the same address until its entry is
 * evicted, so the key is the handle: look it up again to know it lives. */
const struct ns_session_view *ns_analyzer_session_by_id(const ns_analyzer *a, const uint8_t *sessionid);
const struct ns_client_view *ns_analyzer_client_by_id(const ns_analyzer *a, uint64_t clientid);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
