/* The fore-channel slot table of a session, shared by all of its connections
 * (RFC 8881 s.2.10.6): per slot the last sequence ID in calls and in NFS4_OK
 * replies and the call in flight; requests outstanding, saturation (every
 * granted slot busy), sr_highest_slotid / target over time; and the slot
 * rules: SLOT_SEQ_GAP, REPLAY, FALSE_RETRY, SLOT_ABOVE_GRANTED,
 * SLOT_TABLE_SHRUNK (doc/findings.md). */
#include <stdlib.h>

#include "session_int.h"

uint32_t slots_sig(const struct ns_txn *t)
{
    const struct nfs4_call *c = &t->u.v4.call;
    uint32_t h = 2166136261u;
#define MIX(v) (h = (h ^ (uint32_t)(v)) * 16777619u)
    MIX(c->nops_wire);
    for (uint32_t i = 0, n = ns_txn_nops(t); i < n; i++) MIX(ns_txn_op(t, i));
    if (c->io.has_io) {
        MIX(c->io.op);
        MIX(c->io.offset);
        MIX(c->io.offset >> 32);
        MIX(c->io.count);
        for (uint8_t i = 0; i < c->io.fh.len; i++) MIX(c->io.fh.data[i]);
    }
    for (uint8_t i = 0; i < c->tag_len; i++) MIX(c->tag[i]);
#undef MIX
    return h;
}

bool slot_tab_room(struct sess_model *m, struct slot_tab *tb, uint32_t n)
{
    if (n <= tb->cap) return true;
    if (n > NS_SLOTS_MAX) return false;
    uint32_t ncap = tb->cap ? tb->cap : 16;
    while (ncap < n) ncap *= 2;
    if (ncap > NS_SLOTS_MAX) ncap = NS_SLOTS_MAX;
    size_t per = sizeof *tb->v + sizeof *tb->x;
    if (!memcap_take(m->mc, MEM_SESSIONS, (ncap - tb->cap) * per)) return false;
    struct ns_slot_view *nv = realloc(tb->v, ncap * sizeof *nv);
    if (nv) tb->v = nv; /* moved: the caller points its view at tb->v again */
    struct sess_slotx *nx = nv ? realloc(tb->x, ncap * sizeof *nx) : NULL;
    if (nx) tb->x = nx;
    if (!nv || !nx) { /* keep the old size; a successful first realloc is harmless */
        memcap_give(m->mc, MEM_SESSIONS, (ncap - tb->cap) * per);
        return false;
    }
    memset(nv + tb->cap, 0, (ncap - tb->cap) * sizeof *nv);
    memset(nx + tb->cap, 0, (ncap - tb->cap) * sizeof *nx);
    tb->cap = ncap;
    return true;
}

void slot_tab_release(struct sess_model *m, struct slot_tab *tb)
{
    memcap_give(m->mc, MEM_SESSIONS, tb->cap * (sizeof *tb->v + sizeof *tb->x));
    free(tb->v);
    free(tb->x);
    memset(tb, 0, sizeof *tb);
}

/* Room for fore-channel slot ids 0..n-1. */
static bool ensure_slots(struct sess_model *m, struct sess *s, uint32_t n)
{
    bool ok = slot_tab_room(m, &s->fore, n);
    s->v.slots = s->fore.v;
    return ok;
}

/* Saturation: every granted slot busy. Called after outstanding or the grant changed. */
static void sat_set(struct sess *s, int64_t ts)
{
    bool now = s->v.granted_slots && s->v.outstanding >= s->v.granted_slots;
    if (now && !s->saturated) s->sat_since = ts;
    if (!now && s->saturated && ts > s->sat_since) s->v.saturated_ns += ts - s->sat_since;
    s->saturated = now;
}

void slots_update_fractions(struct sess *s)
{
    int64_t span = s->v.last_ts_ns - s->v.first_ts_ns;
    int64_t sat = s->v.saturated_ns;
    if (s->saturated && s->v.last_ts_ns > s->sat_since) sat += s->v.last_ts_ns - s->sat_since;
    s->v.saturated_fraction = span > 0 ? (double)sat / (double)span : 0.0;
    if (s->v.saturated_fraction > 1.0) s->v.saturated_fraction = 1.0;
    s->v.saturated_calls_fraction = s->v.calls ? (double)s->v.saturated_calls / (double)s->v.calls : 0.0;
}

