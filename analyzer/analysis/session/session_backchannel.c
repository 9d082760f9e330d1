/* A session's back channel (RFC 8881 s.2.10.3.1, s.2.10.6, s.20.9): the
 * server's callbacks (CB_COMPOUND led by CB_SEQUENCE) to the client. Slots
 * asked and granted (CREATE_SESSION's back-channel attributes, then the
 * client's csr_highest_slotid), each CB_SEQUENCE judged with the fore
 * channel's slot rules (session_slots.c), callbacks outstanding, answered,
 * given up, errors by status, the connections they used; the findings
 * CB_SEQ_MISORDERED, CB_SLOT_ABOVE_GRANTED and CB_UNANSWERED
 * (doc/findings.md). Delegation state recalled by these callbacks can
 * attach here later (struct ns_back_channel grows at its end). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "nfs4_xdr_common.h"
#include "session_int.h"

_Static_assert(NS_SLOT_VERDICTS <= NS_CB_VERDICTS, "ns_back_channel.verdicts too short");

/* What a session without callbacks or flags shows (the views are never NULL). */
static const struct ns_back_channel NO_BC;
static const struct ns_status_flags NO_FLAGS;

void bc_init(struct sess *s)
{
    s->v.back_channel = &NO_BC;
    s->v.status_flags = &NO_FLAGS;
}

struct sess_cb *bc_get(struct sess_model *m, struct sess *s)
{
    if (s->cb) return s->cb;
    if (!memcap_take(m->mc, MEM_SESSIONS, sizeof *s->cb)) { m->st.rules_dropped++; return NULL; }
    s->cb = calloc(1, sizeof *s->cb);
    if (!s->cb) {
        memcap_give(m->mc, MEM_SESSIONS, sizeof *s->cb);
        m->st.rules_dropped++;
        return NULL;
    }
    s->v.back_channel = &s->cb->bc;
    s->v.status_flags = &s->cb->flags;
    bc_on_create_session(s);
    return s->cb;
}

void bc_release(struct sess_model *m, struct sess *s)
{
    if (!s->cb) return;
    slot_tab_release(m, &s->cb->back);
    free(s->cb);
    s->cb = NULL;
    memcap_give(m->mc, MEM_SESSIONS, sizeof *s->cb);
    bc_init(s);
}

void bc_view(struct sess *s)
{
    if (!s->cb) return;
    s->cb->bc.slots = s->cb->back.v;
    s->cb->flags.seq_replies = s->seq_ok_replies;
    /* CREATE_SESSION may come after the first callback or flag */
    s->cb->bc.slots_asked = s->v.back_requested.maxrequests;
    s->cb->bc.slots_granted = s->v.back_granted.maxrequests;
}

void bc_on_create_session(struct sess *s)
{
    if (!s->cb) return; /* read from the session when allocated */
    struct ns_back_channel *b = &s->cb->bc;
    b->slots_asked = s->v.back_requested.maxrequests;
    b->slots_granted = s->v.back_granted.maxrequests;
    if (!b->has_cb_reply) b->granted_now = b->slots_granted;
}

void bc_on_backchannel_ctl(struct sess_model *m, struct sess *s, const struct ns_txn *t)
{
    struct sess_cb *cb = bc_get(m, s);
    if (!cb) return;
    cb->bc.backchannel_ctl++;
    cb->bc.backchannel_ctl_frame = t->reply_frame;
}

/* The highest slot ID the client (the back channel's replier) grants
 * (false: not known yet). */
static bool cb_granted_highest(const struct sess *s, uint32_t *hg)
{
    if (s->cb && s->cb->bc.has_cb_reply) { *hg = s->cb->bc.csr_highest_slotid; return true; }
    if (s->v.has_granted && s->v.back_granted.maxrequests) { *hg = s->v.back_granted.maxrequests - 1; return true; }
    return false;
}

static void times(struct ns_back_channel *b, int64_t ts)
{
    if (!b->first_ts_ns || ts < b->first_ts_ns) b->first_ts_ns = ts;
    if (ts > b->last_ts_ns) b->last_ts_ns = ts;
}

