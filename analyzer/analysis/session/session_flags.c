/* SEQUENCE's sr_status_flags per session (RFC 8881 s.18.46.3): for each
 * flag the replies that carried it, first and last (time, frame); and the
 * findings they raise: CB_PATH_DOWN with the causes the capture shows,
 * STATE_REVOKED with what the client did next (TEST_STATEID, FREE_STATEID),
 * CB_GSS_CONTEXTS_EXPIRING/EXPIRED, BACKCHANNEL_FAULT,
 * RESTART_RECLAIM_NEEDED, LEASE_MOVED, DEVID_CHANGED (doc/findings.md).
 * Counts are kept per reply; messages are written when read (bc_render). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "session_int.h"

enum {
    F_CB_PATH_DOWN = 0, F_GSS_EXPIRING = 1, F_GSS_EXPIRED = 2, F_EXPIRED_ALL = 3, F_EXPIRED_SOME = 4, F_ADMIN = 5,
    F_RECALLABLE = 6, F_LEASE_MOVED = 7, F_RESTART_RECLAIM = 8, F_CB_PATH_DOWN_SESSION = 9, F_BC_FAULT = 10,
    F_DEVID_CHANGED = 11, F_DEVID_DELETED = 12, F_DEFINED = 13
};
#define BIT(n) (1u << (n))
#define PATH_DOWN_BITS (BIT(F_CB_PATH_DOWN) | BIT(F_CB_PATH_DOWN_SESSION))
#define REVOKED_BITS (BIT(F_EXPIRED_ALL) | BIT(F_EXPIRED_SOME) | BIT(F_ADMIN) | BIT(F_RECALLABLE))

static const char *const FLAG_NAME[F_DEFINED] = {
    "CB_PATH_DOWN", "CB_GSS_CONTEXTS_EXPIRING", "CB_GSS_CONTEXTS_EXPIRED", "EXPIRED_ALL_STATE_REVOKED",
    "EXPIRED_SOME_STATE_REVOKED", "ADMIN_STATE_REVOKED", "RECALLABLE_STATE_REVOKED", "LEASE_MOVED",
    "RESTART_RECLAIM_NEEDED", "CB_PATH_DOWN_SESSION", "BACKCHANNEL_FAULT", "DEVID_CHANGED", "DEVID_DELETED",
};

const char *ns_status_flag_name(uint32_t bit) { return bit < F_DEFINED ? FLAG_NAME[bit] : NULL; }

/* cause[] of each finding (what its message says):
 *  CB_PATH_DOWN: 0 replies with CB_PATH_DOWN, 1 with CB_PATH_DOWN_SESSION, and when it first appeared:
 *    2 no connection bound for the back channel, 3 callbacks in flight, 4 callbacks given up, 7 callbacks
 *    answered before; later: 5 BIND_CONN_TO_SESSION answered, 6 times the flag cleared.
 *  STATE_REVOKED: 0 RECALLABLE, 1 EXPIRED_ALL, 2 EXPIRED_SOME, 3 ADMIN (replies); 4 TEST_STATEID and
 *    5 FREE_STATEID calls after the first; 6 replies still flagged after the first FREE_STATEID; 7 cleared.
 *  DEVID_CHANGED: 0 DEVID_CHANGED, 1 DEVID_DELETED replies. */
enum { PD_DOWN, PD_SESSION, PD_UNBOUND, PD_IN_FLIGHT, PD_GIVEN_UP, PD_BIND, PD_CLEARED, PD_ANSWERED };
enum { RV_RECALLABLE, RV_EXPIRED_ALL, RV_EXPIRED_SOME, RV_ADMIN, RV_TEST, RV_FREE, RV_AFTER_FREE, RV_CLEARED };

static struct keyed *note(struct sess_model *m, enum sess_fkind kind, struct sess *s, const struct ns_txn *t)
{
    struct sess_key k = sess_key_of(s);
    return sf_fold(m, kind, &k, t->reply_ts_ns, t->reply_frame, t->conn_id);
}

/* A state change of s's finding not tied to an occurrence (frame 0) or tied to frame. */
static void restate(struct sess_model *m, struct sess *s, enum sess_fkind kind, uint64_t frame, int sev)
{
    struct sess_key k = sess_key_of(s);
    struct keyed *e = sf_keyed(m, kind, &k);
    struct ns_finding *f = e ? sf_finding(m, kind, &k) : NULL;
    if (f && sev >= 0) f->severity = (uint8_t)sev;
    sf_commit(m, e, frame);
}

