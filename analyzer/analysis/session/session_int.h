/* Private to session*.c and read_plus.c: the tables behind session.h. */
#ifndef NFSSCOPE_SESSION_INT_H
#define NFSSCOPE_SESSION_INT_H
#include <string.h>

#include "sess_model.h"
#include "session_pool.h"

/* nfsstat4 values the session rules look at (RFC 8881 s.15.1). */
enum {
    SST_OK = 0, SST_DELAY = 10008, SST_GRACE = 10013, SST_STALE_CLIENTID = 10022,
    SST_BADSESSION = 10052, SST_BADSLOT = 10053, SST_CONN_NOT_BOUND = 10055,
    SST_SEQ_MISORDERED = 10063, SST_DEADSESSION = 10078,
};

#define SESS_CLIENTS_MAX 4096
#define SESS_SESSIONS_MAX 16384
#define SESS_OWNERS_MAX 256
#define SESS_OWNER_ADDRS 8
#define SESS_KEYED_MAX 65536
#define SESS_STORMS_MAX 4096
#define SESS_FILES_MAX 4096
#define SESS_FILES_HASH (2 * SESS_FILES_MAX)
#define CREATE_SESSION4_FLAG_CONN_BACK_CHAN 0x2u
#define DEAD_WAIT_MAX 64 /* dead sessions whose recovery is watched (the oldest dropped, counted) */

/* Why a call was (or would be) refused with NFS4ERR_SEQ_MISORDERED, from the
 * slot table at the time the call was sent. */
enum seq_cause {
    SEQC_NONE = 0, SEQC_SKIPPED, SEQC_BACKWARDS, SEQC_IN_FLIGHT, SEQC_OTHER_CONN, SEQC_UNKNOWN,
    SEQC_CS_SEQUENCE, /* CREATE_SESSION csa_sequence */
    SEQC_N
};
/* Why the server said NFS4ERR_CONN_NOT_BOUND_TO_SESSION, from the bindings seen. */
enum cnb_cause {
    CNBC_SEQ_PROTECTED = 0, /* SEQUENCE on a never-bound connection, client SP4_MACH_CRED/SP4_SSV */
    CNBC_SEQ_UNBOUND,       /* SEQUENCE on a never-bound connection, protection not seen */
    CNBC_DESTROY,           /* DESTROY_SESSION on an unbound connection */
    CNBC_BACKCHANNEL,       /* backchannel use on a connection not bound for it */
    CNBC_BOUND,             /* the capture shows the connection bound */
    CNBC_N
};

struct slot_call {              /* what was said about one call on a slot, told again with its reply */
    uint64_t frame;
    uint32_t seqid, expected;
    bool has_expected;
    uint8_t verdict;            /* enum ns_slot_verdict */
};

struct sess_slotx {             /* beside each ns_slot_view */
    uint32_t sig;               /* operations of the last call (REPLAY vs FALSE_RETRY) */
    uint32_t last_call_conn;
    uint8_t cause;              /* enum seq_cause of the call in flight */
    struct slot_call last, prev; /* the last two calls: a retry may come before the first one's reply */
};

/* A slot table (the fore channel's or the back channel's): views beside
 * what the rules keep per slot; grown on use up to NS_SLOTS_MAX. */
struct slot_tab {
    struct ns_slot_view *v;
    struct sess_slotx *x;
    uint32_t cap;
};

/* What the session's findings about its back channel and status flags
 * remember (session_backchannel.c, session_flags.c). */
struct sess_bcx {
    bool pd_seen;               /* a reply carried CB_PATH_DOWN(_SESSION): the last one did */
    bool pd_last;
    bool rv_seen;               /* a reply said state was revoked */
    bool rv_last;
    bool freed;                 /* the client sent FREE_STATEID after that */
};

/* A session's back channel and status flags: allocated (under the memory
 * cap) on its first callback or flagged SEQUENCE reply, so the many
 * sessions that never see one stay small. */
struct sess_cb {
    struct slot_tab back;       /* bc.slots = back.v */
    struct ns_back_channel bc;  /* v.back_channel */
    struct ns_status_flags flags; /* v.status_flags */
    struct sess_bcx bcx;
};

