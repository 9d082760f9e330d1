/* Lists of finding kinds, as --fail-on takes them ("KIND,KIND"). */
#include <string.h>

#include "nfsscope/view.h"

bool ns_kind_listed(const char *kind, const char *kinds)
{
    size_t kl = strlen(kind);
    for (const char *p = kinds; *p;) {
        size_t l = strcspn(p, ",");
        if (l == kl && strncmp(p, kind, l) == 0) return true;
        p += l;
        if (*p == ',') p++;
    }
    return false;
}

bool ns_findings_any_of(const ns_analyzer *a, const char *kinds)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(a, &v);
    for (size_t i = 0; i < n; i++)
        if (ns_kind_listed(v[i]->kind, kinds)) return true;
    return false;
}

/* A frame missing from the capture is enough for these: a call not seen
 * (SLOT_SEQ_GAP, and a resend whose first send was not seen looks like
 * REPLAY's retry), a reply not seen (a grant or target missed:
 * SLOT_ABOVE_GRANTED, SLOT_TABLE_SHRUNK), a fragment not seen
 * (FRAGMENT_LOSS), a resend not seen (the gap looks doubled: RTO_INFLATED),
 * RECLAIM_COMPLETE not seen (GRACE_STUCK). The others rest on what the
 * server answered, which loss cannot invent. */
bool ns_finding_loss_may_cause(const char *kind)
{
    return ns_kind_listed(kind, "SLOT_SEQ_GAP,REPLAY,SLOT_ABOVE_GRANTED,SLOT_TABLE_SHRUNK,FRAGMENT_LOSS,RTO_INFLATED,"
                                "GRACE_STUCK");
}

uint64_t ns_finding_capture_gaps(const ns_analyzer *a, const struct ns_finding *f)
{
    if (!ns_finding_loss_may_cause(f->kind)) return 0;
    const struct ns_stats *st = ns_analyzer_stats(a);
    if (!f->nconns) return st->tcp_gaps + st->rpc_msgs_lost + st->ip_fragments_incomplete;
    uint64_t n = 0;
    for (unsigned i = 0; i < f->nconns && i < NS_FINDING_CONNS; i++) {
        const struct ns_conn *c = ns_analyzer_conn(a, f->conns[i]);
        if (c) n += c->gaps;
    }
    /* a session's calls take any of its connections (nconnect, trunking):
     * the one a lost call was on need not be the one the finding names */
    const struct ns_session_view *s = f->has_session ? ns_analyzer_session_by_id(a, f->sessionid) : NULL;
    for (uint32_t i = 0; s && i < s->nconns && i < NS_SESSION_CONNS; i++) {
        bool named = false;
        for (unsigned k = 0; k < f->nconns && k < NS_FINDING_CONNS; k++) named |= f->conns[k] == s->conns[i].conn_id;
        const struct ns_conn *c = named ? NULL : ns_analyzer_conn(a, s->conns[i].conn_id);
        if (c) n += c->gaps;
    }
    return n;
}