static bool back_bound(const struct sess *s)
{
    for (uint32_t i = 0; i < s->v.nconns; i++)
        if (s->v.conns[i].back) return true;
    return false;
}

static void path_down(struct sess_model *m, struct sess *s, const struct ns_txn *t, uint32_t v)
{
    struct keyed *e = note(m, SF_CB_PATH_DOWN, s, t);
    if (e) {
        if (v & BIT(F_CB_PATH_DOWN)) e->cause[PD_DOWN]++;
        if (v & BIT(F_CB_PATH_DOWN_SESSION)) e->cause[PD_SESSION]++;
        if (!s->cb->bcx.pd_seen) { /* the causes as the capture shows them when it first appears */
            e->cause[PD_UNBOUND] = !s->v.mid_capture && !back_bound(s);
            e->cause[PD_IN_FLIGHT] = s->cb->bc.outstanding;
            e->cause[PD_GIVEN_UP] = (uint32_t)s->cb->bc.unanswered;
            e->cause[PD_ANSWERED] = s->cb->bc.replies > 0;
        }
    }
    s->cb->bcx.pd_seen = s->cb->bcx.pd_last = true;
    sf_commit(m, e, t->reply_frame);
}

static uint8_t revoked_severity(const uint32_t *cause)
{
    return cause[RV_TEST] || cause[RV_FREE] ? NS_SEV_WARNING : NS_SEV_ERROR;
}

static void revoked(struct sess_model *m, struct sess *s, const struct ns_txn *t, uint32_t v)
{
    struct keyed *e = note(m, SF_STATE_REVOKED, s, t);
    if (e) {
        if (v & BIT(F_RECALLABLE)) e->cause[RV_RECALLABLE]++;
        if (v & BIT(F_EXPIRED_ALL)) e->cause[RV_EXPIRED_ALL]++;
        if (v & BIT(F_EXPIRED_SOME)) e->cause[RV_EXPIRED_SOME]++;
        if (v & BIT(F_ADMIN)) e->cause[RV_ADMIN]++;
        if (s->cb->bcx.freed) e->cause[RV_AFTER_FREE]++;
        struct sess_key k = sess_key_of(s);
        struct ns_finding *f = sf_finding(m, SF_STATE_REVOKED, &k);
        if (f) f->severity = revoked_severity(e->cause);
    }
    s->cb->bcx.rv_seen = s->cb->bcx.rv_last = true;
    sf_commit(m, e, t->reply_frame);
}

static void simple(struct sess_model *m, struct sess *s, const struct ns_txn *t, enum sess_fkind kind)
{
    sf_commit(m, note(m, kind, s, t), t->reply_frame);
}

/* A flag seen on the last reply and not on this one: cleared. */
static void cleared(struct sess_model *m, struct sess *s, enum sess_fkind kind, unsigned idx)
{
    struct sess_key k = sess_key_of(s);
    struct keyed *e = sf_keyed(m, kind, &k);
    if (!e) return;
    e->cause[idx]++;
    sf_commit(m, e, 0);
}

