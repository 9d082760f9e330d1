/* Fan-out of RPC events to the analyzers. Keep this file a list of calls:
 * the logic lives in each analyzer's own module. */
#include "analysis.h"

#include "analyzer_int.h"

bool analysis_init(struct ns_analyzer *a)
{
    a->findings = findings_new(&a->mc);
    return a->findings != NULL;
}

void analysis_free(struct ns_analyzer *a)
{
    findings_free(a->findings);
}

void analysis_on_call(struct ns_analyzer *a, struct ns_txn *t, const struct ns_conn *c)
{
    (void)a; (void)t; (void)c;
}

void analysis_on_retransmit(struct ns_analyzer *a, struct ns_txn *t, const struct ns_conn *c)
{
    (void)a; (void)t; (void)c;
}

void analysis_on_reply(struct ns_analyzer *a, struct ns_txn *t, const struct ns_conn *c, bool dup)
{
    (void)a; (void)t; (void)c; (void)dup;
}

void analysis_on_txn_done(struct ns_analyzer *a, const struct ns_txn *t, bool given_up)
{
    (void)a; (void)t; (void)given_up;
}

void analysis_on_fragmented(struct ns_analyzer *a, const struct ipfrag_done *d)
{
    (void)a; (void)d;
}

void analysis_finish(struct ns_analyzer *a)
{
    (void)a;
}
