/* Names of the event vocabulary (nfsscope/events.h), as the txn log, the
 * screen and the Wireshark plugin's filter fields spell them. */
#include "nfsscope/events.h"

const char *ns_event_kind_name(uint8_t kind)
{
    static const char *const n[NS_EV_KINDS] = {"unknown", "call", "resend", "reply", "dup_reply",
                                               "orphan_reply", "given_up", "finding", "amend"};
    return kind < NS_EV_KINDS ? n[kind] : "unknown";
}

const char *ns_slot_verdict_name(uint8_t verdict)
{
    static const char *const n[NS_SLOT_VERDICTS] = {"none", "new", "first", "replay", "false_retry", "gap",
                                                    "backwards", "in_flight", "above_granted", "untracked"};
    return verdict < NS_SLOT_VERDICTS ? n[verdict] : "unknown";
}

const char *ns_amend_kind_name(uint8_t amend)
{
    static const char *const n[NS_AMEND_KINDS] = {"unknown", "spurious_resend", "reply_lost_to_fragments",
                                                  "misordered"};
    return amend < NS_AMEND_KINDS ? n[amend] : "unknown";
}
