/* UDP figures: a pair's totals over its timer classes, per-class means and
 * the loss rate. */
#include "nfsscope/view.h"

void ns_udp_pair_totals(const struct ns_udp_pair *p, struct ns_udp_totals *out)
{
    *out = (struct ns_udp_totals){0};
    for (unsigned k = 0; k < NS_UDP_TIMERS; k++) {
        out->calls += p->cls[k].calls;
        out->retransmissions += p->cls[k].retransmissions;
        out->lost_to_fragments += p->cls[k].lost_to_fragments;
    }
}

bool ns_udp_class_used(const struct ns_udp_class *c)
{
    return c->calls || c->retransmissions || c->dup_replies || c->lost_to_fragments;
}

/* A spurious resend lost nothing; an unanswered call lost its round trip. */
double ns_udp_loss_rate(const struct ns_udp_class *c)
{
    uint64_t sends = c->calls + c->retransmissions;
    uint64_t lost = (c->retransmissions > c->spurious ? c->retransmissions - c->spurious : 0) + c->unanswered;
    return sends ? (double)lost / (double)sends : 0;
}

void ns_udp_class_means(const struct ns_udp_class *c, struct ns_udp_class_means *out)
{
    out->rtt_mean_ns = c->rtt_samples ? c->rtt_sum_ns / (int64_t)c->rtt_samples : -1;
    out->gap_mean_ns = c->retransmissions ? c->gap_sum_ns / (int64_t)c->retransmissions : -1;
    /* late resends met a reply already there: no timeout to compare with */
    out->timed_resends = c->retransmissions - c->late_retransmissions;
    out->timeout_ratio_mean = out->timed_resends ? c->timeout_ratio_sum / (double)out->timed_resends : 0.0;
}