/* What a server keeping the slot as the capture shows would say about seqid. */
static enum seq_cause diagnose(const struct sess *s, const struct ns_slot_view *sv, uint32_t seqid, uint32_t conn)
{
    if (sv->in_flight) return sv->in_flight_conn != conn ? SEQC_OTHER_CONN : SEQC_IN_FLIGHT;
    uint32_t base;
    if (sv->has_ok) base = sv->last_ok_seqid;
    else if (!s->v.mid_capture) base = 0; /* a new slot starts at sequence ID 1 */
    else return SEQC_UNKNOWN;
    uint32_t d = seqid - base;
    if (d <= 1) return SEQC_NONE;
    return (int32_t)d > 1 ? SEQC_SKIPPED : SEQC_BACKWARDS;
}

/* The highest slot ID the server granted (false: not known yet). */
static bool granted_highest(const struct sess *s, uint32_t *hg)
{
    if (s->v.has_seq_reply) { *hg = s->v.sr_highest_slotid; return true; }
    if (s->v.has_granted && s->v.fore_granted.maxrequests) { *hg = s->v.fore_granted.maxrequests - 1; return true; }
    return false;
}

void slots_facts_head(const struct nfs4_seq_args *q, uint8_t v, struct sess_frame_info *fi)
{
    memset(fi, 0, sizeof *fi);
    fi->has_slot = true;
    memcpy(fi->sessionid, q->sessionid, NS_SESSIONID_LEN);
    fi->slot = q->slotid;
    fi->seqid = q->sequenceid;
    fi->verdict = v;
}

/* Judged against the slot as it stands (before the call is recorded); the
 * same comparisons as the findings, for either channel. */
struct slot_call slot_judge(bool mid, const struct ns_slot_view *sv, const struct sess_slotx *sx, uint32_t seqid,
                            uint32_t sig)
{
    struct slot_call r = {0, seqid, 0, false, NS_SLOT_FIRST};
    if (sv->used) {
        r.has_expected = true;
        r.expected = sv->last_call_seqid + 1;
    } else if (!mid) { /* CREATE_SESSION seen: a new slot starts at 1 */
        r.has_expected = true;
        r.expected = 1;
    } else {
        return r;
    }
    if (sv->used && seqid == sv->last_call_seqid) r.verdict = sig == sx->sig ? NS_SLOT_REPLAY : NS_SLOT_FALSE_RETRY;
    else if (sv->in_flight) r.verdict = NS_SLOT_IN_FLIGHT;
    else if (seqid == r.expected) r.verdict = NS_SLOT_NEW;
    else r.verdict = (int32_t)(seqid - r.expected) > 0 ? NS_SLOT_GAP : NS_SLOT_BACKWARDS;
    return r;
}

static struct slot_call judge(const struct sess *s, const struct ns_slot_view *sv, const struct sess_slotx *sx,
                              uint32_t seqid, uint32_t sig)
{
    return slot_judge(s->v.mid_capture, sv, sx, seqid, sig);
}

bool slot_take(struct ns_slot_view *sv, struct sess_slotx *sx, const struct ns_txn *t, uint32_t sig,
               const struct slot_call *j, uint8_t cause)
{
    bool idle = !sv->in_flight;
    sv->in_flight = true;
    sv->in_flight_frame = t->call_frame;
    sv->in_flight_conn = t->conn_id;
    sv->last_call_seqid = t->u.v4.call.seq.sequenceid;
    sv->used = true;
    sv->calls++;
    sx->sig = sig;
    sx->last_call_conn = t->conn_id;
    sx->cause = cause;
    sx->prev = sx->last;
    sx->last = *j;
    return idle;
}

const struct slot_call *slot_call_of(const struct ns_slot_view *sv, const struct sess_slotx *sx, const struct ns_txn *t)
{
    (void)sv;
    if (sx->last.frame == t->call_frame) return &sx->last;
    if (sx->prev.frame == t->call_frame) return &sx->prev;
    return NULL;
}

