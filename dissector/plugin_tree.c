/* The nfsscope subtree of one frame, from its record; findings read from
 * the analyzer as they stand now (final values on a revisit). */
#include <inttypes.h>
#include <string.h>

#include "nfsscope/view.h"
#include "plugin.h"
#include "plugin_fields.h"

static void add_time(proto_tree *t, int hf, tvbuff_t *tvb, int64_t ns)
{
    nstime_t v = {.secs = (time_t)(ns / 1000000000), .nsecs = (int)(ns % 1000000000)};
    proto_item *ti = proto_tree_add_time(t, hf, tvb, 0, 0, &v);
    proto_item_set_generated(ti);
}

#define GEN(x) proto_item_set_generated(x)

static void add_session(proto_tree *root, tvbuff_t *tvb, const struct frame_rec *r, char *sid, size_t sidlen)
{
    ns_hex_str(r->sessionid, NS_SESSIONID_LEN, sid, sidlen);
    proto_item *si = proto_tree_add_string(root, hf_ns_session, tvb, 0, 0, sid);
    GEN(si);
    if (!r->has_session_view) return;
    proto_tree *st = proto_item_add_subtree(si, ett_nfsscope_session);
    char conns[FR_SHARE_MAX * NS_CONN_NAME_LEN + 8] = "";
    size_t off = 0;
    for (unsigned i = 0; i < r->nshare; i++) {
        char id[NS_CONN_NAME_LEN];
        off += (size_t)snprintf(conns + off, sizeof conns - off, "%s%s", i ? "," : "",
                                ns_conn_name(r->share[i], id, sizeof id));
    }
    if (r->share_total > r->nshare) snprintf(conns + off, sizeof conns - off, ",...");
    GEN(proto_tree_add_string(st, hf_ns_session_conns, tvb, 0, 0, conns));
    GEN(proto_tree_add_uint(st, hf_ns_session_nconns, tvb, 0, 0, r->share_total));
    GEN(proto_tree_add_string_format_value(st, hf_ns_bind, tvb, 0, 0, ns_bind_method_name(r->bind_method), "%s (%s)",
                                           ns_bind_method_name(r->bind_method),
                                           ns_bind_method_phrase(r->bind_method)));
    if (r->has_client) {
        GEN(proto_tree_add_uint64(st, hf_ns_client, tvb, 0, 0, r->clientid));
        GEN(proto_tree_add_string(st, hf_ns_state_protect, tvb, 0, 0, ns_state_protect_name(r->state_protect)));
    }
}

/* The call's final verdict: a reply refusing it as misordered overrules
 * what the call looked like when it was sent. */
static const char *slot_verdict(const struct frame_rec *r)
{
    return r->refused_misordered ? ns_amend_kind_name(NS_AMEND_MISORDERED_CAUSE) : ns_slot_verdict_name(r->verdict);
}

static void add_slot(proto_tree *root, tvbuff_t *tvb, const struct frame_rec *r)
{
    proto_item *ti = proto_tree_add_uint(root, hf_ns_slot, tvb, 0, 0, r->slot);
    GEN(ti);
    proto_tree *t = proto_item_add_subtree(ti, ett_nfsscope_slot);
    GEN(proto_tree_add_uint(t, hf_ns_seqid, tvb, 0, 0, r->seqid));
    /* nfsscope's expected value, from the slot's history: not shown where the server refused it */
    if (r->has_expected && !r->refused_misordered) GEN(proto_tree_add_uint(t, hf_ns_expected, tvb, 0, 0, r->expected));
    if (r->verdict != NS_SLOT_NONE || r->refused_misordered)
        GEN(proto_tree_add_string(t, hf_ns_verdict, tvb, 0, 0, slot_verdict(r)));
    GEN(proto_tree_add_uint(t, hf_ns_outstanding, tvb, 0, 0, r->outstanding));
    if (r->granted) GEN(proto_tree_add_uint(t, hf_ns_granted, tvb, 0, 0, r->granted));
}

static void add_udp(proto_tree *root, tvbuff_t *tvb, const struct frame_rec *r)
{
    proto_item *ti = proto_tree_add_uint(root, hf_ns_udp_sends, tvb, 0, 0, r->send_no);
    GEN(ti);
    proto_tree *t = proto_item_add_subtree(ti, ett_nfsscope_udp);
    if (r->event == NS_EV_RESEND) add_time(t, hf_ns_udp_gap, tvb, r->gap_ns);
    if (r->armed_timeout_ns > 0) add_time(t, hf_ns_udp_armed, tvb, r->armed_timeout_ns);
    if (r->rtt_ns >= 0 && (r->event == NS_EV_REPLY)) add_time(t, hf_ns_udp_rtt, tvb, r->rtt_ns);
    if (r->srtt_ns > 0) add_time(t, hf_ns_udp_srtt, tvb, r->srtt_ns);
    if (r->rto_ns > 0) add_time(t, hf_ns_udp_rto, tvb, r->rto_ns);
}

