/* GRACE_STUCK (doc/findings.md): a client answered NFS4ERR_GRACE for longer
 * than a grace period while none of its RECLAIM_COMPLETEs was answered
 * NFS4_OK. Judged on each GRACE reply, the evidence that the client is still
 * in grace; time passing without one proves nothing, so settling raises
 * nothing. Once raised the finding stays and takes in every later GRACE
 * reply and failed RECLAIM_COMPLETE of the client. */
#include <inttypes.h>
#include <stdio.h>

#include "session_int.h"

/* What the message says beyond the finding's count and times (kept by the
 * store; rendered by grace_render when a front end reads the finding). */
struct grace_state {
    int64_t grace_period_ns;
    bool rc_failed;             /* RECLAIM_COMPLETE failed (else never sent) */
};
_Static_assert(sizeof(struct grace_state) <= FINDINGS_STATE_MAX, "grace_state too large");

static void grace_render(const struct ns_finding *f, const void *state, char *msg)
{
    const struct grace_state *g = state;
    snprintf(msg, NS_FINDING_MSG_MAX,
             "The server answered NFS4ERR_GRACE %" PRIu64 " times over %.0f s, longer than a grace period "
             "(%.0f s), and the client's RECLAIM_COMPLETE %s: the server waits for it to end the client's grace; "
             "send RECLAIM_COMPLETE (again) on a bound connection.",
             f->count, (double)(f->last_ts_ns - f->first_ts_ns) / 1e9, (double)g->grace_period_ns / 1e9,
             g->rc_failed ? "failed and was never retried" : "was never sent");
}

/* The finding as the client's record has it now. */
static void grace_sync(struct sess_model *m, const struct sess_client *cl, struct ns_finding *f)
{
    f->first_ts_ns = cl->grace_first_ts;
    f->last_ts_ns = cl->grace_last_ts;
    f->count = cl->v.grace_replies;
    f->nframes = cl->grace_acc.nframes;
    memcpy(f->frames, cl->grace_acc.frames, sizeof f->frames);
    f->nconns = cl->grace_acc.nconns;
    memcpy(f->conns, cl->grace_acc.conns, sizeof f->conns);
    struct grace_state *g = findings_state(m->fs, f);
    g->grace_period_ns = m->cfg.grace_period_ns;
    g->rc_failed = cl->v.reclaim_complete_failed != 0;
}

static struct ns_finding *grace_finding(struct sess_model *m, const struct sess_client *cl)
{
    return cl->grace_raised ? findings_get(m->fs, cl->grace_fidx) : NULL;
}

/* The rule holds on the GRACE reply at ts: raise the finding and tell the
 * store of every frame it keeps (and of this reply's). */
static void grace_raise(struct sess_model *m, struct sess_client *cl, uint64_t frame)
{
    struct ns_finding *f = findings_add(m->fs, "GRACE_STUCK", NS_SEV_CRITICAL, cl->grace_first_ts);
    if (!f) return; /* the store is full (counted there) */
    cl->grace_raised = true;
    cl->grace_fidx = findings_index(m->fs, f);
    f->has_client = true;
    f->clientid = cl->v.clientid;
    finding_set_rfc(f, "RFC 8881 8.4.2.1, 18.51.3");
    findings_set_renderer(m->fs, f, grace_render);
    grace_sync(m, cl, f);
    bool told = false;
    for (unsigned i = 0; i < f->nframes; i++) {
        findings_touch(m->fs, f, f->frames[i]);
        told |= f->frames[i] == frame;
    }
    if (!told) findings_touch(m->fs, f, frame);
}

void grace_on_reply(struct sess_model *m, struct sess_client *cl, int64_t ts, uint64_t frame, uint32_t conn)
{
    if (!cl->v.grace_replies) cl->grace_first_ts = ts;
    cl->grace_last_ts = ts;
    cl->v.grace_replies++;
    finding_add_frame(&cl->grace_acc, frame);
    finding_add_conn(&cl->grace_acc, conn);
    struct ns_finding *f = grace_finding(m, cl);
    if (f) {
        grace_sync(m, cl, f);
        findings_touch(m->fs, f, frame);
        return;
    }
    if (ts - cl->grace_first_ts <= m->cfg.grace_period_ns) return;
    if (cl->rc_ok_seen && cl->rc_ok_ts <= ts) return; /* the client did its part: the server's grace */
    grace_raise(m, cl, frame);
}

void grace_on_reclaim_complete(struct sess_model *m, struct sess_client *cl, bool ok, int64_t ts, uint64_t frame,
                               uint32_t conn)
{
    if (ok) {
        cl->v.reclaim_complete_ok++;
        if (!cl->rc_ok_seen) { cl->rc_ok_seen = true; cl->rc_ok_ts = ts; }
        return;
    }
    bool first = !cl->v.reclaim_complete_failed; /* the finding keeps the first failure's frame */
    if (first) finding_add_frame(&cl->grace_acc, frame);
    cl->v.reclaim_complete_failed++;
    finding_add_conn(&cl->grace_acc, conn);
    struct ns_finding *f = grace_finding(m, cl);
    if (!f) return;
    uint32_t conns[NS_FINDING_CONNS];
    memcpy(conns, f->conns, sizeof conns);
    uint8_t nconns = f->nconns;
    grace_sync(m, cl, f);
    if (first) findings_touch(m->fs, f, frame);
    else if (nconns != f->nconns || memcmp(conns, f->conns, sizeof conns)) findings_touch(m->fs, f, 0);
}