static void facts(const struct sess *s, const struct nfs4_seq_args *q, const struct slot_call *c,
                  struct sess_frame_info *fi)
{
    slots_facts_head(q, c->verdict, fi);
    fi->has_expected = c->has_expected;
    fi->expected_seqid = c->expected;
    fi->outstanding = s->cb ? s->cb->bc.outstanding : 0;
    fi->granted = s->cb && s->cb->bc.has_cb_reply ? s->cb->bc.granted_now : s->v.back_granted.maxrequests;
}

/* A back-channel finding of s about one frame: folded, its severity set. */
static struct keyed *bc_note(struct sess_model *m, enum sess_fkind kind, struct sess *s, int64_t ts, uint64_t frame,
                             uint32_t conn)
{
    struct sess_key k = sess_key_of(s);
    return sf_fold(m, kind, &k, ts, frame, conn);
}

static bool misordered(uint8_t v) { return v == NS_SLOT_GAP || v == NS_SLOT_BACKWARDS; }

/* The connection's record in s; callbacks on it counted. */
static void cb_conn(struct sess *s, struct ns_back_channel *b, const struct ns_conn *c, uint32_t conn_id)
{
    struct ns_session_conn *sc = sess_use_conn(s, c, conn_id);
    if (sc) sc->cb_calls++;
    /* a connection bound for both channels, or one CREATE_SESSION gave the back channel */
    if (!sc || !sc->back) b->calls_unbound_conn++;
}

void bc_on_call(struct sess_model *m, struct sess *s, const struct ns_txn *t, const struct ns_conn *c,
                struct sess_frame_info *fi)
{
    const struct nfs4_seq_args *q = &t->u.v4.call.seq;
    s->v.cb_calls++;
    struct sess_cb *cb = bc_get(m, s);
    if (!cb) {
        if (fi) slots_facts_head(q, NS_SLOT_UNTRACKED, fi);
        return;
    }
    struct ns_back_channel *b = &cb->bc;
    b->calls++;
    if (!b->first_call_frame) b->first_call_frame = t->call_frame;
    b->last_call_frame = t->call_frame;
    times(b, t->call_ts_ns);
    cb_conn(s, b, c, t->conn_id);
    uint32_t slot = q->slotid, hg = 0;
    if (!b->any_slot_used || slot > b->highest_slot_used) b->highest_slot_used = slot;
    b->any_slot_used = true;
    bool above = cb_granted_highest(s, &hg) && slot > hg;
    struct slot_call j = {t->call_frame, q->sequenceid, 0, false, above ? NS_SLOT_ABOVE_GRANTED : NS_SLOT_UNTRACKED};
    bool tracked = slot < NS_SLOTS_MAX && slot_tab_room(m, &cb->back, slot + 1);
    b->slots = cb->back.v;
    if (tracked) {
        if (slot + 1 > b->nslots) b->nslots = slot + 1;
        struct ns_slot_view *sv = &cb->back.v[slot];
        struct sess_slotx *sx = &cb->back.x[slot];
        uint32_t sig = slots_sig(t);
        j = slot_judge(s->v.mid_capture, sv, sx, q->sequenceid, sig);
        j.frame = t->call_frame;
        uint8_t v0 = j.verdict;
        if (above) j.verdict = NS_SLOT_ABOVE_GRANTED; /* the client checks the slot ID first (BADSLOT) */
        if (misordered(v0)) {
            struct keyed *e = bc_note(m, SF_CB_MISORDERED, s, t->call_ts_ns, t->call_frame, t->conn_id);
            if (e) e->cause[v0 == NS_SLOT_GAP ? 0 : 1]++;
            sf_commit(m, e, t->call_frame);
        }
        if (slot_take(sv, sx, t, sig, &j, 0)) b->outstanding++;
        if (b->outstanding > b->max_outstanding) b->max_outstanding = b->outstanding;
    } else {
        b->slot_ids_untracked++;
    }
    if (above) {
        struct keyed *e = bc_note(m, SF_CB_ABOVE, s, t->call_ts_ns, t->call_frame, t->conn_id);
        if (e) e->cause[0] = hg + 1 > e->cause[0] ? hg + 1 : e->cause[0]; /* the grant exceeded */
        if (e && slot >= e->cause[1]) e->cause[1] = slot + 1;
        sf_commit(m, e, t->call_frame);
    }
    b->verdicts[j.verdict < NS_CB_VERDICTS ? j.verdict : NS_SLOT_UNTRACKED]++;
    if (fi) facts(s, q, &j, fi);
}