bool slot_release_call(struct ns_slot_view *sv, const struct ns_txn *t)
{
    if (!sv->in_flight || sv->in_flight_frame != t->call_frame) return false;
    sv->in_flight = false;
    return true;
}

static void fill(const struct sess *s, const struct nfs4_seq_args *q, const struct slot_call *c,
                 struct sess_frame_info *fi)
{
    slots_facts_head(q, c->verdict, fi);
    fi->has_expected = c->has_expected;
    fi->expected_seqid = c->expected;
    fi->outstanding = s->v.outstanding;
    fi->granted = s->v.granted_slots;
}

/* A finding of the session about this call; its key is built only then
 * (most calls note nothing). */
static void call_note(struct sess_model *m, enum sess_fkind kind, const struct sess *s, const struct ns_txn *t)
{
    struct sess_key k = sess_key_of(s);
    sf_note(m, kind, &k, t->call_ts_ns, t->call_frame, t->conn_id);
}

void slots_on_call(struct sess_model *m, struct sess *s, const struct ns_txn *t, struct sess_frame_info *fi)
{
    const struct nfs4_call *c4 = &t->u.v4.call;
    uint32_t slot = c4->seq.slotid, seqid = c4->seq.sequenceid;
    if (!s->v.any_slot_used || slot > s->v.highest_slot_used) s->v.highest_slot_used = slot;
    s->v.any_slot_used = true;
    uint32_t hg = 0;
    bool above = granted_highest(s, &hg) && slot > hg;
    if (above) call_note(m, SF_ABOVE, s, t);
    if (slot >= NS_SLOTS_MAX || !ensure_slots(m, s, slot + 1)) {
        s->v.slot_ids_untracked++;
        struct slot_call u = {t->call_frame, seqid, 0, false, above ? NS_SLOT_ABOVE_GRANTED : NS_SLOT_UNTRACKED};
        if (fi) fill(s, &c4->seq, &u, fi);
        return;
    }
    if (slot + 1 > s->v.nslots) s->v.nslots = slot + 1;
    struct ns_slot_view *sv = &s->fore.v[slot];
    struct sess_slotx *sx = &s->fore.x[slot];
    uint32_t sig = slots_sig(t);
    enum seq_cause cause = diagnose(s, sv, seqid, t->conn_id);
    struct slot_call j = judge(s, sv, sx, seqid, sig);
    j.frame = t->call_frame;
    if (above) j.verdict = NS_SLOT_ABOVE_GRANTED; /* the server checks the slot ID first (BADSLOT) */
    if (sv->used) {
        if (seqid == sv->last_call_seqid)
            call_note(m, sig == sx->sig ? SF_REPLAY : SF_FALSE_RETRY, s, t);
        else if (seqid != sv->last_call_seqid + 1)
            call_note(m, SF_GAP, s, t);
    } else if (!s->v.mid_capture && seqid != 1) {
        call_note(m, SF_GAP, s, t);
    }
    if (slot_take(sv, sx, t, sig, &j, (uint8_t)cause)) s->v.outstanding++;
    uint32_t n = s->v.outstanding;
    s->v.outstanding_hist[n < NS_OUTSTANDING_HIST - 1 ? n : NS_OUTSTANDING_HIST - 1]++;
    if (n > s->v.max_outstanding) s->v.max_outstanding = n;
    if (s->v.granted_slots && n >= s->v.granted_slots && !s->v.saturated_calls++)
        sf_slot_limited(m, s, 0, 0); /* ran into the limit: its severity now, not at the next settle */
    sat_set(s, t->call_ts_ns);
    if (fi) fill(s, &c4->seq, &j, fi);
}

void slots_on_retransmit(struct sess_model *m, struct sess *s, const struct ns_txn *t, uint64_t frame, int64_t ts,
                         struct sess_frame_info *fi)
{
    struct sess_key k = sess_key_of(s);
    sf_note(m, SF_REPLAY, &k, ts, frame, t->conn_id);
    if (!fi) return;
    /* judged like a new call on the slot as it stands; the slot table keeps the first transmission */
    const struct nfs4_call *c4 = &t->u.v4.call;
    uint32_t slot = c4->seq.slotid, hg = 0;
    bool above = granted_highest(s, &hg) && slot > hg;
    struct slot_call j = {frame, c4->seq.sequenceid, 0, false, above ? NS_SLOT_ABOVE_GRANTED : NS_SLOT_UNTRACKED};
    if (slot < s->v.nslots) {
        j = judge(s, &s->fore.v[slot], &s->fore.x[slot], c4->seq.sequenceid, slots_sig(t));
        if (above) j.verdict = NS_SLOT_ABOVE_GRANTED;
    }
    fill(s, &c4->seq, &j, fi);
}

