/* From the RPC stage to the analyzers and out to the front end: each RPC
 * event is told to the analysis, and what they said about the frame becomes
 * one nfsscope/events.h event; transactions are handed out in the order the
 * front end asked for. */
#include <string.h>

#include "analyzer_int.h"
#include "txn_internal.h"

static void event_init(struct ns_event *ev, uint8_t kind, const struct ns_txn *t, uint64_t frame, int64_t ts)
{
    memset(ev, 0, sizeof *ev);
    ev->kind = kind;
    ev->frame = frame;
    ev->ts_ns = ts;
    ev->rtt_ns = -1;
    if (t) {
        ev->txn = t;
        ev->txn_id = t->id;
        ev->conn_id = t->conn_id;
        ev->xid = t->xid;
        ev->backchannel = t->backchannel;
    }
}

static void event_facts(struct ns_event *ev, const struct analysis_frame *af)
{
    const struct sess_frame_info *s = &af->sess;
    if (s->has_slot) {
        ev->has_slot = true;
        memcpy(ev->sessionid, s->sessionid, sizeof ev->sessionid);
        ev->slot = s->slot;
        ev->seqid = s->seqid;
        ev->has_expected = s->has_expected;
        ev->expected_seqid = s->expected_seqid;
        ev->slot_verdict = s->verdict;
        ev->outstanding = s->outstanding;
        ev->granted = s->granted;
    }
    const struct udp_frame_info *u = &af->udp;
    if (u->udp) {
        ev->udp = true;
        ev->send_no = u->send_no;
        ev->gap_ns = u->gap_ns;
        ev->armed_timeout_ns = u->armed_timeout_ns;
        ev->rtt_ns = u->rtt_ns;
        ev->srtt_ns = u->srtt_ns;
        ev->rto_ns = u->rto_ns;
    }
}

static void tell(struct ns_analyzer *a, uint8_t kind, const struct ns_txn *t, const struct rpc_at *at,
                 const struct analysis_frame *af)
{
    if (!a->event_fn) return;
    struct ns_event ev;
    event_init(&ev, kind, t, at->frame, at->ts);
    if (af) event_facts(&ev, af);
    a->event_fn(a->event_ctx, &ev);
}

static void deliver(struct ns_analyzer *a, struct ns_txn *t)
{
    struct txn_internal *in = txn_internal(t);
    if (in->delivered) return;
    in->delivered = true;
    if (a->txn_fn) a->txn_fn(a->txn_ctx, t);
}

/* Where the analyzers put their per-frame facts: nowhere when no front end
 * listens for events (the program's fast path skips collecting them). */
static struct analysis_frame *facts(const struct ns_analyzer *a, struct analysis_frame *af)
{
    if (!a->event_fn) return NULL;
    memset(af, 0, sizeof *af);
    return af;
}

/* One RPC message: told to the analysis, then to the front end as an event
 * of kind with what the analysis said about its frame. */
static void on_message(struct ns_analyzer *a, uint8_t kind, struct ns_txn *t, const struct ns_conn *c, bool dup,
                       const struct rpc_at *at)
{
    struct analysis_frame af, *out = facts(a, &af);
    if (kind == NS_EV_CALL) analysis_on_call(&a->an, t, c, at->frame, at->ts, out);
    else if (kind == NS_EV_RESEND) analysis_on_retransmit(&a->an, t, c, at->frame, at->ts, out);
    else analysis_on_reply(&a->an, t, c, dup, at->frame, at->ts, out);
    tell(a, kind, t, at, out);
}

static void on_call(void *ctx, struct ns_txn *t, const struct ns_conn *c, const struct rpc_at *at)
{
    on_message(ctx, NS_EV_CALL, t, c, false, at);
}

static void on_resend(void *ctx, struct ns_txn *t, const struct ns_conn *c, const struct rpc_at *at)
{
    on_message(ctx, NS_EV_RESEND, t, c, false, at);
}

static void on_reply(void *ctx, struct ns_txn *t, const struct ns_conn *c, bool dup, bool orphan,
                     const struct rpc_at *at)
{
    struct ns_analyzer *a = ctx;
    on_message(a, dup ? NS_EV_DUP_REPLY : orphan ? NS_EV_ORPHAN_REPLY : NS_EV_REPLY, t, c, dup, at);
    if (!dup && a->cfg.txn_order == NS_ORDER_COMPLETION) deliver(a, t);
}

static void on_done(void *ctx, struct ns_txn *t, bool given_up)
{
    struct ns_analyzer *a = ctx;
    analysis_on_txn_done(&a->an, t, ns_analyzer_conn(a, t->conn_id), given_up);
    if (given_up && t->call_frame && !t->reply_frame && a->event_fn) {
        /* the event is about the call's last transmission */
        uint8_t k = t->sends < NS_TXN_SENDS_KEPT ? (uint8_t)t->sends : NS_TXN_SENDS_KEPT;
        struct ns_event ev;
        event_init(&ev, NS_EV_GIVEN_UP, t, k ? t->send_frame[k - 1] : t->call_frame, t->last_send_ts_ns);
        ev.verdict = t->verdict; /* NS_VERDICT_EVICTED_WAITING: still waiting, not unanswered */
        ev.waited_ns = t->waited_ns;
        a->event_fn(a->event_ctx, &ev);
    }
    deliver(a, t);
}

static void on_finding(void *ctx, const struct ns_finding *x, uint64_t frame)
{
    struct ns_analyzer *a = ctx;
    if (!a->event_fn) return;
    struct ns_event ev;
    /* an occurrence in the frame being fed (or whose TCP bytes are being
     * delivered) has its time; an earlier one (taken in later, as a storm
     * does) is named by its frame only */
    struct rpc_at at = a->delivering ? *a->delivering : (struct rpc_at){a->frame, a->now};
    event_init(&ev, NS_EV_FINDING, NULL, frame, frame == at.frame ? at.ts : 0);
    ev.finding_id = x->id;
    ev.finding = findings_render(a->an.findings, x); /* complete, message included */
    a->event_fn(a->event_ctx, &ev);
}

static void on_amend(void *ctx, uint64_t frame, uint8_t amend, const struct ns_txn *t, uint64_t by_frame)
{
    struct ns_analyzer *a = ctx;
    if (!a->event_fn) return;
    struct ns_event ev;
    event_init(&ev, NS_EV_AMEND, t, frame, 0);
    ev.amend = amend;
    ev.by_frame = by_frame;
    a->event_fn(a->event_ctx, &ev);
}

void emit_wire(struct ns_analyzer *a, struct rpc_sink *sink)
{
    *sink = (struct rpc_sink){a, on_call, on_resend, on_reply, on_done,
                              .completion_order = a->cfg.txn_order == NS_ORDER_COMPLETION,
                              .names = analysis_names(&a->an)};
    analysis_set_listeners(&a->an, on_finding, on_amend, a);
}