struct sess {
    struct ns_session_view v;
    struct slot_tab fore;       /* v.slots = fore.v, v.nslots its used ids */
    struct sess_cb *cb;         /* NULL: no callback, no flag yet (the views point at empty records) */
    uint64_t seq_ok_replies;    /* NFS4_OK SEQUENCE replies (flags.seq_replies when read) */
    struct sess *hnext;         /* hash chain */
    struct sess *dprev, *dnext; /* changed since the last settle (dirty list) */
    bool dirty, evict;
    bool saturated;
    int64_t sat_since;
    uint64_t order;             /* creation order (ties in first_ts) */
    bool has_first;             /* endpoints of the first connection seen (nconnect, trunking) */
    struct ns_addr first_caddr, first_saddr;
    bool served;                /* a call naming it was answered other than NFS4ERR_BADSESSION */
    int64_t dead_ts;            /* time of v.dead_frame */
    struct {                    /* the first call after the death, for the finding raised later */
        uint64_t reply_frame;
        int64_t ts;
        uint32_t conn;
    } after_first;
};

/* A client's delegations and lease (session_deleg.c), allocated on its
 * first delegation. */
#define DG_RING 64              /* recall times kept for RECALL_STORM (the threshold is capped to it) */
struct sess_dg {
    struct ns_delegations d;    /* v.delegations */
    struct sess_client *owner;  /* the client (entries do not move while they live; freed with it) */
    uint64_t recalled_pending;  /* recalled, not returned nor revoked */
    int64_t ring[DG_RING];      /* times of the last recalls */
    uint32_t ring_n, ring_pos;
    bool in_storm;
};

struct sess_client {
    struct ns_client_view v;
    struct sess_dg *dg;         /* NULL: no delegation yet (the view points at an empty record) */
    struct ns_lease lease;      /* v.lease */
    int64_t last_renew_ts;      /* the last renewal (0: none yet) */
    bool gap_over;              /* the last gap was longer than the lease: errors after it are tied to it */
    struct sess_client *hnext;  /* hash chain */
    bool evict;
    int64_t grace_first_ts, grace_last_ts;
    bool rc_ok_seen;
    int64_t rc_ok_ts;
    struct ns_finding grace_acc; /* frames and connections for GRACE_STUCK */
    bool grace_raised;          /* GRACE_STUCK exists (grace_fidx) */
    size_t grace_fidx;
};

struct sess_owner {             /* server owner + scope -> server addresses (trunking) */
    uint8_t major_len, scope_len;
    uint8_t major[NS_OWNER_MAX], scope[NS_OWNER_MAX];
    uint32_t naddrs;
    struct ns_addr addr[SESS_OWNER_ADDRS];
};

/* Finding kinds kept per session / client (one finding each). */
enum sess_fkind {
    SF_CONN_NOT_BOUND, SF_SEQ_MISORDERED, SF_SLOT_LIMITED, SF_SHRUNK, SF_GAP, SF_ABOVE,
    SF_REPLAY, SF_FALSE_RETRY, SF_SEQPOS, SF_DEAD_USE,
    /* the back channel and SEQUENCE status flags (rendered by bc_render from cause[]) */
    SF_CB_MISORDERED, SF_CB_ABOVE, SF_CB_UNANSWERED, SF_CB_PATH_DOWN, SF_STATE_REVOKED, SF_GSS_EXPIRING,
    SF_GSS_EXPIRED, SF_BC_FAULT, SF_RECLAIM_NEEDED, SF_LEASE_MOVED, SF_DEVID,
    /* delegations (rendered by deleg_render, keyed by client) */
    SF_DELEG_SLOW, SF_RECALL_STORM, SF_LEASE_GAP, SF_N
};
#define SF_BC_FIRST SF_CB_MISORDERED
/* Error kinds that storm. */
enum storm_kind { SK_CONN_NOT_BOUND, SK_SEQ_MISORDERED, SK_BADSESSION, SK_DEADSESSION, SK_BADSLOT, SK_DELAY, SK_N };

struct sess_key {               /* a session, else a client, else nothing */
    bool has_session, has_client;
    uint8_t sessionid[NS_SESSIONID_LEN];
    uint64_t clientid;
};

struct keyed {                  /* one finding per (kind, key) */
    bool used;
    uint8_t kind;               /* enum sess_fkind */
    struct sess_key key;
    size_t fidx;
    uint32_t cause[8];          /* enum seq_cause or enum cnb_cause counts */
    uint32_t conn_sp;           /* CONN_NOT_BOUND: state protection of the client (for the message) */
    bool has_cs;                /* SEQ_MISORDERED on CREATE_SESSION: csa_sequence sent and due */
    uint32_t cs_got, cs_want;
    bool sr_seen;               /* SLOT_ABOVE_GRANTED: the session had a SEQUENCE reply (for the message) */
};

