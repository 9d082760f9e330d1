/* The metrics endpoint (analyzer/output/http_metrics.c) against clients in
 * this process, on loopback only: the server is pumped by hand between the
 * clients' steps, as the capture loop pumps it. A newcomer gets in when the
 * 8 slots hold idle clients, a trickling request is cut at the deadline
 * counted from accept, oversized headers get 431, a request split anywhere
 * is answered, ":PORT" answers over IPv4 and IPv6, scrapes within a
 * second share one render. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "http_metrics.h"

static int renders;

static int render(void *ctx, FILE *f)
{
    (void)ctx;
    renders++;
    return fprintf(f, "test_metric_total %d\n", renders) > 0 ? 0 : -1;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Serve for ms milliseconds (the capture loop's calls, 1 ms apart). */
static void pump(struct metrics_http *h, int ms)
{
    int64_t end = now_ms() + ms;
    do {
        metrics_http_poll(h, render, NULL);
        usleep(1000);
    } while (now_ms() < end);
}

static int port_of(struct metrics_http *h)
{
    const char *a = metrics_http_address(h, 0);
    const char *c = a ? strrchr(a, ':') : NULL;
    return c ? atoi(c + 1) : 0;
}

static int dial(int family, int port)
{
    int fd = socket(family, SOCK_STREAM, 0);
    int rc = -1;
    if (family == AF_INET6) {
        struct sockaddr_in6 s = {.sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port), .sin6_addr = IN6ADDR_LOOPBACK_INIT};
        rc = connect(fd, (struct sockaddr *)&s, sizeof s);
    } else {
        struct sockaddr_in s = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        rc = connect(fd, (struct sockaddr *)&s, sizeof s);
    }
    if (rc != 0) { close(fd); return -1; }
    return fd;
}

static void say(int fd, const char *s, size_t n)
{
    CHECK(send(fd, s, n, MSG_NOSIGNAL) == (ssize_t)n);
}

/* Pump the server and read fd until EOF or ms pass: the bytes read (buf is
 * NUL-terminated), or -1 when the connection was reset, -2 on timeout. */
static int answer_of(struct metrics_http *h, int fd, char *buf, size_t cap, int ms)
{
    size_t len = 0;
    int64_t end = now_ms() + ms;
    buf[0] = 0;
    while (now_ms() < end) {
        metrics_http_poll(h, render, NULL);
        ssize_t r = recv(fd, buf + len, cap - 1 - len, MSG_DONTWAIT);
        if (r == 0) return (int)len;
        if (r > 0) {
            len += (size_t)r;
            buf[len] = 0;
            if (len == cap - 1) return (int)len;
            continue;
        }
        if (errno == ECONNRESET) return -1;
        usleep(1000);
    }
    return -2;
}

/* Eight clients hold every slot with half a request each; a ninth is
 * answered, the oldest of the eight is closed to make room. */
static void test_full_house(void)
{
    char err[256], buf[4096];
    struct metrics_http *h = metrics_http_open("127.0.0.1:0", err, sizeof err);
    CHECK(h != NULL);
    if (!h) { fprintf(stderr, "%s\n", err); return; }
    int port = port_of(h), idle[METRICS_HTTP_CLIENTS];
    for (int i = 0; i < METRICS_HTTP_CLIENTS; i++) {
        idle[i] = dial(AF_INET, port);
        CHECK(idle[i] >= 0);
        say(idle[i], "GET /met", 8);
        pump(h, 5); /* accepted one after the other: idle[0] is the oldest */
    }
    int fd = dial(AF_INET, port);
    CHECK(fd >= 0);
    say(fd, "GET /metrics HTTP/1.1\r\n\r\n", 25);
    int n = answer_of(h, fd, buf, sizeof buf, 1000);
    CHECK(n > 0 && strncmp(buf, "HTTP/1.1 200 OK\r\n", 17) == 0);
    CHECK(n > 0 && strstr(buf, "test_metric_total") != NULL);
    close(fd);
    int r = answer_of(h, idle[0], buf, sizeof buf, 200);
    CHECK(r == 0 || r == -1); /* closed */
    CHECK(answer_of(h, idle[1], buf, sizeof buf, 50) == -2); /* still waiting */
    for (int i = 0; i < METRICS_HTTP_CLIENTS; i++) close(idle[i]);
    metrics_http_close(h);
}

/* One byte every 500 ms: closed METRICS_HTTP_DEADLINE_MS after accept,
 * not 5 s after the last byte. */
static void test_trickle_deadline(void)
{
    char err[256], buf[256];
    struct metrics_http *h = metrics_http_open("127.0.0.1:0", err, sizeof err);
    CHECK(h != NULL);
    if (!h) return;
    int fd = dial(AF_INET, port_of(h));
    CHECK(fd >= 0);
    int64_t t0 = now_ms(), closed_at = 0;
    const char *req = "GET /metrics HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    for (size_t i = 0; i < strlen(req) && !closed_at; i++) {
        if (send(fd, req + i, 1, MSG_NOSIGNAL) != 1) { closed_at = now_ms(); break; }
        int r = answer_of(h, fd, buf, sizeof buf, 500);
        if (r != -2) closed_at = now_ms();
        if (now_ms() - t0 > METRICS_HTTP_DEADLINE_MS + 2000) break;
    }
    CHECK(closed_at != 0);
    CHECK(closed_at - t0 >= METRICS_HTTP_DEADLINE_MS - 100 && closed_at - t0 <= METRICS_HTTP_DEADLINE_MS + 600);
    if (closed_at) fprintf(stderr, "trickling client closed after %lld ms\n", (long long)(closed_at - t0));
    close(fd);
    metrics_http_close(h);
}

