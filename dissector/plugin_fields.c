#include "plugin_fields.h"

int proto_nfsscope = -1;
int ett_nfsscope = -1, ett_nfsscope_session = -1, ett_nfsscope_slot = -1, ett_nfsscope_udp = -1,
    ett_nfsscope_finding = -1;

int hf_ns_conn = -1, hf_ns_txn = -1, hf_ns_xid = -1, hf_ns_event = -1, hf_ns_messages = -1, hf_ns_backchannel = -1,
    hf_ns_given_up = -1, hf_ns_left_why = -1;
int hf_ns_session = -1, hf_ns_session_conns = -1, hf_ns_session_nconns = -1, hf_ns_bind = -1, hf_ns_client = -1,
    hf_ns_state_protect = -1;
int hf_ns_slot = -1, hf_ns_seqid = -1, hf_ns_expected = -1, hf_ns_verdict = -1, hf_ns_outstanding = -1,
    hf_ns_granted = -1;
int hf_ns_udp_sends = -1, hf_ns_udp_gap = -1, hf_ns_udp_armed = -1, hf_ns_udp_rtt = -1, hf_ns_udp_srtt = -1,
    hf_ns_udp_rto = -1;
int hf_ns_amend = -1, hf_ns_amend_by = -1;
int hf_ns_finding = -1, hf_ns_finding_id = -1, hf_ns_finding_severity = -1, hf_ns_finding_count = -1,
    hf_ns_finding_first = -1, hf_ns_finding_message = -1, hf_ns_findings_more = -1, hf_ns_unrecorded = -1;

expert_field ei_ns_finding_note = EI_INIT, ei_ns_finding_warn = EI_INIT, ei_ns_finding_error = EI_INIT,
             ei_ns_table_full = EI_INIT;

#define F(id, name, abbrev, type, disp, blurb) {&id, {name, abbrev, type, disp, NULL, 0x0, blurb, HFILL}}

