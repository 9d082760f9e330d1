#include "capture_state.h"

#include <string.h>

static void on_rpc_event(struct frame_rec *r, const struct ns_event *ev)
{
    if (r->messages < UINT8_MAX) r->messages++;
    if (r->messages > 1) return; /* the first message of the frame is the one shown */
    r->event = ev->kind;
    r->txn_id = ev->txn_id;
    r->conn_id = ev->conn_id;
    r->xid = ev->xid;
    r->backchannel = ev->backchannel;
    r->has_slot = ev->has_slot;
    if (ev->has_slot) {
        memcpy(r->sessionid, ev->sessionid, NS_SESSIONID_LEN);
        r->slot = ev->slot;
        r->seqid = ev->seqid;
        r->has_expected = ev->has_expected;
        r->expected = ev->expected_seqid;
        r->verdict = ev->slot_verdict;
        r->outstanding = ev->outstanding;
        r->granted = ev->granted;
    }
    r->udp = ev->udp;
    if (ev->udp) {
        r->send_no = ev->send_no;
        r->gap_ns = ev->gap_ns;
        r->armed_timeout_ns = ev->armed_timeout_ns;
        r->rtt_ns = ev->rtt_ns;
        r->srtt_ns = ev->srtt_ns;
        r->rto_ns = ev->rto_ns;
    }
}

static void on_event(void *ctx, const struct ns_event *ev)
{
    struct capture_state *cs = ctx;
    if (!ev->frame) return; /* a finding changed: taken in by capture_state_sync */
    struct frame_rec *r = frame_table_get_or_add(&cs->frames, ev->frame);
    if (!r) return;
    switch (ev->kind) {
    case NS_EV_CALL:
    case NS_EV_RESEND:
    case NS_EV_REPLY:
    case NS_EV_DUP_REPLY:
    case NS_EV_ORPHAN_REPLY: on_rpc_event(r, ev); break;
    case NS_EV_GIVEN_UP: /* a call still waiting when memory ran short is not unanswered */
        r->given_up = ev->verdict != NS_VERDICT_EVICTED_WAITING;
        r->left_why = ev->verdict;
        break;
    case NS_EV_FINDING: frame_rec_add_finding(r, ev->finding_id); break;
    case NS_EV_AMEND:
        if (ev->amend < 8) r->amends |= (uint8_t)(1u << ev->amend);
        r->amend_by = ev->by_frame;
        /* the reply that refused the call shows that verdict too (r is not used after this) */
        if (ev->amend == NS_AMEND_MISORDERED_CAUSE && ev->by_frame) {
            struct frame_rec *by = frame_table_get_or_add(&cs->frames, ev->by_frame);
            if (by) by->refused_misordered = true;
        }
        break;
    default: break;
    }
}

void capture_state_open(struct capture_state *cs, uint64_t table_cap)
{
    memset(cs, 0, sizeof *cs);
    frame_table_init(&cs->frames, table_cap);
    struct ns_config cfg = NS_CONFIG_INIT;
    cs->a = ns_analyzer_new(&cfg, cs->err, sizeof cs->err);
    if (cs->a) ns_analyzer_on_event(cs->a, on_event, cs);
}

void capture_state_close(struct capture_state *cs)
{
    if (cs->a) ns_analyzer_free(cs->a);
    frame_table_free(&cs->frames);
    uint64_t cap = cs->frames.cap;
    memset(cs, 0, sizeof *cs);
    cs->frames.cap = cap;
}

/* The session as it stands now, into the record of the frame just fed. */
static void snapshot_session(struct capture_state *cs, struct frame_rec *r)
{
    const struct ns_session_view *s = ns_analyzer_session_by_id(cs->a, r->sessionid);
    if (!s) return;
    r->has_session_view = true;
    r->has_client = s->has_client;
    r->clientid = s->clientid;
    r->share_total = s->nconns + s->conns_dropped;
    r->bind_method = NS_BIND_NONE;
    for (uint32_t i = 0; i < s->nconns && i < NS_SESSION_CONNS; i++) {
        if (r->nshare < FR_SHARE_MAX) r->share[r->nshare++] = s->conns[i].conn_id;
        if (s->conns[i].conn_id == r->conn_id) r->bind_method = s->conns[i].method;
    }
    if (s->has_client) {
        const struct ns_client_view *c = ns_analyzer_client_by_id(cs->a, s->clientid);
        if (c) r->state_protect = (uint8_t)c->sp_granted;
    }
}

/* Every frame a changed finding lists carries it. */
static void take_in_findings(struct capture_state *cs)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings_changed(cs->a, cs->synced_gen, &v);
    for (size_t i = 0; i < n; i++)
        for (unsigned k = 0; k < v[i]->nframes; k++) {
            struct frame_rec *r = frame_table_get_or_add(&cs->frames, v[i]->frames[k]);
            if (r) frame_rec_add_finding(r, v[i]->id);
        }
    cs->synced_gen = ns_analyzer_findings_generation(cs->a);
}

bool capture_state_feed(struct capture_state *cs, uint64_t n, int64_t ts_ns, uint32_t caplen, uint32_t len,
                        int linktype, const uint8_t *data)
{
    if (!cs->a) return false;
    if (n <= cs->last_fed) { cs->frames_out_of_order++; return false; }
    cs->last_fed = n;
    if (!ns_linktype_supported(linktype)) return false;
    struct ns_frame f = {.number = n, .ts_ns = ts_ns, .caplen = caplen, .len = len, .linktype = linktype,
                         .data = data};
    ns_analyzer_feed(cs->a, &f);
    struct frame_rec *r = frame_table_get(&cs->frames, n);
    if (r && r->has_slot && !r->has_session_view) snapshot_session(cs, r);
    /* findings that now list earlier frames (a storm reaching its count) */
    if (ns_analyzer_findings_generation(cs->a) != cs->synced_gen) take_in_findings(cs);
    return true;
}

void capture_state_sync(struct capture_state *cs)
{
    if (!cs->a) return;
    if (cs->synced_frames == cs->last_fed && cs->synced_gen == ns_analyzer_findings_generation(cs->a)) return;
    ns_analyzer_settle(cs->a);
    take_in_findings(cs);
    cs->synced_frames = cs->last_fed;
}

void capture_state_finish(struct capture_state *cs)
{
    if (!cs->a) return;
    ns_analyzer_finish(cs->a);
    take_in_findings(cs);
    cs->synced_frames = cs->last_fed;
}
