/* Linux SUNRPC RTT estimator (net/sunrpc/timer.c, include/linux/sunrpc/timer.h,
 * net/sunrpc/xprt.c), after Van Jacobson and Karels (SIGCOMM '88, appendix A):
 *
 *   rpc_init_rtt:   srtt = (timeo - RPC_RTO_INIT) << 3, sdrtt = RPC_RTO_INIT,
 *                   so the first RTO of every class is timeo;
 *   rpc_update_rtt: m == 0 -> 1; err = m - srtt/8; srtt += err (gain 1/8);
 *                   sdrtt += |err| - sdrtt/4 (gain 1/4 on the mean deviation,
 *                   sdrtt holds 4 x deviation); sdrtt >= RPC_RTO_MIN;
 *   rpc_calc_rto:   (srtt + 7)/8 + sdrtt = SRTT + 4 x deviation, <= RPC_RTO_MAX;
 *                   class 0 returns the fixed timeo;
 *   rpc_set_timeo:  on a reply, ntimeouts = min(ntrans - 1, 8), or one less
 *                   when the new value is lower;
 *   the timeout armed at each transmission is rto << (ntimeouts + retries),
 *   to_maxval if larger or zero (xprt_wait_for_reply_request_rtt).
 *
 * The kernel works in jiffies; this works in nanoseconds with the same integer
 * steps (the "+ 7" rounding and the shifts included), so a sample of 0 becomes
 * 1 ns instead of 1 jiffy. Written from the description above. */
#include "udp_rtt.h"

void udp_rtt_init(struct udp_rtt *r, int64_t timeo_ns)
{
    int64_t init = timeo_ns > UDP_RTO_INIT_NS ? (timeo_ns - UDP_RTO_INIT_NS) * 8 : 0;
    r->timeo = timeo_ns;
    for (int i = 0; i < UDP_RTT_TIMERS; i++) {
        r->srtt8[i] = init;
        r->sdrtt4[i] = UDP_RTO_INIT_NS;
        r->ntimeouts[i] = 0;
    }
}

void udp_rtt_update(struct udp_rtt *r, unsigned timer, int64_t m)
{
    if (timer == 0 || timer > UDP_RTT_TIMERS || m < 0) return;
    unsigned i = timer - 1;
    if (m == 0) m = 1;
    int64_t err = m - (r->srtt8[i] >> 3);
    r->srtt8[i] += err;
    if (err < 0) err = -err;
    err -= r->sdrtt4[i] >> 2;
    r->sdrtt4[i] += err;
    if (r->sdrtt4[i] < UDP_RTO_MIN_NS) r->sdrtt4[i] = UDP_RTO_MIN_NS;
}

int64_t udp_rtt_rto(const struct udp_rtt *r, unsigned timer)
{
    if (timer == 0 || timer > UDP_RTT_TIMERS) return r->timeo;
    unsigned i = timer - 1;
    int64_t res = ((r->srtt8[i] + 7) >> 3) + r->sdrtt4[i];
    return res > UDP_RTO_MAX_NS ? UDP_RTO_MAX_NS : res;
}

void udp_rtt_set_timeo(struct udp_rtt *r, unsigned timer, int ntimeo)
{
    if (timer == 0 || timer > UDP_RTT_TIMERS) return;
    int *t = &r->ntimeouts[timer - 1];
    if (ntimeo < *t) {
        if (*t > 0) (*t)--;
    } else {
        *t = ntimeo > UDP_NTIMEO_MAX ? UDP_NTIMEO_MAX : ntimeo;
    }
}

int udp_rtt_ntimeo(const struct udp_rtt *r, unsigned timer)
{
    return timer == 0 || timer > UDP_RTT_TIMERS ? 0 : r->ntimeouts[timer - 1];
}

int64_t udp_rtt_timeout(const struct udp_rtt *r, unsigned timer, unsigned retries, int64_t maxval)
{
    int64_t t = udp_rtt_rto(r, timer);
    unsigned shift = (unsigned)udp_rtt_ntimeo(r, timer) + retries;
    if (t <= 0 || shift >= 40 || t > (maxval >> shift)) return maxval;
    t <<= shift;
    return t > maxval || t == 0 ? maxval : t;
}

int64_t udp_rtt_srtt(const struct udp_rtt *r, unsigned timer)
{
    return timer == 0 || timer > UDP_RTT_TIMERS ? 0 : (r->srtt8[timer - 1] + 7) >> 3;
}

int64_t udp_rtt_dev(const struct udp_rtt *r, unsigned timer)
{
    return timer == 0 || timer > UDP_RTT_TIMERS ? 0 : r->sdrtt4[timer - 1] / 4;
}
