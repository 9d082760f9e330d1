/* Fan-out of RPC events to the analyzers. Keep this file a list of calls:
 * the logic lives in each analyzer's own module. */
#include "analysis.h"

#include <string.h>

#include "sess_model.h"
#include "udp_model.h"
#include "who.h"

bool analysis_init(struct analysis *an, struct memcap *mc, const struct ns_config *cfg)
{
    memset(an, 0, sizeof *an);
    an->findings = findings_new(mc);
    struct sess_config scfg = {cfg->storm_count, cfg->storm_window_ns, cfg->grace_period_ns, cfg->lease_time_ns};
    an->sessions = an->findings ? sess_new(mc, an->findings, &scfg) : NULL;
    struct udp_timing_cfg ucfg = {cfg->rto_factor, cfg->udp_timeo_ns, cfg->udp_retrans};
    an->udp = an->findings ? udp_timing_new(mc, &ucfg, an->findings) : NULL;
    an->who = who_new(mc);
    if (an->findings && an->sessions && an->udp && an->who) return true;
    analysis_free(an);
    return false;
}

void analysis_free(struct analysis *an)
{
    sess_free(an->sessions);
    udp_timing_free(an->udp);
    who_free(an->who);
    findings_free(an->findings);
    memset(an, 0, sizeof *an);
}

const struct nfs_name_sink *analysis_names(struct analysis *an) { return who_names(an->who); }

void analysis_set_listeners(struct analysis *an, findings_listener_fn on_finding, analysis_amend_fn on_amend,
                            void *ctx)
{
    findings_set_listener(an->findings, on_finding, ctx);
    struct analysis_amend am = {on_amend, ctx};
    sess_set_amend(an->sessions, &am);
    udp_timing_set_amend(an->udp, &am);
}

void analysis_on_call(struct analysis *an, struct ns_txn *t, const struct ns_conn *c, uint64_t frame, int64_t now,
                      struct analysis_frame *out)
{
    sess_on_call(an->sessions, t, c, out ? &out->sess : NULL);
    udp_timing_on_call(an->udp, t, c, now, frame, out ? &out->udp : NULL);
    who_on_call(an->who, t);
}

void analysis_on_retransmit(struct analysis *an, struct ns_txn *t, const struct ns_conn *c, uint64_t frame,
                            int64_t now, struct analysis_frame *out)
{
    sess_on_retransmit(an->sessions, t, frame, now, out ? &out->sess : NULL);
    udp_timing_on_retransmit(an->udp, t, c, now, frame, out ? &out->udp : NULL);
}

void analysis_on_reply(struct analysis *an, struct ns_txn *t, const struct ns_conn *c, bool dup, uint64_t frame,
                       int64_t now, struct analysis_frame *out)
{
    sess_on_reply(an->sessions, t, c, dup, out ? &out->sess : NULL);
    udp_timing_on_reply(an->udp, t, c, dup, now, frame, out ? &out->udp : NULL);
    who_on_reply(an->who, t, dup);
}

void analysis_on_txn_done(struct analysis *an, const struct ns_txn *t, const struct ns_conn *c, bool given_up)
{
    sess_on_txn_done(an->sessions, t, given_up);
    udp_timing_on_done(an->udp, t, c, given_up);
    who_on_done(an->who, t, c);
}

void analysis_on_fragmented(struct analysis *an, const struct ipfrag_done *d, uint64_t frame, int64_t now)
{
    udp_timing_on_fragmented(an->udp, d, now, frame);
}

void analysis_settle(struct analysis *an, int64_t now, int64_t span_ns)
{
    sess_settle(an->sessions, now);
    udp_timing_settle(an->udp, span_ns);
}

void analysis_finish(struct analysis *an, int64_t now, int64_t span_ns)
{
    sess_finish(an->sessions, now);
    udp_timing_finish(an->udp, span_ns);
}