void bc_on_retransmit(struct sess_model *m, struct sess *s, const struct ns_txn *t, struct sess_frame_info *fi)
{
    (void)m;
    if (s->cb) s->cb->bc.resends++;
    if (!fi) return;
    /* judged like a new call on the slot as it stands (usually replay) */
    const struct nfs4_seq_args *q = &t->u.v4.call.seq;
    uint32_t hg = 0;
    bool above = cb_granted_highest(s, &hg) && q->slotid > hg;
    struct slot_call j = {t->call_frame, q->sequenceid, 0, false, above ? NS_SLOT_ABOVE_GRANTED : NS_SLOT_UNTRACKED};
    if (s->cb && q->slotid < s->cb->bc.nslots) {
        j = slot_judge(s->v.mid_capture, &s->cb->back.v[q->slotid], &s->cb->back.x[q->slotid], q->sequenceid,
                       slots_sig(t));
        if (above) j.verdict = NS_SLOT_ABOVE_GRANTED;
    }
    facts(s, q, &j, fi);
}

void bc_reply_facts(const struct sess *s, const struct ns_txn *t, struct sess_frame_info *fi)
{
    const struct nfs4_seq_args *q = &t->u.v4.call.seq;
    if (!s) { slots_facts_head(q, NS_SLOT_UNTRACKED, fi); return; }
    struct slot_call c = {t->call_frame, q->sequenceid, 0, false, NS_SLOT_UNTRACKED};
    if (s->cb && q->slotid < s->cb->bc.nslots) {
        const struct slot_call *k = slot_call_of(&s->cb->back.v[q->slotid], &s->cb->back.x[q->slotid], t);
        if (k) c = *k;
    }
    facts(s, q, &c, fi);
}

static void cb_status(struct ns_back_channel *b, uint32_t status)
{
    for (uint32_t i = 0; i < b->nstatus; i++)
        if (b->status[i].status == status) { b->status[i].count++; return; }
    if (b->nstatus == NS_CB_STATUS) return;
    b->status[b->nstatus].status = status;
    b->status[b->nstatus++].count = 1;
}

static void release(struct sess_cb *cb, const struct ns_txn *t)
{
    uint32_t slot = t->u.v4.call.seq.slotid;
    if (slot < cb->bc.nslots && slot_release_call(&cb->back.v[slot], t)) cb->bc.outstanding--;
}

