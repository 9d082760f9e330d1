/* Findings of the UDP timing analyzer, one of each kind per pair, raised as
 * soon as their rule holds and kept up to date while frames are fed:
 *   RTO_INFLATED         at the first inflated resend
 *   FRAGMENT_LOSS        at the first reply lost to a missing fragment
 *   SPURIOUS_RETRANSMIT  at the UDP_SPURIOUS_MIN-th spurious call
 * A finding mirrors its pair: count = the pair's total, frames and times =
 * the pair's frame set of the kind, conns = the pair's conns, and the
 * figures its message gives (struct udp_state; the message is written from
 * them when a front end reads the finding, not on each resend). So the
 * finding at the end is what the end-of-capture computation used to give. The RTO_INFLATED message has the
 * wait as a share of the capture: while feeding, the span is the one given at
 * the last settle, or the packet times seen here when longer (so the share
 * stays <= 100%); settle/finish write it with the span given. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "finding_digits.h"
#include "nfsscope/nfsscope.h"
#include "udp_int.h"

static const struct { const char *kind; uint8_t sev; } FK[UDP_FK_KINDS] = {
    [UDP_FK_INFLATED] = {"RTO_INFLATED", NS_SEV_WARNING},
    [UDP_FK_FRAGMENT] = {"FRAGMENT_LOSS", NS_SEV_ERROR},
    [UDP_FK_SPURIOUS] = {"SPURIOUS_RETRANSMIT", NS_SEV_WARNING},
};

struct totals { uint64_t inflated, retrans, lost, fragrep, spurious, dups; };

static struct totals pair_totals(const struct pair *p)
{
    struct totals s = {0, 0, 0, 0, 0, 0};
    for (unsigned k = 0; k < NS_UDP_TIMERS; k++) {
        const struct ns_udp_class *c = &p->v.cls[k];
        s.inflated += c->inflated;
        s.retrans += c->retransmissions;
        s.lost += c->lost_to_fragments;
        s.fragrep += c->fragmented_replies;
        s.spurious += c->spurious;
        s.dups += c->dup_replies;
    }
    return s;
}

static uint64_t kind_count(const struct totals *s, unsigned k)
{
    return k == UDP_FK_INFLATED ? s->inflated : k == UDP_FK_FRAGMENT ? s->lost : s->spurious;
}

static bool rule_holds(const struct totals *s, unsigned k)
{
    return kind_count(s, k) >= (k == UDP_FK_SPURIOUS ? UDP_SPURIOUS_MIN : 1);
}

/* What a finding's message says beyond its count, times and frames (only
 * that: equal states are equal messages), kept by the store; udp_render
 * writes the message from it when a front end reads the finding. Figures
 * the message prints with "%.Nf" are kept as the digits it prints
 * (finding_digits). */
struct udp_state {
    uint8_t kind;                   /* enum udp_fk */
    struct ns_addr client;          /* named without a port: any client port */
    struct ns_endpoint server;
    union {
        struct {
            uint64_t inflated, retrans;
            int64_t worst_gap_tenths_ms, worst_rto_tenths_ms, wait_ms, share_tenths;
            double factor;
        } in;                       /* RTO_INFLATED */
        struct {
            uint64_t lost, fragrep;
            int64_t lost_tenths;    /* of a percent */
            uint32_t fragments_max, mtu;
        } fr;                       /* FRAGMENT_LOSS */
        struct { uint64_t spurious, dups, retrans; } sp; /* SPURIOUS_RETRANSMIT */
    } u;
};
_Static_assert(sizeof(struct udp_state) <= FINDINGS_STATE_MAX, "udp_state too large");

