/* Fan-out of RPC events to the analyzers. Keep this file a list of calls:
 * the logic lives in each analyzer's own module. */
#include "analysis.h"

#include "analyzer_int.h"
#include "session.h"

bool analysis_init(struct ns_analyzer *a)
{
    a->findings = findings_new(&a->mc);
    struct sess_config scfg = {a->cfg.storm_count, a->cfg.storm_window_ns, a->cfg.grace_period_ns};
    a->sessions = a->findings ? sess_new(&a->mc, a->findings, &scfg) : NULL;
    if (!a->sessions) return false;
    return a->findings != NULL;
}

void analysis_free(struct ns_analyzer *a)
{
    findings_free(a->findings);
    sess_free(a->sessions);
}

void analysis_on_call(struct ns_analyzer *a, struct ns_txn *t, const struct ns_conn *c)
{
    sess_on_call(a->sessions, t, c);
    (void)a; (void)t; (void)c;
}

void analysis_on_retransmit(struct ns_analyzer *a, struct ns_txn *t, const struct ns_conn *c)
{
    sess_on_retransmit(a->sessions, t, a->frame, a->now);
    (void)a; (void)t; (void)c;
}

void analysis_on_reply(struct ns_analyzer *a, struct ns_txn *t, const struct ns_conn *c, bool dup)
{
    sess_on_reply(a->sessions, t, c, dup);
    (void)a; (void)t; (void)c; (void)dup;
}

void analysis_on_txn_done(struct ns_analyzer *a, const struct ns_txn *t, bool given_up)
{
    sess_on_txn_done(a->sessions, t, given_up);
    (void)a; (void)t; (void)given_up;
}

void analysis_on_fragmented(struct ns_analyzer *a, const struct ipfrag_done *d)
{
    (void)a; (void)d;
}

void analysis_finish(struct ns_analyzer *a)
{
    sess_finish(a->sessions);
    (void)a;
}