void bc_on_reply(struct sess_model *m, struct sess *s, const struct ns_txn *t)
{
    struct sess_cb *cb = bc_get(m, s);
    if (!cb) return;
    struct ns_back_channel *b = &cb->bc;
    const struct nfs4_reply *r4 = &t->u.v4.reply;
    const struct nfs4_seq_args *q = &t->u.v4.call.seq;
    b->replies++;
    times(b, t->reply_ts_ns);
    if (t->has_status && t->status != SST_OK) {
        b->errors++;
        cb_status(b, t->status);
    }
    if (r4->has_seq) {
        if (q->slotid < b->nslots) {
            cb->back.v[q->slotid].has_ok = true;
            cb->back.v[q->slotid].last_ok_seqid = q->sequenceid;
        }
        b->has_cb_reply = true;
        b->csr_highest_slotid = r4->seq.highest_slotid;
        b->csr_target_highest_slotid = r4->seq.target_highest_slotid;
        b->granted_now = r4->seq.highest_slotid + 1;
    }
    if (t->has_status && t->status == SST_SEQ_MISORDERED) {
        /* refused by the client: counted once per callback (not again if its call was judged misordered) */
        const struct slot_call *k =
            q->slotid < b->nslots ? slot_call_of(&cb->back.v[q->slotid], &cb->back.x[q->slotid], t) : NULL;
        bool counted = k && misordered(k->verdict);
        struct sess_key key = sess_key_of(s);
        struct keyed *e = sf_keyed(m, SF_CB_MISORDERED, &key);
        struct ns_finding *f = e ? sf_finding(m, SF_CB_MISORDERED, &key) : NULL;
        if (counted && f) { /* its call was the occurrence: the reply adds its frame */
            finding_add_frame(f, t->reply_frame);
            finding_add_conn(f, t->conn_id);
            if (t->reply_ts_ns > f->last_ts_ns) f->last_ts_ns = t->reply_ts_ns;
        } else {
            e = sf_fold(m, SF_CB_MISORDERED, &key, t->reply_ts_ns, t->reply_frame, t->conn_id);
            f = e ? sf_finding(m, SF_CB_MISORDERED, &key) : NULL;
        }
        if (e) e->cause[2]++;
        if (f) f->severity = NS_SEV_ERROR; /* callbacks refused, not only judged so */
        sf_commit(m, e, t->reply_frame);
    }
    release(cb, t);
}

void bc_on_given_up(struct sess_model *m, struct sess *s, const struct ns_txn *t)
{
    struct sess_cb *cb = bc_get(m, s);
    if (cb) {
        cb->bc.unanswered++;
        release(cb, t);
    }
    struct keyed *e = bc_note(m, SF_CB_UNANSWERED, s, t->last_send_ts_ns, t->call_frame, t->conn_id);
    if (e && cb && cb->bc.replies) e->cause[0] = 1; /* the back channel had worked */
    sf_commit(m, e, t->call_frame);
}

/* ---- messages ---- */

#define PL(count) ((count) == 1 ? "" : "s")

static size_t put(char *b, size_t o, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static size_t put(char *b, size_t o, const char *fmt, ...)
{
    if (o >= NS_FINDING_MSG_MAX) return o;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b + o, NS_FINDING_MSG_MAX - o, fmt, ap);
    va_end(ap);
    return w > 0 ? o + (size_t)w : o;
}

void bc_render(uint8_t kind, const struct ns_finding *f, const uint32_t *cause, char *b)
{
    size_t o = 0;
    switch ((enum sess_fkind)kind) {
    case SF_CB_MISORDERED:
        o = put(b, o, "%" PRIu64 " callback%s misordered on a back-channel slot:", f->count, PL(f->count));
        if (cause[0]) o = put(b, o, " %u CB_SEQUENCE sequence ID skipped ahead of the slot's last one + 1;", cause[0]);
        if (cause[1]) o = put(b, o, " %u went backwards;", cause[1]);
        if (cause[2]) o = put(b, o, " %u answered NFS4ERR_SEQ_MISORDERED by the client;", cause[2]);
        o = put(b, o, " client and server disagree about the back channel's slot: callbacks (recalls) fail and "
                      "delegations may be revoked.");
        break;
    case SF_CB_ABOVE:
        o = put(b, o,
                "%" PRIu64 " CB_SEQUENCE call%s used a slot above the %u back-channel slot%s granted (CREATE_SESSION, "
                "then csr_highest_slotid): slots up to %u used; expect NFS4ERR_BADSLOT from the client.",
                f->count, PL(f->count), cause[0], PL(cause[0]), cause[1] ? cause[1] - 1 : 0);
        break;
    case SF_CB_UNANSWERED:
        o = put(b, o,
                "%" PRIu64 " callback%s never answered by the client (no reply within the call timeout or by the end "
                "of the capture)%s: the server sees its back channel as down (expect CB_PATH_DOWN) and revokes what it "
                "could not recall.",
                f->count, f->count == 1 ? " was" : "s were",
                cause[0] ? ", after earlier callbacks were answered" : ", and none on the session was");
        break;
    default:
        flags_render(kind, f, cause, b);
        return;
    }
}