static void state_of(const struct udp_timing *u, const struct pair *p, const struct totals *s, unsigned k,
                     int64_t span_ns, struct udp_state *st)
{
    memset(st, 0, sizeof *st);
    st->kind = (uint8_t)k;
    st->client = p->v.client;
    st->server = p->v.server;
    if (k == UDP_FK_INFLATED) {
        st->u.in.inflated = s->inflated;
        st->u.in.retrans = s->retrans;
        st->u.in.worst_gap_tenths_ms = finding_digits((double)p->inflated_gap_max / 1e6, 1);
        st->u.in.worst_rto_tenths_ms = finding_digits((double)p->inflated_rto / 1e6, 1);
        st->u.in.wait_ms = finding_digits((double)p->v.wait_ns / 1e9, 3);
        st->u.in.share_tenths =
            finding_digits(span_ns > 0 ? 100.0 * (double)p->v.wait_ns / (double)span_ns : 0, 1);
        st->u.in.factor = u->cfg.rto_factor;
    } else if (k == UDP_FK_FRAGMENT) {
        st->u.fr.lost = s->lost;
        st->u.fr.fragrep = s->fragrep;
        st->u.fr.lost_tenths = finding_digits(s->fragrep ? 100.0 * (double)s->lost / (double)s->fragrep : 0.0, 1);
        st->u.fr.fragments_max = p->v.fragments_max;
        st->u.fr.mtu = p->v.mtu;
    } else {
        st->u.sp.spurious = s->spurious;
        st->u.sp.dups = s->dups;
        st->u.sp.retrans = s->retrans;
    }
}

static void udp_render(const struct ns_finding *f, const void *state, char *m)
{
    (void)f;
    const struct udp_state *st = state;
    char cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN];
    struct ns_endpoint e = {st->client, 0};
    ns_endpoint_str(&e, cl, NS_ENDPOINT_STRLEN);
    char *colon = strrchr(cl, ':'); /* drop the port: any client port */
    if (colon) *colon = 0;
    ns_endpoint_str(&st->server, sv, NS_ENDPOINT_STRLEN);
    int n; /* the message fits NS_FINDING_MSG_MAX for any real figures; else it is cut */
    if (st->kind == UDP_FK_INFLATED) {
        n = snprintf(m, NS_FINDING_MSG_MAX,
                 "%llu of %llu retransmissions from %s to %s waited more than %g x the RTO a Linux client "
                 "would compute from the measured RTT (worst: %" PRId64 ".%" PRId64 " ms against an RTO of %" PRId64
                 ".%" PRId64 " ms); calls waited on retransmit timeouts %" PRId64 ".%03" PRId64 " s, %" PRId64
                 ".%" PRId64 "%% of the capture",
                 (unsigned long long)st->u.in.inflated, (unsigned long long)st->u.in.retrans, cl, sv, st->u.in.factor,
                 st->u.in.worst_gap_tenths_ms / 10, st->u.in.worst_gap_tenths_ms % 10,
                 st->u.in.worst_rto_tenths_ms / 10, st->u.in.worst_rto_tenths_ms % 10, st->u.in.wait_ms / 1000,
                 st->u.in.wait_ms % 1000, st->u.in.share_tenths / 10, st->u.in.share_tenths % 10);
    } else if (st->kind == UDP_FK_FRAGMENT) {
        n = snprintf(m, NS_FINDING_MSG_MAX,
                 "%llu of %llu fragmented replies from %s to %s (%" PRId64 ".%" PRId64 "%%) were lost to a missing IP "
                 "fragment (up to %u fragments per datagram, MTU about %u) and cost a retransmit "
                 "timeout each: use a smaller rsize/wsize or NFS over TCP",
                 (unsigned long long)st->u.fr.lost, (unsigned long long)st->u.fr.fragrep, sv, cl,
                 st->u.fr.lost_tenths / 10, st->u.fr.lost_tenths % 10, st->u.fr.fragments_max, st->u.fr.mtu);
    } else {
        n = snprintf(m, NS_FINDING_MSG_MAX,
                 "%llu calls from %s to %s were resent although the server answered (the reply to an "
                 "earlier transmission came after the resend; %llu duplicate replies, %llu "
                 "retransmissions): the client resends faster than the server answers",
                 (unsigned long long)st->u.sp.spurious, cl, sv, (unsigned long long)st->u.sp.dups,
                 (unsigned long long)st->u.sp.retrans);
    }
    if (n < 0) m[0] = 0;
}

