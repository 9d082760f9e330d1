/* The RTT estimator of the Linux SUNRPC client for datagram transports,
 * rebuilt in nanoseconds (the kernel counts jiffies). See udp_rtt.c. */
#ifndef NFSSCOPE_UDP_RTT_H
#define NFSSCOPE_UDP_RTT_H
#include <stdint.h>

#define UDP_RTT_TIMERS 5                       /* classes 1..5; 0 has none */
#define UDP_RTO_MAX_NS (60ll * 1000000000ll)   /* RPC_RTO_MAX = 60*HZ */
#define UDP_RTO_INIT_NS (200ll * 1000000ll)    /* RPC_RTO_INIT = HZ/5 */
#define UDP_RTO_MIN_NS (100ll * 1000000ll)     /* RPC_RTO_MIN = HZ/10: floor of 4 x deviation */
#define UDP_NTIMEO_MAX 8

struct udp_rtt {
    int64_t timeo;                    /* fixed timeout (class 0, and the start value) */
    int64_t srtt8[UDP_RTT_TIMERS];    /* 8 x smoothed RTT */
    int64_t sdrtt4[UDP_RTT_TIMERS];   /* 4 x smoothed mean deviation */
    int ntimeouts[UDP_RTT_TIMERS];    /* timeouts of the last requests */
};

/* rpc_init_rtt: every class starts with RTO = timeo. */
void udp_rtt_init(struct udp_rtt *r, int64_t timeo_ns);
/* rpc_update_rtt: one RTT sample m (ns) of class timer (0: ignored). */
void udp_rtt_update(struct udp_rtt *r, unsigned timer, int64_t m_ns);
/* rpc_calc_rto: SRTT + 4 x deviation, at most 60 s; class 0: timeo. */
int64_t udp_rtt_rto(const struct udp_rtt *r, unsigned timer);
/* rpc_set_timeo: after a reply to a request sent ntrans times. */
void udp_rtt_set_timeo(struct udp_rtt *r, unsigned timer, int ntrans_minus_1);
int udp_rtt_ntimeo(const struct udp_rtt *r, unsigned timer);
/* The timeout armed at a transmission (xprt_wait_for_reply_request_rtt):
 * RTO << (ntimeouts + retries), maxval when larger or zero. */
int64_t udp_rtt_timeout(const struct udp_rtt *r, unsigned timer, unsigned retries, int64_t maxval_ns);
/* Smoothed RTT and deviation (ns) of a class, as rpc_calc_rto uses them. */
int64_t udp_rtt_srtt(const struct udp_rtt *r, unsigned timer);
int64_t udp_rtt_dev(const struct udp_rtt *r, unsigned timer);

#endif