/* Headers past METRICS_HTTP_REQ_MAX: 431, then the connection ends. A
 * request whose end arrives split in two is answered. */
static void test_sizes(void)
{
    char err[256], buf[4096];
    struct metrics_http *h = metrics_http_open("127.0.0.1:0", err, sizeof err);
    CHECK(h != NULL);
    if (!h) return;
    int fd = dial(AF_INET, port_of(h));
    char big[METRICS_HTTP_REQ_MAX + 100];
    memset(big, 'a', sizeof big);
    memcpy(big, "GET /metrics HTTP/1.1\r\nX: ", 26);
    say(fd, big, sizeof big);
    int n = answer_of(h, fd, buf, sizeof buf, 1500);
    CHECK(n > 0 && strncmp(buf, "HTTP/1.1 431 ", 13) == 0);
    close(fd);

    const char *req = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
    for (size_t cut = 1; cut < strlen(req); cut += 7) {
        fd = dial(AF_INET, port_of(h));
        say(fd, req, cut);
        pump(h, 3);
        say(fd, req + cut, strlen(req) - cut);
        n = answer_of(h, fd, buf, sizeof buf, 1000);
        CHECK(n > 0 && strncmp(buf, "HTTP/1.1 200 OK\r\n", 17) == 0);
        close(fd);
    }
    metrics_http_close(h);
}

/* A scrape over fd: 1 when answered 200. */
static int scraped(struct metrics_http *h, int fd)
{
    char buf[4096];
    if (fd < 0) return 0;
    say(fd, "GET /metrics HTTP/1.1\r\n\r\n", 25);
    int n = answer_of(h, fd, buf, sizeof buf, 1000);
    close(fd);
    return n > 0 && strncmp(buf, "HTTP/1.1 200 OK\r\n", 17) == 0;
}

/* ":PORT" is every address of both families; "[::1]:PORT" and
 * "127.0.0.1:PORT" one each. */
static void test_addresses(void)
{
    char err[256];
    int v6 = socket(AF_INET6, SOCK_STREAM, 0);
    struct sockaddr_in6 lo6 = {.sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT};
    int have_v6 = v6 >= 0 && bind(v6, (struct sockaddr *)&lo6, sizeof lo6) == 0;
    if (v6 >= 0) close(v6);
    if (!have_v6) fprintf(stderr, "no IPv6 loopback here: the IPv6 checks are skipped\n");

    struct metrics_http *h = metrics_http_open(":0", err, sizeof err);
    CHECK(h != NULL);
    if (!h) { fprintf(stderr, "%s\n", err); return; }
    int port = port_of(h), fams = 0;
    for (int i = 0; metrics_http_address(h, i); i++) {
        const char *a = metrics_http_address(h, i);
        CHECK(atoi(strrchr(a, ':') + 1) == port); /* port 0: one port for all */
        fams |= a[0] == '[' ? 2 : 1;
    }
    CHECK(fams == (have_v6 ? 3 : 1));
    CHECK(scraped(h, dial(AF_INET, port)));
    if (have_v6) CHECK(scraped(h, dial(AF_INET6, port)));
    metrics_http_close(h);

    h = metrics_http_open("127.0.0.1:0", err, sizeof err);
    CHECK(h != NULL && metrics_http_address(h, 1) == NULL);
    if (h) {
        CHECK(scraped(h, dial(AF_INET, port_of(h))));
        metrics_http_close(h);
    }
    if (!have_v6) return;
    h = metrics_http_open("[::1]:0", err, sizeof err);
    CHECK(h != NULL);
    if (!h) { fprintf(stderr, "%s\n", err); return; }
    CHECK_EQ_S(metrics_http_address(h, 0), (snprintf(err, sizeof err, "[::1]:%d", port_of(h)), err));
    CHECK(scraped(h, dial(AF_INET6, port_of(h))));
    CHECK(dial(AF_INET, port_of(h)) < 0); /* IPv6 only */
    metrics_http_close(h);
}

/* Twenty scrapes within a second: one render, the same body; the next
 * scrape after METRICS_HTTP_CACHE_MS renders again. */
static void test_cache(void)
{
    char err[256], buf[4096], first[4096];
    struct metrics_http *h = metrics_http_open("127.0.0.1:0", err, sizeof err);
    CHECK(h != NULL);
    if (!h) return;
    int r0 = renders;
    int64_t t0 = now_ms();
    for (int i = 0; i < 20; i++) {
        int fd = dial(AF_INET, port_of(h));
        say(fd, "GET /metrics HTTP/1.1\r\n\r\n", 25);
        int n = answer_of(h, fd, buf, sizeof buf, 1000);
        close(fd);
        CHECK(n > 0 && strncmp(buf, "HTTP/1.1 200 OK\r\n", 17) == 0);
        if (i == 0) memcpy(first, buf, sizeof buf);
        else CHECK(n > 0 && strcmp(buf, first) == 0);
    }
    CHECK(now_ms() - t0 < METRICS_HTTP_CACHE_MS); /* else the machine is too slow for this check */
    CHECK_EQ_U(renders - r0, 1);
    pump(h, METRICS_HTTP_CACHE_MS + 10);
    int fd = dial(AF_INET, port_of(h));
    say(fd, "GET /metrics HTTP/1.1\r\n\r\n", 25);
    CHECK(answer_of(h, fd, buf, sizeof buf, 1000) > 0 && strcmp(buf, first) != 0);
    close(fd);
    CHECK_EQ_U(renders - r0, 2);
    metrics_http_close(h);
}

int main(void)
{
    test_cache();
    test_addresses();
    test_full_house();
    test_sizes();
    test_trickle_deadline();
    return check_done("test_http_metrics");
}