static expert_field *expert_of(uint8_t sev)
{
    if (sev >= NS_SEV_ERROR) return &ei_ns_finding_error;
    if (sev == NS_SEV_WARNING) return &ei_ns_finding_warn;
    return &ei_ns_finding_note;
}

static void add_finding(proto_tree *root, tvbuff_t *tvb, packet_info *pinfo, const struct ns_finding *f)
{
    proto_item *ti = proto_tree_add_string(root, hf_ns_finding, tvb, 0, 0, f->kind);
    GEN(ti);
    proto_item_append_text(ti, " (%s, x%" PRIu64 ")", ns_severity_name(f->severity), f->count);
    proto_tree *t = proto_item_add_subtree(ti, ett_nfsscope_finding);
    GEN(proto_tree_add_uint(t, hf_ns_finding_id, tvb, 0, 0, f->id));
    GEN(proto_tree_add_string(t, hf_ns_finding_severity, tvb, 0, 0, ns_severity_name(f->severity)));
    GEN(proto_tree_add_uint64(t, hf_ns_finding_count, tvb, 0, 0, f->count));
    if (f->nframes) GEN(proto_tree_add_uint(t, hf_ns_finding_first, tvb, 0, 0, (guint32)f->frames[0]));
    GEN(proto_tree_add_string(t, hf_ns_finding_message, tvb, 0, 0, f->message));
    /* The expert text stays the same for the finding's life (no count, no
     * message that grows with it): Wireshark and tshark -z expert group
     * items by their text, so one finding is one row; the count and the
     * message are the fields above. Below the min_severity preference:
     * the tree only. */
    if (f->severity < nfsscope_min_severity()) return;
    expert_add_info_format(pinfo, ti, expert_of(f->severity), "%s: nfsscope finding %u (%s)%s%s", f->kind, f->id,
                           ns_severity_name(f->severity), f->rfc[0] ? ", " : "", f->rfc);
}

void nfsscope_tree(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, struct capture_state *cs,
                   const struct frame_rec *r)
{
    proto_item *top = proto_tree_add_item(tree, proto_nfsscope, tvb, 0, 0, ENC_NA);
    GEN(top);
    proto_tree *root = proto_item_add_subtree(top, ett_nfsscope);
    char id[NS_CONN_NAME_LEN], sid[2 * NS_SESSIONID_LEN + 1] = "";
    if (r->messages) {
        proto_item_append_text(top, ", %s %s", ns_conn_name(r->conn_id, id, sizeof id), ns_event_kind_name(r->event));
        GEN(proto_tree_add_uint(root, hf_ns_conn, tvb, 0, 0, r->conn_id));
        GEN(proto_tree_add_uint64(root, hf_ns_txn, tvb, 0, 0, r->txn_id));
        GEN(proto_tree_add_uint(root, hf_ns_xid, tvb, 0, 0, r->xid));
        GEN(proto_tree_add_string(root, hf_ns_event, tvb, 0, 0, ns_event_kind_name(r->event)));
        if (r->messages > 1) GEN(proto_tree_add_uint(root, hf_ns_messages, tvb, 0, 0, r->messages));
        if (r->backchannel) GEN(proto_tree_add_boolean(root, hf_ns_backchannel, tvb, 0, 0, 1));
        if (r->has_slot) {
            add_session(root, tvb, r, sid, sizeof sid);
            add_slot(root, tvb, r);
            proto_item_append_text(top, ", slot %u seq %u (%s)", r->slot, r->seqid, slot_verdict(r));
        }
        if (r->udp) add_udp(root, tvb, r);
    }
    if (r->given_up) GEN(proto_tree_add_boolean(root, hf_ns_given_up, tvb, 0, 0, 1));
    if (r->left_why && ns_txn_verdict_name(r->left_why))
        GEN(proto_tree_add_string(root, hf_ns_left_why, tvb, 0, 0, ns_txn_verdict_name(r->left_why)));
    for (uint8_t k = 1; k < NS_AMEND_KINDS && k < 8; k++)
        if (r->amends & (1u << k)) GEN(proto_tree_add_string(root, hf_ns_amend, tvb, 0, 0, ns_amend_kind_name(k)));
    if (r->amends && r->amend_by) GEN(proto_tree_add_uint(root, hf_ns_amend_by, tvb, 0, 0, (guint32)r->amend_by));
    for (unsigned i = 0; i < r->nfindings; i++) {
        const struct ns_finding *f = ns_analyzer_finding(cs->a, r->findings[i]);
        if (f) add_finding(root, tvb, pinfo, f);
        if (f && i == 0) proto_item_append_text(top, ", %s", f->kind);
    }
    if (r->findings_more) GEN(proto_tree_add_uint(root, hf_ns_findings_more, tvb, 0, 0, r->findings_more));
}