struct storm {
    uint8_t kind;               /* enum storm_kind */
    struct sess_key key;
    int64_t *ring;              /* times of the last N errors */
    uint64_t *ring_frame;       /* ... and their frames (same block) */
    uint32_t ring_n, ring_pos;
    uint64_t cluster_count;
    int64_t cluster_last;
    bool is_storm;              /* the current cluster became a storm */
    size_t fidx;
    struct ns_finding acc;      /* the current cluster's frames, connections, times */
    int64_t cluster_first;
    int64_t sec_start;          /* 1-second buckets from the cluster's first error */
    uint64_t sec_count, peak_per_sec;
};

struct sess_model {
    struct memcap *mc;
    struct findings *fs;
    struct sess_config cfg;
    struct spool clients, sessions; /* entries never move while they live */
    uint64_t next_order;
    struct sess **shash;        /* session id hash -> chain */
    struct sess *last_found;    /* the session sess_find found last (NULL when it goes) */
    size_t shash_size;
    struct sess_client **chash; /* client ID hash -> chain */
    size_t chash_size;
    struct sess *dirty;         /* sessions changed since the last settle */
    struct sess_owner *owners;
    size_t nowners;
    struct keyed *keyed;
    size_t keyed_size, nkeyed;
    struct storm *storms;
    size_t nstorms, storms_cap;
    uint32_t *storm_ix;         /* (kind, key) hash -> storm index + 1; NULL: scan the storms */
    size_t storm_ix_size;
    /* READ / READ_PLUS */
    struct ns_read_bytes read_total;
    struct ns_read_file *files;
    size_t nfiles, files_cap;
    uint32_t *files_hash;       /* fh hash -> index + 1, open addressing, SESS_FILES_HASH entries */
    const struct ns_read_file **files_view; /* files_cap entries, grown with files */
    struct ns_session_stats st;
    struct analysis_amend amend;
    /* dead sessions waiting for their client's CREATE_SESSION (session_dead.c):
     * a CREATE_SESSION looks at these only, not at every session */
    uint8_t dead_wait[DEAD_WAIT_MAX][NS_SESSIONID_LEN];
    uint32_t ndead_wait;
    struct deleg_tab *deleg;    /* delegations by stateid (session_deleg.c); NULL until the first */
};

/* session_store.c: the session and client tables */
void store_init(struct sess_model *m);
void store_free(struct sess_model *m);
struct sess *sess_find(struct sess_model *m, const uint8_t *sid);
/* Found or created (mid_capture set when created); NULL: no memory. */
struct sess *sess_get(struct sess_model *m, const uint8_t *sid, int64_t ts);
struct sess_client *sess_client_find(struct sess_model *m, uint64_t clientid);
struct sess_client *sess_client_get(struct sess_model *m, uint64_t clientid, int64_t ts);
static inline size_t sess_nsessions(const struct sess_model *m) { return m->sessions.n; }
static inline struct sess *sess_at(const struct sess_model *m, size_t i) { return m->sessions.order[i]; }
static inline size_t sess_nclients(const struct sess_model *m) { return m->clients.n; }
static inline struct sess_client *sess_client_at(const struct sess_model *m, size_t i) { return m->clients.order[i]; }
/* s changed: settle it next time. */
void sess_dirty(struct sess_model *m, struct sess *s);
/* The dirty sessions, taken off the list one by one (NULL: none left). */
struct sess *sess_take_dirty(struct sess_model *m);

/* session_table.c */
/* The session's entry for a connection (added if new; NULL if the list is full). */
struct ns_session_conn *sess_conn(struct sess *s, uint32_t conn_id);
/* sess_conn, and the connection's endpoints noted when new (c may be NULL). */
struct ns_session_conn *sess_use_conn(struct sess *s, const struct ns_conn *c, uint32_t conn_id);
/* s was seen at ts: times widened, settled next time. */
void sess_touch(struct sess_model *m, struct sess *s, int64_t ts);
void sess_note_status(struct sess *s, uint32_t status);

/* session_slots.c */
/* The SEQUENCE call of t (first transmission); fi (may be NULL): its facts. */
void slots_on_call(struct sess_model *m, struct sess *s, const struct ns_txn *t, struct sess_frame_info *fi);
void slots_on_retransmit(struct sess_model *m, struct sess *s, const struct ns_txn *t, uint64_t frame, int64_t ts,
                         struct sess_frame_info *fi);
/* The reply to t's SEQUENCE (or the call given up: reply_ok false, ts = now). */
void slots_on_reply(struct sess_model *m, struct sess *s, const struct ns_txn *t);
/* The facts of t's call for its reply (s: its session, NULL when not tracked). */
void slots_reply_facts(const struct sess *s, const struct ns_txn *t, struct sess_frame_info *fi);
/* Slot, sequence ID and session of a call, with verdict v and no expectation. */
void slots_facts_head(const struct nfs4_seq_args *q, uint8_t v, struct sess_frame_info *fi);
void slots_on_given_up(struct sess_model *m, struct sess *s, const struct ns_txn *t, int64_t ts);
/* Cause of a SEQ_MISORDERED reply to t, from what was noted at the call. */
enum seq_cause slots_cause(struct sess *s, const struct ns_txn *t);
void slots_update_fractions(struct sess *s);
uint32_t slots_sig(const struct ns_txn *t);

