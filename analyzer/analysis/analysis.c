/* Fan-out of RPC events to the analyzers. Keep this file a list of calls:
 * the logic lives in each analyzer's own module. */
#include "analysis.h"

#include "analyzer_int.h"
#include "sess_model.h"

bool analysis_init(struct ns_analyzer *a)
{
    a->findings = findings_new(&a->mc);
    struct sess_config scfg = {a->cfg.storm_count, a->cfg.storm_window_ns, a->cfg.grace_period_ns};
    a->sessions = a->findings ? sess_new(&a->mc, a->findings, &scfg) : NULL;
    if (!a->sessions) return false;
    struct udp_timing_cfg ucfg = {a->cfg.rto_factor, a->cfg.udp_timeo_ns, a->cfg.udp_retrans};
    a->udp = a->findings ? udp_timing_new(&a->mc, &ucfg, a->findings) : NULL;
    return a->findings != NULL && a->udp != NULL;
}

void analysis_free(struct ns_analyzer *a)
{
    findings_free(a->findings);
    sess_free(a->sessions);
    udp_timing_free(a->udp);
}

void analysis_on_call(struct ns_analyzer *a, struct ns_txn *t, const struct ns_conn *c)
{
    sess_on_call(a->sessions, t, c, NULL);
    udp_timing_on_call(a->udp, t, c, a->now, a->frame, NULL);
}

void analysis_on_retransmit(struct ns_analyzer *a, struct ns_txn *t, const struct ns_conn *c)
{
    sess_on_retransmit(a->sessions, t, a->frame, a->now, NULL);
    udp_timing_on_retransmit(a->udp, t, c, a->now, a->frame, NULL);
}

void analysis_on_reply(struct ns_analyzer *a, struct ns_txn *t, const struct ns_conn *c, bool dup)
{
    sess_on_reply(a->sessions, t, c, dup, NULL);
    udp_timing_on_reply(a->udp, t, c, dup, a->now, a->frame, NULL);
}

void analysis_on_txn_done(struct ns_analyzer *a, const struct ns_txn *t, bool given_up)
{
    sess_on_txn_done(a->sessions, t, given_up);
    udp_timing_on_done(a->udp, t, ns_analyzer_conn(a, t->conn_id), given_up);
}

void analysis_on_fragmented(struct ns_analyzer *a, const struct ipfrag_done *d)
{
    udp_timing_on_fragmented(a->udp, d, a->now, a->frame);
}

void analysis_finish(struct ns_analyzer *a)
{
    sess_finish(a->sessions, a->now);
    udp_timing_finish(a->udp, a->st.last_ts_ns - a->st.first_ts_ns);
}
