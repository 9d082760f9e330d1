/* The nfsscope protocol's fields and expert infos (registered in
 * plugin_fields.c, filled in plugin_tree.c). doc/wireshark-plugin.md lists
 * them as `tshark -G fields` prints them. */
#ifndef NFSSCOPE_PLUGIN_FIELDS_H
#define NFSSCOPE_PLUGIN_FIELDS_H
#include <epan/expert.h>
#include <epan/packet.h>

extern int proto_nfsscope;
extern int ett_nfsscope, ett_nfsscope_session, ett_nfsscope_slot, ett_nfsscope_udp, ett_nfsscope_finding;

extern int hf_ns_conn, hf_ns_txn, hf_ns_xid, hf_ns_event, hf_ns_messages, hf_ns_backchannel, hf_ns_given_up,
    hf_ns_left_why;
extern int hf_ns_session, hf_ns_session_conns, hf_ns_session_nconns, hf_ns_bind, hf_ns_client, hf_ns_state_protect;
extern int hf_ns_slot, hf_ns_seqid, hf_ns_expected, hf_ns_verdict, hf_ns_outstanding, hf_ns_granted;
extern int hf_ns_udp_sends, hf_ns_udp_gap, hf_ns_udp_armed, hf_ns_udp_rtt, hf_ns_udp_srtt, hf_ns_udp_rto;
extern int hf_ns_amend, hf_ns_amend_by;
extern int hf_ns_finding, hf_ns_finding_id, hf_ns_finding_severity, hf_ns_finding_count, hf_ns_finding_first,
    hf_ns_finding_message, hf_ns_findings_more, hf_ns_unrecorded;

extern expert_field ei_ns_finding_note, ei_ns_finding_warn, ei_ns_finding_error, ei_ns_table_full;

/* Called from proto_register_nfsscope once proto_nfsscope exists. */
void nfsscope_register_fields(void);

#endif