/* session_slots.c, the rules of one slot, shared by both channels */
/* Room for slot ids 0..n-1 in tb (false: over NS_SLOTS_MAX or the memory cap). */
bool slot_tab_room(struct sess_model *m, struct slot_tab *tb, uint32_t n);
void slot_tab_release(struct sess_model *m, struct slot_tab *tb);
/* A call of seqid with operations sig judged against its slot as it stands
 * (mid: the session's CREATE_SESSION was not captured). */
struct slot_call slot_judge(bool mid, const struct ns_slot_view *sv, const struct sess_slotx *sx, uint32_t seqid,
                            uint32_t sig);
/* The call j (of t, operations sig) is now the slot's last; true when the
 * slot was idle (one more request outstanding). */
bool slot_take(struct ns_slot_view *sv, struct sess_slotx *sx, const struct ns_txn *t, uint32_t sig,
               const struct slot_call *j, uint8_t cause);
/* What was said about t's call on its slot (NULL: displaced by later calls). */
const struct slot_call *slot_call_of(const struct ns_slot_view *sv, const struct sess_slotx *sx, const struct ns_txn *t);
/* t's call no longer in flight on sv; true if it was (one less outstanding). */
bool slot_release_call(struct ns_slot_view *sv, const struct ns_txn *t);

/* session_backchannel.c: CB_COMPOUND on a session's back channel */
void bc_init(struct sess *s);
/* s's back-channel record, allocated now if need be (NULL: no memory, counted). */
struct sess_cb *bc_get(struct sess_model *m, struct sess *s);
void bc_release(struct sess_model *m, struct sess *s);
/* The views of s brought up to date for a reader. */
void bc_view(struct sess *s);
void bc_on_call(struct sess_model *m, struct sess *s, const struct ns_txn *t, const struct ns_conn *c,
                struct sess_frame_info *fi);
void bc_on_retransmit(struct sess_model *m, struct sess *s, const struct ns_txn *t, struct sess_frame_info *fi);
void bc_on_reply(struct sess_model *m, struct sess *s, const struct ns_txn *t);
/* The facts of a callback's call for its reply (s may be NULL). */
void bc_reply_facts(const struct sess *s, const struct ns_txn *t, struct sess_frame_info *fi);
void bc_on_given_up(struct sess_model *m, struct sess *s, const struct ns_txn *t);
/* CREATE_SESSION's back-channel attributes, BACKCHANNEL_CTL answered NFS4_OK. */
void bc_on_create_session(struct sess *s);
void bc_on_backchannel_ctl(struct sess_model *m, struct sess *s, const struct ns_txn *t);
/* The message of a back-channel or status-flag finding from its counts. */
void bc_render(uint8_t kind, const struct ns_finding *f, const uint32_t *cause, char *b);

/* session_flags.c: sr_status_flags per session and their findings */
void flags_on_seq_reply(struct sess_model *m, struct sess *s, const struct ns_txn *t);
/* A call of s with TEST_STATEID / FREE_STATEID after state was revoked. */
void flags_on_state_call(struct sess_model *m, struct sess *s, const struct ns_txn *t, bool test, bool free_);
/* BIND_CONN_TO_SESSION answered on s after CB_PATH_DOWN. */
void flags_on_bind_conn(struct sess_model *m, struct sess *s, const struct ns_txn *t);
void flags_render(uint8_t kind, const struct ns_finding *f, const uint32_t *cause, char *b);

/* session_findings.c */
/* Fold one occurrence into the (kind, key) finding, creating it; then
 * sf_commit (after noting its cause, if any). */
struct keyed *sf_fold(struct sess_model *m, enum sess_fkind kind, const struct sess_key *k, int64_t ts,
                      uint64_t frame, uint32_t conn);
/* e's finding is complete again: message rewritten, the store told (frame: the occurrence). */
void sf_commit(struct sess_model *m, struct keyed *e, uint64_t frame);
/* sf_fold + sf_commit. */
struct keyed *sf_note(struct sess_model *m, enum sess_fkind kind, const struct sess_key *k, int64_t ts,
                      uint64_t frame, uint32_t conn);