void flags_on_seq_reply(struct sess_model *m, struct sess *s, const struct ns_txn *t)
{
    uint32_t v = t->u.v4.reply.seq.status_flags;
    struct sess_cb *cb = v ? bc_get(m, s) : s->cb;
    if (!cb) return;
    struct ns_status_flags *fl = &cb->flags;
    if (cb->bcx.pd_last && !(v & PATH_DOWN_BITS)) {
        cb->bcx.pd_last = false;
        cleared(m, s, SF_CB_PATH_DOWN, PD_CLEARED);
    }
    if (cb->bcx.rv_last && !(v & REVOKED_BITS)) {
        cb->bcx.rv_last = false;
        cleared(m, s, SF_STATE_REVOKED, RV_CLEARED);
    }
    if (!v) return;
    fl->flagged_replies++;
    fl->other_bits |= v & ~((1u << NS_STATUS_FLAGS) - 1);
    for (uint32_t r = v & ((1u << NS_STATUS_FLAGS) - 1); r; r &= r - 1) {
        struct ns_status_flag *e = &fl->flag[__builtin_ctz(r)];
        if (!e->replies++) {
            e->first_ts_ns = t->reply_ts_ns;
            e->first_frame = t->reply_frame;
        }
        e->last_ts_ns = t->reply_ts_ns;
        e->last_frame = t->reply_frame;
    }
    if (v & PATH_DOWN_BITS) path_down(m, s, t, v);
    if (v & REVOKED_BITS) revoked(m, s, t, v);
    if (v & BIT(F_GSS_EXPIRING)) simple(m, s, t, SF_GSS_EXPIRING);
    if (v & BIT(F_GSS_EXPIRED)) simple(m, s, t, SF_GSS_EXPIRED);
    if (v & BIT(F_BC_FAULT)) simple(m, s, t, SF_BC_FAULT);
    if (v & BIT(F_RESTART_RECLAIM)) simple(m, s, t, SF_RECLAIM_NEEDED);
    if (v & BIT(F_LEASE_MOVED)) simple(m, s, t, SF_LEASE_MOVED);
    if (v & (BIT(F_DEVID_CHANGED) | BIT(F_DEVID_DELETED))) {
        struct keyed *e = note(m, SF_DEVID, s, t);
        if (e) {
            e->cause[0] += (v & BIT(F_DEVID_CHANGED)) != 0;
            e->cause[1] += (v & BIT(F_DEVID_DELETED)) != 0;
        }
        sf_commit(m, e, t->reply_frame);
    }
}

void flags_on_state_call(struct sess_model *m, struct sess *s, const struct ns_txn *t, bool test, bool free_)
{
    if (!s->cb || !s->cb->bcx.rv_seen) return;
    struct sess_key k = sess_key_of(s);
    struct keyed *e = sf_keyed(m, SF_STATE_REVOKED, &k);
    if (!e) return;
    bool first = !e->cause[RV_TEST] && !e->cause[RV_FREE];
    e->cause[RV_TEST] += test;
    e->cause[RV_FREE] += free_;
    s->cb->bcx.freed |= free_;
    struct ns_finding *f = sf_finding(m, SF_STATE_REVOKED, &k);
    if (f && first) finding_add_frame(f, t->call_frame); /* what the client did next */
    restate(m, s, SF_STATE_REVOKED, first ? t->call_frame : 0, revoked_severity(e->cause));
}

