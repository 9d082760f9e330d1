/* Values as text: addresses, connection ids, hex bytes, packet times. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "nfsscope/view.h"

/* From the endpoint's text, so both spell an address the same way. */
void ns_addr_str(const struct ns_addr *a, char *buf, size_t n)
{
    char ep[NS_ENDPOINT_STRLEN];
    struct ns_endpoint e = {*a, 0};
    ns_endpoint_str(&e, ep, sizeof ep);
    char *colon = strrchr(ep, ':');
    if (colon) *colon = 0;
    const char *s = ep;
    if (a->family == 6 && ep[0] == '[') { /* "[fd77::2]" -> "fd77::2" */
        s = ep + 1;
        char *b = strrchr(ep, ']');
        if (b) *b = 0;
    }
    snprintf(buf, n, "%s", s);
}

const char *ns_conn_name(uint32_t id, char *buf, size_t n)
{
    snprintf(buf, n, "c%u", id);
    return buf;
}

void ns_hex_str(const uint8_t *b, size_t len, char *buf, size_t n)
{
    if (!n) return;
    size_t o = 0;
    for (size_t i = 0; i < len && o + 2 < n; i++) o += (size_t)snprintf(buf + o, n - o, "%02x", b[i]);
    buf[o] = 0;
    if (2 * len > n - 1 && n >= 4) memcpy(buf + n - 4, "...", 4);
}

/* Packet times are UTC: the output must not depend on the machine's zone. */
static size_t utc(int64_t ns, const char *fmt, char *buf, size_t n)
{
    time_t s = (time_t)(ns / 1000000000);
    struct tm tm;
    gmtime_r(&s, &tm);
    return strftime(buf, n, fmt, &tm);
}

void ns_clock_str(int64_t ns, char *buf, size_t n)
{
    size_t l = utc(ns, "%H:%M:%S", buf, n);
    snprintf(buf + l, n - l, ".%06lld", (long long)(ns % 1000000000 / 1000));
}

void ns_time_str(int64_t ns, char *buf, size_t n)
{
    size_t l = utc(ns, "%Y-%m-%d %H:%M:%S", buf, n);
    snprintf(buf + l, n - l, ".%06lld UTC", (long long)(ns % 1000000000 / 1000));
}