void sf_on_reply_errors(struct sess_model *m, const struct ns_txn *t, struct sess *s, const struct ns_conn *c);
/* SLOT_LIMITED of s: created on the CREATE_SESSION reply (reply_frame), else
 * its severity and message brought up to date (the store told if they changed). */
void sf_slot_limited(struct sess_model *m, struct sess *s, uint64_t reply_frame, int64_t ts);
/* s has its first SEQUENCE reply: SLOT_ABOVE_GRANTED's message says so. */
void sf_seq_reply_seen(struct sess_model *m, struct sess *s);
/* Every keyed message as it would be written now (the store told of changes). */
void sf_refresh_all(struct sess_model *m);
void sf_set_subject(struct sess_model *m, struct ns_finding *f, const struct sess_key *k);
bool sf_key_eq(const struct sess_key *a, const struct sess_key *b);
uint32_t sf_key_hash(uint8_t kind, const struct sess_key *k);
/* The (kind, key) finding if it exists (NULL: not raised, or not stored). */
struct ns_finding *sf_finding(struct sess_model *m, enum sess_fkind kind, const struct sess_key *k);
/* The (kind, key) entry if it exists (its cause[] counts). */
struct keyed *sf_keyed(struct sess_model *m, enum sess_fkind kind, const struct sess_key *k);

/* session_dead.c: sessions the server does not know (NFS4ERR_BADSESSION) or
 * destroyed, their use after that, DEAD_SESSION_USE */
/* Calls on a dead session, first sent after it was known dead, before a finding. */
#define DEAD_USE_MIN 2
/* The reply to a v4.1 COMPOUND with a status (every one reply_model sees). */
void dead_on_reply(struct sess_model *m, const struct ns_txn *t, const struct ns_conn *c);
/* s destroyed by t's DESTROY_SESSION (answered NFS4_OK). */
void dead_on_destroy(struct sess_model *m, struct sess *s, const struct ns_txn *t);
/* t's CREATE_SESSION answered NFS4_OK: dead sessions of the same client recovered. */
void dead_on_create_session(struct sess_model *m, const struct ns_txn *t, const struct ns_conn *c);
void sf_free(struct sess_model *m);

/* session_storms.c */
/* One error of kind on key k (reply frame, ts, connection). */
void storm_note(struct sess_model *m, enum storm_kind kind, const struct sess_key *k, int64_t ts, uint64_t frame,
                uint32_t conn);
void storms_free(struct sess_model *m);

/* session_grace.c: GRACE_STUCK */
void grace_on_reply(struct sess_model *m, struct sess_client *cl, int64_t ts, uint64_t frame, uint32_t conn);
/* A RECLAIM_COMPLETE of cl answered (ok or failed). */
void grace_on_reclaim_complete(struct sess_model *m, struct sess_client *cl, bool ok, int64_t ts, uint64_t frame,
                               uint32_t conn);
static inline struct sess_key sess_key_of(const struct sess *s)
{
    struct sess_key k;
    memset(&k, 0, sizeof k);
    k.has_session = true;
    memcpy(k.sessionid, s->v.sessionid, NS_SESSIONID_LEN);
    return k;
}

/* session_deleg.c: delegations per client, DELEG_RETURN_SLOW, RECALL_STORM */
void dg_init(struct sess_client *cl);
struct sess_dg *dg_get(struct sess_model *m, struct sess_client *cl);
void dg_release(struct sess_model *m, struct sess_client *cl);
/* A CB_COMPOUND call (s: its CB_SEQUENCE's session, may be NULL). */
void deleg_on_recall(struct sess_model *m, const struct ns_txn *t, struct sess *s);
/* The reply to a COMPOUND (s: its session, may be NULL). */
void deleg_on_reply(struct sess_model *m, const struct ns_txn *t, struct sess *s);
/* A SEQUENCE call of s (a renewal of its client's lease, RFC 8881 s.8.3). */
void lease_on_renew(struct sess_model *m, struct sess *s, const struct ns_txn *t);
/* A reply of s: NFS4ERR_EXPIRED / STALE_CLIENTID / BADSESSION after a gap past the lease. */
void lease_on_reply(struct sess_model *m, struct sess *s, const struct ns_txn *t);
/* Recalls unanswered for longer than the lease as of now. */
void deleg_judge_missing(struct sess_model *m, int64_t now);
void deleg_free(struct sess_model *m);
void deleg_render(uint8_t kind, const struct ns_finding *f, const uint32_t *cause, char *b);

/* read_plus.c */
void rp_on_reply(struct sess_model *m, const struct ns_txn *t);
size_t rp_files(struct sess_model *m, const struct ns_read_file *const **out);
void rp_free(struct sess_model *m);

#endif