void flags_on_bind_conn(struct sess_model *m, struct sess *s, const struct ns_txn *t)
{
    (void)t;
    if (!s->cb || !s->cb->bcx.pd_seen) return;
    struct sess_key k = sess_key_of(s);
    struct keyed *e = sf_keyed(m, SF_CB_PATH_DOWN, &k);
    if (!e) return;
    e->cause[PD_BIND]++;
    restate(m, s, SF_CB_PATH_DOWN, 0, -1);
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

static size_t path_down_render(const struct ns_finding *f, const uint32_t *c, char *b)
{
    size_t o = put(b, 0,
                   "%" PRIu64 " SEQUENCE repl%s carried CB_PATH_DOWN (%u) or CB_PATH_DOWN_SESSION (%u): callbacks "
                   "to the client fail (recalls, then revocations).",
                   f->count, f->count == 1 ? "y" : "ies", c[PD_DOWN], c[PD_SESSION]);
    if (c[PD_UNBOUND] || c[PD_IN_FLIGHT] || c[PD_GIVEN_UP]) {
        o = put(b, o, " When it first appeared:");
        if (c[PD_UNBOUND])
            o = put(b, o, " no connection bound for the back channel (no CONN_BACK_CHAN, no BIND_CONN_TO_SESSION "
                          "BACK or BOTH);");
        if (c[PD_IN_FLIGHT]) o = put(b, o, " %u callback%s in flight unanswered;", c[PD_IN_FLIGHT], PL(c[PD_IN_FLIGHT]));
        if (c[PD_GIVEN_UP]) o = put(b, o, " %u callback%s never answered;", c[PD_GIVEN_UP], PL(c[PD_GIVEN_UP]));
        if (o < NS_FINDING_MSG_MAX && b[o - 1] == ';') b[o - 1] = '.';
    } else {
        o = put(b, o, " No cause visible in the capture (%s; a closed back-channel connection shows in the "
                      "session's connections).",
                c[PD_ANSWERED] ? "earlier callbacks were answered" : "no callback seen before");
    }
    if (c[PD_BIND]) o = put(b, o, " The client sent BIND_CONN_TO_SESSION %u time%s after it;", c[PD_BIND], PL(c[PD_BIND]));
    else o = put(b, o, " The client sent no BIND_CONN_TO_SESSION after it;");
    if (c[PD_CLEARED]) o = put(b, o, " the flag cleared %u time%s.", c[PD_CLEARED], PL(c[PD_CLEARED]));
    else o = put(b, o, " the flag never cleared.");
    return o;
}

static size_t revoked_render(const struct ns_finding *f, const uint32_t *c, char *b)
{
    size_t o = put(b, 0, "%" PRIu64 " SEQUENCE repl%s said state was revoked (", f->count, f->count == 1 ? "y" : "ies");
    static const char *const names[4] = {"RECALLABLE", "EXPIRED_ALL", "EXPIRED_SOME", "ADMIN"};
    bool first = true;
    for (int i = 0; i < 4; i++)
        if (c[i]) {
            o = put(b, o, "%s%s_STATE_REVOKED %u", first ? "" : ", ", names[i], c[i]);
            first = false;
        }
    o = put(b, o, ").");
    if (!c[RV_TEST] && !c[RV_FREE]) {
        o = put(b, o, " The client sent neither TEST_STATEID nor FREE_STATEID after it: the revoked state is never "
                      "freed, the server keeps flagging its replies and opens or locks on that state fail.");
        return o;
    }
    o = put(b, o, " The client then sent TEST_STATEID %u time%s and FREE_STATEID %u time%s", c[RV_TEST], PL(c[RV_TEST]),
            c[RV_FREE], PL(c[RV_FREE]));
    if (c[RV_AFTER_FREE])
        o = put(b, o, "; %u repl%s still carried the flag after its first FREE_STATEID", c[RV_AFTER_FREE],
                c[RV_AFTER_FREE] == 1 ? "y" : "ies");
    o = put(b, o, c[RV_CLEARED] ? "; the flag cleared." : "; the flag never cleared.");
    return o;
}

void flags_render(uint8_t kind, const struct ns_finding *f, const uint32_t *c, char *b)
{
    const char *what = NULL;
    switch ((enum sess_fkind)kind) {
    case SF_CB_PATH_DOWN:
        path_down_render(f, c, b);
        return;
    case SF_STATE_REVOKED:
        revoked_render(f, c, b);
        return;
    case SF_DEVID:
        put(b, 0,
            "%" PRIu64 " SEQUENCE repl%s said pNFS device IDs changed (DEVID_CHANGED %u, DEVID_DELETED %u) for "
            "which the client asked no notification: its cached device mappings may be stale.",
            f->count, f->count == 1 ? "y" : "ies", c[0], c[1]);
        return;
    case SF_GSS_EXPIRING:
        what = "CB_GSS_CONTEXTS_EXPIRING: the back channel's RPCSEC_GSS contexts are about to expire; the client "
               "should give new ones with BACKCHANNEL_CTL.";
        break;
    case SF_GSS_EXPIRED:
        what = "CB_GSS_CONTEXTS_EXPIRED: the back channel's RPCSEC_GSS contexts expired, so the server cannot call "
               "the client back until BACKCHANNEL_CTL gives new ones.";
        break;
    case SF_BC_FAULT:
        what = "BACKCHANNEL_FAULT: the server hit an unrecoverable fault on the back channel; callbacks are lost "
               "and the client should create a new session.";
        break;
    case SF_RECLAIM_NEEDED:
        what = "RESTART_RECLAIM_NEEDED: the server restarted and the client must reclaim its state (a new client "
               "ID through EXCHANGE_ID, then reclaims before RECLAIM_COMPLETE).";
        break;
    case SF_LEASE_MOVED:
        what = "LEASE_MOVED: a file system the client uses moved to another server (migration); the client must "
               "find which one with GETATTR fs_locations and move its state.";
        break;
    default:
        deleg_render(kind, f, c, b);
        return;
    }
    put(b, 0, "%" PRIu64 " SEQUENCE repl%s carried %s", f->count, f->count == 1 ? "y" : "ies", what);
}