void slots_reply_facts(const struct sess *s, const struct ns_txn *t, struct sess_frame_info *fi)
{
    const struct nfs4_seq_args *q = &t->u.v4.call.seq;
    if (!s) { slots_facts_head(q, NS_SLOT_UNTRACKED, fi); return; }
    uint32_t slot = q->slotid, hg = 0;
    /* an untracked slot ID: its call's verdict is not kept; the grant now stands in for the one then */
    struct slot_call c = {t->call_frame, q->sequenceid, 0, false,
                          granted_highest(s, &hg) && slot > hg ? NS_SLOT_ABOVE_GRANTED : NS_SLOT_UNTRACKED};
    if (slot < s->v.nslots) {
        const struct slot_call *k = slot_call_of(&s->fore.v[slot], &s->fore.x[slot], t);
        if (k) c = *k;
        else c.verdict = NS_SLOT_UNTRACKED; /* displaced by later calls on the slot */
    }
    fill(s, q, &c, fi);
}

static void clear_in_flight(struct sess *s, const struct ns_txn *t, int64_t ts)
{
    uint32_t slot = t->u.v4.call.seq.slotid;
    if (slot >= s->v.nslots) return;
    if (slot_release_call(&s->fore.v[slot], t)) s->v.outstanding--;
    sat_set(s, ts);
}

void slots_on_reply(struct sess_model *m, struct sess *s, const struct ns_txn *t)
{
    const struct nfs4_reply *r4 = &t->u.v4.reply;
    uint32_t slot = t->u.v4.call.seq.slotid;
    if (r4->has_seq) {
        const struct nfs4_seq_res *q = &r4->seq;
        if (slot < s->v.nslots) {
            s->fore.v[slot].has_ok = true;
            s->fore.v[slot].last_ok_seqid = t->u.v4.call.seq.sequenceid;
        }
        if (s->v.has_seq_reply && q->target_highest_slotid < s->v.target_highest_slotid &&
            s->v.outstanding > (uint64_t)q->target_highest_slotid + 1) {
            struct sess_key k = sess_key_of(s);
            sf_note(m, SF_SHRUNK, &k, t->reply_ts_ns, t->reply_frame, t->conn_id);
        }
        if (!s->v.has_seq_reply || q->highest_slotid != s->v.sr_highest_slotid ||
            q->target_highest_slotid != s->v.target_highest_slotid) {
            if (s->v.nhistory < NS_SLOT_HISTORY) {
                struct ns_slot_change *h = &s->v.history[s->v.nhistory++];
                h->ts_ns = t->reply_ts_ns;
                h->frame = t->reply_frame;
                h->highest_slotid = q->highest_slotid;
                h->target_highest_slotid = q->target_highest_slotid;
            } else {
                s->v.history_dropped++;
            }
        }
        bool first = !s->v.has_seq_reply;
        s->v.has_seq_reply = true;
        s->v.sr_highest_slotid = q->highest_slotid;
        s->v.target_highest_slotid = q->target_highest_slotid;
        s->v.granted_slots = q->highest_slotid + 1;
        if (first) sf_seq_reply_seen(m, s);
    }
    clear_in_flight(s, t, t->reply_ts_ns);
}

void slots_on_given_up(struct sess_model *m, struct sess *s, const struct ns_txn *t, int64_t ts)
{
    (void)m;
    clear_in_flight(s, t, ts);
}

enum seq_cause slots_cause(struct sess *s, const struct ns_txn *t)
{
    uint32_t slot = t->u.v4.call.seq.slotid;
    if (slot >= s->v.nslots || s->fore.v[slot].in_flight_frame != t->call_frame) return SEQC_UNKNOWN;
    return (enum seq_cause)s->fore.x[slot].cause;
}