void nfsscope_register_fields(void)
{
    static hf_register_info hf[] = {
        F(hf_ns_conn, "Connection", "nfsscope.conn", FT_UINT32, BASE_DEC,
          "nfsscope's connection id (c1 = 1), as in its report"),
        F(hf_ns_txn, "Transaction", "nfsscope.txn", FT_UINT64, BASE_DEC,
          "Stable id of the RPC transaction (1-based, in order of first sight)"),
        F(hf_ns_xid, "XID", "nfsscope.xid", FT_UINT32, BASE_HEX, NULL),
        F(hf_ns_event, "Message", "nfsscope.event", FT_STRING, BASE_NONE,
          "What the frame's first RPC message is: call, resend, reply, dup_reply, orphan_reply"),
        F(hf_ns_messages, "RPC messages in frame", "nfsscope.messages", FT_UINT8, BASE_DEC, NULL),
        F(hf_ns_backchannel, "Backchannel", "nfsscope.backchannel", FT_BOOLEAN, BASE_NONE, NULL),
        F(hf_ns_given_up, "Given up unanswered", "nfsscope.given_up", FT_BOOLEAN, BASE_NONE,
          "The call was given up without a reply (timeout, XID reused or end of capture)"),
        F(hf_ns_left_why, "Left without its reply", "nfsscope.left_why", FT_STRING, BASE_NONE,
          "Why the call has no reply: timed_out, unanswered_at_end, superseded (XID reused), evicted_waiting "
          "(still waiting when memory ran short: outstanding, not unanswered)"),
        F(hf_ns_session, "Session", "nfsscope.session", FT_STRING, BASE_NONE,
          "NFSv4.1 session ID (hex), as in the report"),
        F(hf_ns_session_conns, "Session connections", "nfsscope.session.conns", FT_STRING, BASE_NONE,
          "Connections that carried or bound the session, at this frame"),
        F(hf_ns_session_nconns, "Session connection count", "nfsscope.session.nconns", FT_UINT32, BASE_DEC, NULL),
        F(hf_ns_bind, "Bind method of this connection", "nfsscope.bind", FT_STRING, BASE_NONE,
          "none, CREATE_SESSION, BIND_CONN_TO_SESSION or SEQUENCE, at this frame"),
        F(hf_ns_client, "Client ID", "nfsscope.client", FT_UINT64, BASE_HEX, NULL),
        F(hf_ns_state_protect, "State protection", "nfsscope.client.state_protect", FT_STRING, BASE_NONE, NULL),
        F(hf_ns_slot, "Slot", "nfsscope.slot", FT_UINT32, BASE_DEC, NULL),
        F(hf_ns_seqid, "Sequence ID", "nfsscope.slot.seqid", FT_UINT32, BASE_DEC, NULL),
        F(hf_ns_expected, "Expected sequence ID", "nfsscope.slot.expected", FT_UINT32, BASE_DEC,
          "The slot's last sequence ID + 1"),
        F(hf_ns_verdict, "Slot verdict", "nfsscope.slot.verdict", FT_STRING, BASE_NONE,
          "new, first, replay, false_retry, gap, backwards, in_flight (misordered), above_granted, untracked"),
        F(hf_ns_outstanding, "Outstanding requests", "nfsscope.slot.outstanding", FT_UINT32, BASE_DEC,
          "The session's requests in flight after this frame"),
        F(hf_ns_granted, "Granted slots", "nfsscope.slot.granted", FT_UINT32, BASE_DEC,
          "The session's granted slots at this frame"),
        F(hf_ns_udp_sends, "Send number", "nfsscope.udp.sends", FT_UINT16, BASE_DEC,
          "1 = first transmission of the call"),
        F(hf_ns_udp_gap, "Time since previous send", "nfsscope.udp.gap", FT_RELATIVE_TIME, BASE_NONE, NULL),
        F(hf_ns_udp_armed, "Timeout the client had armed", "nfsscope.udp.armed_timeout", FT_RELATIVE_TIME,
          BASE_NONE, "The RTO a Linux client had armed when it sent this"),
        F(hf_ns_udp_rtt, "Measured RTT", "nfsscope.udp.rtt", FT_RELATIVE_TIME, BASE_NONE,
          "Reply to a call sent once (Karn)"),
        F(hf_ns_udp_srtt, "Smoothed RTT", "nfsscope.udp.srtt", FT_RELATIVE_TIME, BASE_NONE, NULL),
        F(hf_ns_udp_rto, "RTO", "nfsscope.udp.rto", FT_RELATIVE_TIME, BASE_NONE,
          "The pair's retransmit timeout estimate after this frame"),
        F(hf_ns_amend, "Later verdict", "nfsscope.amend", FT_STRING, BASE_NONE,
          "spurious_resend, reply_lost_to_fragments, misordered"),
        F(hf_ns_amend_by, "Decided by frame", "nfsscope.amend.by", FT_FRAMENUM, BASE_NONE, NULL),
        F(hf_ns_finding, "Finding", "nfsscope.finding", FT_STRING, BASE_NONE,
          "Kind of a finding this frame belongs to, as in the report (CONN_NOT_BOUND, SEQ_MISORDERED, ...)"),
        F(hf_ns_finding_id, "Finding id", "nfsscope.finding.id", FT_UINT32, BASE_DEC, NULL),
        F(hf_ns_finding_severity, "Severity", "nfsscope.finding.severity", FT_STRING, BASE_NONE, NULL),
        F(hf_ns_finding_count, "Occurrences", "nfsscope.finding.count", FT_UINT64, BASE_DEC,
          "Occurrences folded into the finding (final on revisits; as of this frame in a single pass)"),
        F(hf_ns_finding_first, "First frame", "nfsscope.finding.first_frame", FT_FRAMENUM, BASE_NONE, NULL),
        F(hf_ns_finding_message, "Message", "nfsscope.finding.message", FT_STRING, BASE_NONE, NULL),
        F(hf_ns_findings_more, "Further findings not kept", "nfsscope.findings_more", FT_UINT16, BASE_DEC, NULL),
        F(hf_ns_unrecorded, "Frames not recorded (memory cap)", "nfsscope.unrecorded", FT_UINT64, BASE_DEC, NULL),
    };
    static int *ett[] = {&ett_nfsscope, &ett_nfsscope_session, &ett_nfsscope_slot, &ett_nfsscope_udp,
                         &ett_nfsscope_finding};
    static ei_register_info ei[] = {
        {&ei_ns_finding_note, {"nfsscope.finding.note", PI_SEQUENCE, PI_NOTE, "nfsscope finding (info)", EXPFILL}},
        {&ei_ns_finding_warn, {"nfsscope.finding.warning", PI_SEQUENCE, PI_WARN, "nfsscope finding (warning)",
                               EXPFILL}},
        {&ei_ns_finding_error, {"nfsscope.finding.error", PI_SEQUENCE, PI_ERROR, "nfsscope finding (error)",
                                EXPFILL}},
        {&ei_ns_table_full, {"nfsscope.table_full", PI_UNDECODED, PI_WARN,
                             "nfsscope per-frame table full (memory cap): frames after this one are not shown",
                             EXPFILL}},
    };
    proto_register_field_array(proto_nfsscope, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    expert_module_t *em = expert_register_protocol(proto_nfsscope);
    expert_register_field_array(em, ei, array_length(ei));
}