/* Make x say what the pair says; true if anything changed. */
static bool mirror(struct findings *fsto, struct ns_finding *x, const struct pair *p, const struct frame_set *fs,
                   uint64_t count, const struct udp_state *st)
{
    void *old = findings_state(fsto, x);
    bool ch = x->count != count || x->first_ts_ns != fs->first_ts || x->last_ts_ns != fs->last_ts ||
              x->nframes != fs->n || memcmp(x->frames, fs->f, fs->n * sizeof fs->f[0]) != 0 ||
              x->nconns != p->nconns || memcmp(x->conns, p->conns, p->nconns * sizeof p->conns[0]) != 0 ||
              memcmp(old, st, sizeof *st) != 0;
    if (!ch) return false;
    x->count = count;
    x->first_ts_ns = fs->first_ts;
    x->last_ts_ns = fs->last_ts;
    x->nframes = fs->n;
    memcpy(x->frames, fs->f, fs->n * sizeof fs->f[0]);
    x->nconns = p->nconns;
    memcpy(x->conns, p->conns, p->nconns * sizeof p->conns[0]);
    memcpy(old, st, sizeof *st);
    return true;
}

/* The span for messages while feeding (see the top of the file). */
static int64_t feed_span(const struct udp_timing *u)
{
    int64_t seen = u->ts_hi > u->ts_lo ? u->ts_hi - u->ts_lo : 0;
    return seen > u->span ? seen : u->span;
}

static void sync_pair(struct udp_timing *u, struct pair *p, unsigned occ, uint64_t frame, int64_t span)
{
    if (!u->fs) return; /* no store: figures only */
    struct totals s = pair_totals(p);
    for (unsigned k = 0; k < UDP_FK_KINDS; k++) {
        if (p->fidx[k] == UDP_FIDX_DROPPED) continue;
        const struct frame_set *fs = &p->sets[k];
        struct ns_finding *x = NULL;
        bool raised = false;
        if (p->fidx[k] == UDP_FIDX_NONE) {
            if (!rule_holds(&s, k)) continue;
            x = findings_add(u->fs, FK[k].kind, FK[k].sev, p->v.first_ts_ns);
            if (!x) { p->fidx[k] = UDP_FIDX_DROPPED; continue; }
            p->fidx[k] = findings_index(u->fs, x);
            findings_set_renderer(u->fs, x, udp_render);
            raised = true;
        } else {
            x = findings_get(u->fs, p->fidx[k]);
            if (!x) continue;
        }
        struct udp_state st;
        state_of(u, p, &s, k, span, &st);
        bool changed = mirror(u->fs, x, p, fs, kind_count(&s, k), &st);
        if (raised) {
            /* Every occurrence so far, then this one if not among the kept. */
            bool seen = false;
            for (unsigned i = 0; i < fs->n; i++) {
                findings_touch(u->fs, x, fs->f[i]);
                seen |= fs->f[i] == frame;
            }
            if (k == occ && frame && !seen) findings_touch(u->fs, x, frame);
        } else if (k == occ) {
            findings_touch(u->fs, x, frame);
        } else if (changed) {
            findings_touch(u->fs, x, 0);
        }
    }
}

void udp_findings_update(struct udp_timing *u, struct pair *p, unsigned occ, uint64_t frame)
{
    sync_pair(u, p, occ, frame, feed_span(u));
}

void udp_findings_settle(struct udp_timing *u, int64_t span)
{
    u->span = span;
    for (size_t i = 0; i < u->n; i++) sync_pair(u, u->order[i], UDP_FK_NONE, 0, span);
}
